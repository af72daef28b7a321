package com.multikey.emulator.services.bus;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * What EventBridge's PutEvents refuses, checked as the API reference describes it, so that the local
 * endpoint catches what AWS would. Written from the reference, independently of the router's own checks,
 * so a test against it finds the router's mistakes instead of repeating them.
 *
 * <p>Sources: PutEvents, PutEventsRequestEntry and PutEventsResultEntry in the Amazon EventBridge API
 * Reference, and "Calculating PutEvents event entry size" in the EventBridge User Guide. Model constraints
 * (entry count, string lengths) fail the whole call with {@code ValidationException}, as does a request
 * whose entries total the size limit or more ("Total size of the entries in the request is over the
 * limit."); what is wrong inside one entry fails that entry with an {@code ErrorCode}.
 */
public final class PutEventsValidation {

    /** PutEvents: Entries, array members 1 to 10. */
    static final int MAX_ENTRIES = 10;
    /** PutEventsRequestEntry: DetailType, length 1 to 128. */
    static final int MAX_DETAIL_TYPE_CHARS = 128;
    /** PutEventsRequestEntry: Source, length 1 to 256. */
    static final int MAX_SOURCE_CHARS = 256;
    /** PutEventsRequestEntry: EventBusName, length 1 to 1600. */
    static final int MAX_EVENT_BUS_NAME_CHARS = 1600;
    /** PutEventsRequestEntry: Resources, at most 100 members of at most 2048 characters. */
    static final int MAX_RESOURCES = 100;
    static final int MAX_RESOURCE_CHARS = 2048;
    /** PutEvents: "PutEvents will only process nested JSON up to 1000 levels deep." */
    static final int MAX_DETAIL_NESTING = 1000;
    /** PutEvents: "the total entry size must be less than 256KB" (1 MB where that quota applies). */
    public static final int DEFAULT_MAX_ENTRY_BYTES = 256 * 1024;
    /** Entry size: a Time counts 14 bytes. */
    static final int TIME_BYTES = 14;

    /** A refusal: the whole call's error type, or one entry's {@code ErrorCode}, with a message. */
    public record Refusal(String code, String message) {
    }

    // Depth is counted here, not by the parser: let it read deeper than AWS allows so the count decides.
    private static final JsonFactory DETAIL_PARSER = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(Integer.MAX_VALUE).build())
            .build();

    private final int maxEntryBytes;

    public PutEventsValidation(int maxEntryBytes) {
        this.maxEntryBytes = maxEntryBytes;
    }

    /** Whether the whole call is refused ({@code ValidationException}), for a request as sent on the wire. */
    public Optional<Refusal> callRefusal(JsonNode request) {
        JsonNode entries = request.path("Entries");
        if (!entries.isArray() || entries.isEmpty() || entries.size() > MAX_ENTRIES) {
            return validation("Value at 'entries' failed to satisfy constraint: Member must have length less than or equal to "
                    + MAX_ENTRIES + " and greater than or equal to 1");
        }
        long total = 0;
        for (int i = 0; i < entries.size(); i++) {
            JsonNode entry = entries.get(i);
            String member = "'entries." + (i + 1) + ".member.";
            Optional<Refusal> length = tooLong(entry, "DetailType", MAX_DETAIL_TYPE_CHARS, member + "detailType'")
                    .or(() -> tooLong(entry, "Source", MAX_SOURCE_CHARS, member + "source'"))
                    .or(() -> tooLong(entry, "EventBusName", MAX_EVENT_BUS_NAME_CHARS, member + "eventBusName'"));
            if (length.isPresent()) {
                return length;
            }
            JsonNode resources = entry.path("Resources");
            if (resources.size() > MAX_RESOURCES) {
                return validation("Value at " + member + "resources' failed to satisfy constraint: Member must have length less than or equal to " + MAX_RESOURCES);
            }
            for (JsonNode resource : resources) {
                if (resource.isTextual() && characters(resource.asText()) > MAX_RESOURCE_CHARS) {
                    return validation("Value at " + member + "resources' failed to satisfy constraint: Member must have length less than or equal to " + MAX_RESOURCE_CHARS);
                }
            }
            total += entrySize(entry);
        }
        if (total >= maxEntryBytes) {
            return validation("Total size of the entries in the request is over the limit.");
        }
        return Optional.empty();
    }

    /** Whether one entry is refused, and with which {@code ErrorCode}. */
    public Optional<Refusal> entryRefusal(JsonNode entry) {
        for (String required : new String[]{"Source", "DetailType", "Detail"}) {
            if (!entry.path(required).isTextual() || entry.path(required).asText().isEmpty()) {
                return Optional.of(new Refusal("InvalidArgument", "Parameter " + required + " is not valid. Reason: " + required + " is a required argument."));
            }
        }
        if (entry.path("Source").asText().startsWith("aws.")) {
            return Optional.of(new Refusal("NotAuthorizedForSourceException", "Not authorized for the source."));
        }
        JsonNode time = entry.path("Time");
        if (!time.isMissingNode() && !time.isNull() && !(time.isNumber() && time.asDouble() >= 0)) {
            return Optional.of(new Refusal("InvalidArgument", "Parameter Time is not valid."));
        }
        for (JsonNode resource : entry.path("Resources")) {
            if (!resource.isTextual()) {
                return Optional.of(new Refusal("InvalidArgument", "Parameter Resources is not valid."));
            }
        }
        return detailProblem(entry.path("Detail").asText()).map(reason -> new Refusal("MalformedDetail", "Detail is malformed: " + reason));
    }

    /**
     * What is wrong with a Detail: not JSON, not one JSON object, an integer outside int64, or nesting
     * deeper than 1000 levels; empty when PutEvents accepts it.
     */
    public static Optional<String> detailProblem(String detail) {
        try (JsonParser parser = DETAIL_PARSER.createParser(detail)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return Optional.of("not a JSON object");
            }
            int depth = 1;
            while (depth > 0) {
                JsonToken token = parser.nextToken();
                if (token == null) {
                    return Optional.of("unexpected end of input");
                }
                switch (token) {
                    case START_OBJECT, START_ARRAY -> {
                        if (++depth > MAX_DETAIL_NESTING) {
                            return Optional.of("nested deeper than " + MAX_DETAIL_NESTING + " levels");
                        }
                    }
                    case END_OBJECT, END_ARRAY -> depth--;
                    case VALUE_NUMBER_INT -> {
                        JsonParser.NumberType type = parser.getNumberType();
                        if (type != JsonParser.NumberType.INT && type != JsonParser.NumberType.LONG) {
                            return Optional.of("integer outside int64");
                        }
                    }
                    default -> {
                    }
                }
            }
            if (parser.nextToken() != null) {
                return Optional.of("content after the JSON object");
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of("not valid JSON");
        }
    }

    /** The entry's size as the user guide counts it: Time 14 bytes, and the UTF-8 bytes of Source, DetailType, Detail and each resource. */
    static long entrySize(JsonNode entry) {
        long size = entry.hasNonNull("Time") ? TIME_BYTES : 0;
        size += utf8(entry.path("Source").asText("")) + utf8(entry.path("DetailType").asText("")) + utf8(entry.path("Detail").asText(""));
        for (JsonNode resource : entry.path("Resources")) {
            size += utf8(resource.asText(""));
        }
        return size;
    }

    private static Optional<Refusal> tooLong(JsonNode entry, String field, int max, String where) {
        JsonNode value = entry.path(field);
        if (value.isTextual() && characters(value.asText()) > max) {
            return validation("Value at " + where + " failed to satisfy constraint: Member must have length less than or equal to " + max);
        }
        return Optional.empty();
    }

    private static Optional<Refusal> validation(String message) {
        return Optional.of(new Refusal("ValidationException", "1 validation error detected: " + message));
    }

    private static int characters(String text) {
        return text.codePointCount(0, text.length());
    }

    private static int utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
