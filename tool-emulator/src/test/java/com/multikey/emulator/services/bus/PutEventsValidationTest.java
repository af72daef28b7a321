package com.multikey.emulator.services.bus;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class PutEventsValidationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final PutEventsValidation validation = new PutEventsValidation(PutEventsValidation.DEFAULT_MAX_ENTRY_BYTES);

    private static ObjectNode entry(String detail) {
        ObjectNode entry = JSON.createObjectNode().put("Source", "multikey.app-table").put("DetailType", "Issue Created")
                .put("Detail", detail).put("EventBusName", "app-events").put("Time", 1.7935776E9);
        entry.putArray("Resources").add("arn:aws:dynamodb:us-east-1:123456789012:table/AppTable");
        return entry;
    }

    private static ObjectNode request(ObjectNode... entries) {
        ObjectNode request = JSON.createObjectNode();
        ArrayNode array = request.putArray("Entries");
        for (ObjectNode entry : entries) {
            array.add(entry);
        }
        return request;
    }

    private static String nested(int levels) {
        return "{\"a\":".repeat(levels - 1) + "{}" + "}".repeat(levels - 1);
    }

    private Optional<String> entryCode(ObjectNode entry) {
        return validation.entryRefusal(entry).map(PutEventsValidation.Refusal::code);
    }

    private Optional<String> callCode(ObjectNode request) {
        return validation.callRefusal(request).map(PutEventsValidation.Refusal::code);
    }

    @Test
    void entryRefusal_acceptsAJsonObjectWithinInt64AndAnyFloat() {
        assertThat(entryCode(entry("{\"max\":9223372036854775807,\"min\":-9223372036854775808,\"f\":1E+125,\"t\":-1E-130,"
                + "\"big\":\"12345678901234567890\",\"a\":[1,{\"b\":null}]}"))).isEmpty();
        assertThat(entryCode(entry(nested(1000)))).isEmpty();
    }

    @Test
    void entryRefusal_whenDetailBreaksWhatPutEventsAccepts_isMalformedDetail() {
        assertThat(entryCode(entry("{\"n\":9223372036854775808}"))).contains("MalformedDetail");
        assertThat(entryCode(entry("{\"n\":-9223372036854775809}"))).contains("MalformedDetail");
        assertThat(entryCode(entry("{\"n\":[12345678901234567890123456789012345678]}"))).contains("MalformedDetail");
        assertThat(entryCode(entry(nested(1001)))).contains("MalformedDetail");
        assertThat(entryCode(entry("[1]"))).contains("MalformedDetail");
        assertThat(entryCode(entry("\"text\""))).contains("MalformedDetail");
        assertThat(entryCode(entry("{\"a\":"))).contains("MalformedDetail");
        assertThat(entryCode(entry("{} {}"))).contains("MalformedDetail");
    }

    @Test
    void entryRefusal_whenARequiredFieldIsMissingOrTimeOrResourcesAreNotValid_isInvalidArgument() {
        assertThat(entryCode((ObjectNode) entry("{}").without("DetailType"))).contains("InvalidArgument");
        assertThat(entryCode((ObjectNode) entry("{}").without("Detail"))).contains("InvalidArgument");
        assertThat(entryCode(entry("{}").put("Time", "yesterday"))).contains("InvalidArgument");
        ObjectNode badResource = entry("{}");
        badResource.withArray("Resources").add(7);
        assertThat(entryCode(badResource)).contains("InvalidArgument");
        assertThat(entryCode(entry("{}").put("Source", "aws.dynamodb"))).contains("NotAuthorizedForSourceException");
    }

    @Test
    void callRefusal_whenModelConstraintsOrTheSizeLimitAreBroken_isValidationException() {
        ObjectNode[] eleven = new ObjectNode[11];
        java.util.Arrays.fill(eleven, entry("{}"));

        assertThat(callCode(request(entry("{}")))).isEmpty();
        assertThat(callCode(request(eleven))).contains("ValidationException");
        assertThat(callCode(request())).contains("ValidationException");
        assertThat(callCode(request(entry("{}"), entry("{}").put("DetailType", "D".repeat(129))))).contains("ValidationException");
        assertThat(callCode(request(entry("{}").put("DetailType", "D".repeat(128))))).isEmpty();
        assertThat(callCode(request(entry("{}").put("Source", "s".repeat(257))))).contains("ValidationException");
    }

    @Test
    void callRefusal_whenEntriesTotalTheLimitOrMore_isValidationException() {
        ObjectNode entry = entry("{}");
        long fixed = PutEventsValidation.entrySize(entry) - 2;
        int limit = PutEventsValidation.DEFAULT_MAX_ENTRY_BYTES;

        ObjectNode justBelow = entry("{\"x\":\"" + "x".repeat((int) (limit - 1 - fixed - 8)) + "\"}");
        ObjectNode atLimit = entry("{\"x\":\"" + "x".repeat((int) (limit - fixed - 8)) + "\"}");

        assertThat(PutEventsValidation.entrySize(justBelow)).isEqualTo(limit - 1);
        assertThat(callCode(request(justBelow))).isEmpty();
        assertThat(callCode(request(atLimit))).contains("ValidationException");
        assertThat(callCode(request(entry("{\"x\":\"" + "x".repeat(limit / 2) + "\"}"), entry("{\"x\":\"" + "x".repeat(limit / 2) + "\"}"))))
                .contains("ValidationException");
    }

    @Test
    void entrySize_countsTimeAsFourteenBytesAndTextAsUtf8() {
        ObjectNode entry = JSON.createObjectNode().put("Source", "src").put("DetailType", "Issue Created")
                .put("Detail", "{\"é\":1}").put("Time", 0);
        entry.putArray("Resources").add("arn");

        assertThat(PutEventsValidation.entrySize(entry)).isEqualTo(14 + 3 + 13 + 8 + 3);
    }
}
