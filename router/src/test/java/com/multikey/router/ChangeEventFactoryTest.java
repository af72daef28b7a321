package com.multikey.router;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.common.ChangeRecord;
import com.multikey.index.definition.IndexDefinitions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Identity;
import software.amazon.awssdk.services.dynamodb.model.Record;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

class ChangeEventFactoryTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ChangeEventFactory factory = new ChangeEventFactory(
            new RouterConfig("bus", "multikey.app-table", RouterFixtures.TABLE_ARN, IndexDefinitions.packaged(), true, RouterConfig.DEFAULT_MAX_ENTRY_BYTES));

    private ChangeEvent event(Record record) {
        return factory.toEvent(RouterFixtures.changeRecord(record));
    }

    @Test
    void toEvent_namesTypeAndChange_fromKeyPrefixAndEventName() {
        var issue = Records.item("issue#020e", "a");
        var layer = Records.layer("layer#us-east-1#requests#12", "arn:aws:lambda:us-east-1:123456789012:layer:multikey-x:1");

        assertThat(event(Records.change(1, "issue#020e", null, issue)).detailType()).isEqualTo("Issue Created");
        assertThat(event(Records.change(2, "issue#020e", issue, Records.item("issue#020e", "b"))).detailType()).isEqualTo("Issue Updated");
        assertThat(event(Records.change(3, "issue#020e", issue, null)).detailType()).isEqualTo("Issue Removed");
        assertThat(event(Records.change(4, "issue#020e", issue, null, Records.TTL)).detailType()).isEqualTo("Issue Expired");
        assertThat(event(Records.change(5, "layer#us-east-1#requests#12", layer, null, Records.TTL)).detailType()).isEqualTo("Layer Expired");
        assertThat(event(Records.change(6, "custom-field#9", null, Records.item("custom-field#9", "x"))).detailType())
                .isEqualTo("CustomField Created");
    }

    @Test
    void toEvent_whenARecordSpellsANumberKeyAsItsRequestDid_carriesTheCanonicalNumber_asEveryOtherRecordOfTheItem() throws Exception {
        // given: one item's records, the MODIFY's key and images spelled as the update request spelled them (a local stream does this)
        Map<String, AttributeValue> created = Map.of("PK", AttributeValue.fromS("CUST#r1"), "SK", AttributeValue.fromN("100"),
                "score", AttributeValue.fromN("-1"));
        Map<String, AttributeValue> updated = Map.of("PK", AttributeValue.fromS("CUST#r1"), "SK", AttributeValue.fromN("100.0"),
                "score", AttributeValue.fromN("-1.00"), "tags", AttributeValue.fromNs(List.of("1E+2", "2.50")));
        ChangeEvent insert = event(Records.change(1, Map.of("PK", AttributeValue.fromS("CUST#r1"), "SK", AttributeValue.fromN("100")),
                null, created, null));

        // when
        ChangeEvent modify = event(Records.change(2, Map.of("PK", AttributeValue.fromS("CUST#r1"), "SK", AttributeValue.fromN("1E+2")),
                created, updated, null));

        // then
        JsonNode detail = JSON.readTree(modify.detail());
        assertThat(detail.get("keys").toString()).isEqualTo("{\"PK\":\"CUST#r1\",\"SK\":100}");
        assertThat(JSON.readTree(insert.detail()).get("keys")).isEqualTo(detail.get("keys"));
        assertThat(modify.itemKey()).isEqualTo(insert.itemKey());
        assertThat(detail.get("newImage").toString()).isEqualTo("{\"PK\":\"CUST#r1\",\"SK\":100,\"score\":-1,\"tags\":[100,2.5]}");
        assertThat(detail.get("changedAttributes").toString()).isEqualTo("[\"tags\"]");
    }

    @Test
    void toEvent_whenDeletedByAnyoneButTheTtlProcess_isRemovedNotExpired() {
        var layer = Records.layer("layer#1", "arn:aws:lambda:us-east-1:123456789012:layer:multikey-x:1");
        Identity otherService = Identity.builder().type("Service").principalId("lambda.amazonaws.com").build();
        Identity user = Identity.builder().type("User").principalId("dynamodb.amazonaws.com").build();

        assertThat(event(Records.change(1, "layer#1", layer, null)).detailType()).isEqualTo("Layer Removed");
        assertThat(event(Records.change(2, "layer#1", layer, null, otherService)).detailType()).isEqualTo("Layer Removed");
        assertThat(event(Records.change(3, "layer#1", layer, null, user)).detailType()).isEqualTo("Layer Removed");
    }

    @Test
    void toEvent_detailCarriesPlainJsonImagesKeysAndChangedAttributes() throws Exception {
        Map<String, AttributeValue> before = Map.of("id", AttributeValue.fromS("issue#1"), "num", AttributeValue.fromN("1.50"),
                "big", AttributeValue.fromN("-12345678901234567890123456789012345678E+100"),
                "tags", AttributeValue.fromSs(List.of("b", "a")), "blob", AttributeValue.fromB(SdkBytes.fromUtf8String("hi")),
                "same", AttributeValue.fromBool(true));
        Map<String, AttributeValue> after = Map.of("id", AttributeValue.fromS("issue#1"), "num", AttributeValue.fromN("2"),
                "same", AttributeValue.fromBool(true), "added", AttributeValue.fromNul(true));

        ChangeEvent event = event(Records.change(42, "issue#1", before, after));

        JsonNode detail = JSON.readTree(event.detail());
        assertThat(event.source()).isEqualTo("multikey.app-table");
        assertThat(event.resources()).containsExactly(RouterFixtures.TABLE_ARN);
        assertThat(event.time()).contains(java.time.Instant.ofEpochSecond(1_793_577_642L));
        assertThat(detail.get("entityType").asText()).isEqualTo("issue");
        assertThat(detail.get("change").asText()).isEqualTo("Updated");
        assertThat(detail.get("eventName").asText()).isEqualTo("MODIFY");
        assertThat(detail.get("keys").toString()).isEqualTo("{\"id\":\"issue#1\"}");
        // numbers in DynamoDB's canonical spelling; an integer outside int64 as a string of its digits
        assertThat(event.detail()).contains("\"num\":1.5,", "\"big\":\"-12345678901234567890123456789012345678" + "0".repeat(100) + "\"");
        assertThat(detail.get("oldImage").get("tags").toString()).isEqualTo("[\"b\",\"a\"]");
        assertThat(detail.get("oldImage").get("blob").asText()).isEqualTo("aGk=");
        assertThat(detail.get("newImage").get("added").isNull()).isTrue();
        assertThat(detail.get("changedAttributes").toString()).isEqualTo("[\"added\",\"big\",\"blob\",\"num\",\"tags\"]");
        assertThat(detail.get("eventId").asText()).isEqualTo("event-42");
        assertThat(detail.get("sequenceNumber").asText()).isEqualTo(String.format("%021d", 42));
        assertThat(detail.get("approximateCreationDateTime").asText()).isEqualTo(java.time.Instant.ofEpochSecond(1_793_577_642L).toString());
        assertThat(detail.get("imagesIncluded").asBoolean()).isTrue();
        assertThat(detail.get("imagesDropped").asBoolean()).isFalse();
    }

    @Test
    void toEvent_whenEntryWouldExceedTheLimit_sendsItWithoutImagesAndSaysSo() throws Exception {
        ChangeEventFactory small = new ChangeEventFactory(new RouterConfig("bus", "src", RouterFixtures.TABLE_ARN, IndexDefinitions.packaged(), true, 4096));
        var big = Map.of("id", AttributeValue.fromS("issue#1"), "text", AttributeValue.fromS("x".repeat(10_000)));

        ChangeEvent event = small.toEvent(RouterFixtures.changeRecord(Records.change(1, "issue#1", null, big)));

        JsonNode detail = JSON.readTree(event.detail());
        assertThat(event.size()).isLessThanOrEqualTo(4096);
        assertThat(detail.has("newImage")).isFalse();
        assertThat(detail.get("imagesDropped").asBoolean()).isTrue();
        assertThat(event.imagesDropped()).isTrue();
        assertThat(detail.get("changedAttributes").toString()).isEqualTo("[\"id\",\"text\"]");
        assertThat(detail.get("keys").toString()).isEqualTo("{\"id\":\"issue#1\"}");
    }

    @Test
    void toEvent_whenImagesAreSwitchedOff_sendsKeysAndChangedNamesOnly() throws Exception {
        ChangeEventFactory keysOnly = new ChangeEventFactory(new RouterConfig("bus", "src", RouterFixtures.TABLE_ARN, IndexDefinitions.packaged(), false, 262144));

        JsonNode detail = JSON.readTree(keysOnly.toEvent(RouterFixtures.changeRecord(Records.change(1, "issue#1", null, Records.item("issue#1", "n")))).detail());

        assertThat(detail.has("newImage")).isFalse();
        assertThat(detail.get("imagesIncluded").asBoolean()).isFalse();
        assertThat(detail.get("imagesDropped").asBoolean()).isFalse();
    }

    @Test
    void toEvent_whenAFixtureCarriesTheTimeInMilliseconds_sendsTheRightTime() {
        var fixture = com.multikey.testkit.Fixtures.root().resolve("external/dotnet-dynamodb-event-millis-timestamp.json");
        var records = com.multikey.emulator.services.streams.LambdaEvents.read(fixture, com.amazonaws.services.lambda.runtime.events.DynamodbEvent.class)
                .getRecords();

        List<ChangeEvent> events = records.stream().map(r -> factory.toEvent(ChangeRecord.from(r))).toList();

        assertThat(events).extracting(e -> e.time().orElseThrow().toString().substring(0, 4)).containsOnly("2016");
    }

    @Test
    void size_countsAsEventBridgeDoes() {
        ChangeEvent event = new ChangeEvent("k", null, "e", "src", "Issue Created", "{\"é\":1}",
                java.time.Instant.EPOCH, List.of("arn"), false, List.of(), null);

        // time 14, "src" 3, "Issue Created" 13, {"é":1} 8 bytes (é is two), "arn" 3
        assertThat(event.size()).isEqualTo(14 + 3 + 13 + 8 + 3);
    }

    private static AttributeValue nested(int levels) {
        AttributeValue value = AttributeValue.fromS("leaf");
        for (int level = 0; level < levels; level++) {
            value = AttributeValue.fromM(Map.of("a", value));
        }
        return value;
    }

    private ChangeEvent eventOf(Map<String, AttributeValue> image) {
        return factory.toEvent(new ChangeRecord("e-1", com.multikey.common.ChangeKind.INSERT, "1",
                Map.of("id", AttributeValue.fromS("issue#1")), null, image, null, null));
    }

    @Test
    void toEvent_keepsImagesUpToPutEventsNestingLimit_andDropsThemBeyond() throws Exception {
        // the detail is level 1, the image level 2: an attribute nested 998 levels makes 1000
        ChangeEvent deepest = eventOf(Map.of("id", AttributeValue.fromS("issue#1"), "deep", nested(998)));
        ChangeEvent tooDeep = eventOf(Map.of("id", AttributeValue.fromS("issue#1"), "deep", nested(999)));

        assertThat(deepest.imagesDropped()).isFalse();
        assertThat(com.multikey.emulator.services.bus.PutEventsValidation.detailProblem(deepest.detail())).isEmpty();
        assertThat(tooDeep.imagesDropped()).isTrue();
        assertThat(JSON.readTree(tooDeep.detail()).get("imagesDroppedReason").asText()).isEqualTo("nesting");
        assertThat(com.multikey.emulator.services.bus.PutEventsValidation.detailProblem(tooDeep.detail())).isEmpty();
    }

    @Test
    void toEvent_whenTheTypeNameWouldMakeDetailTypeTooLong_sendsItAsItem_withTheRealTypeInTheDetail() throws Exception {
        String longest = "t".repeat(128 - " Created".length());
        String tooLong = longest + "t";

        ChangeEvent fits = event(Records.change(1, longest + "#1", null, Records.item(longest + "#1", "x")));
        ChangeEvent fallsBack = event(Records.change(2, tooLong + "#1", null, Records.item(tooLong + "#1", "x")));

        assertThat(fits.detailType()).hasSize(128).startsWith("T");
        assertThat(fits.adjustments()).isEmpty();
        assertThat(fallsBack.detailType()).isEqualTo("Item Created");
        assertThat(JSON.readTree(fallsBack.detail()).get("entityType").asText()).isEqualTo(tooLong);
        assertThat(fallsBack.adjustments()).singleElement().asString().contains("DetailType");
    }

    @Test
    void toEvent_whenTheIdHasNoTypePrefix_isAnItem() throws Exception {
        String id = "x".repeat(200);

        ChangeEvent event = event(Records.change(1, id, null, Records.item(id, "x")));

        assertThat(event.detailType()).isEqualTo("Item Created");
        assertThat(JSON.readTree(event.detail()).get("entityType").asText()).isEqualTo("item");
        assertThat(event(Records.change(2, "#x", null, Records.item("#x", "x"))).detailType()).isEqualTo("Item Created");
    }

    @Test
    void toEvent_keepsEveryEntryStrictlyBelowTheSizeLimit() {
        int limit = 4096;
        ChangeEventFactory small = new ChangeEventFactory(new RouterConfig("bus", "src", RouterFixtures.TABLE_ARN, IndexDefinitions.packaged(), true, limit));
        ChangeEvent probe = small.toEvent(RouterFixtures.changeRecord(Records.change(1, "issue#1", null,
                Map.of("id", AttributeValue.fromS("issue#1"), "text", AttributeValue.fromS("")))));
        int room = limit - probe.size();

        ChangeEvent below = small.toEvent(RouterFixtures.changeRecord(Records.change(1, "issue#1", null,
                Map.of("id", AttributeValue.fromS("issue#1"), "text", AttributeValue.fromS("y".repeat(room - 1))))));
        ChangeEvent at = small.toEvent(RouterFixtures.changeRecord(Records.change(1, "issue#1", null,
                Map.of("id", AttributeValue.fromS("issue#1"), "text", AttributeValue.fromS("y".repeat(room))))));

        assertThat(below.size()).isEqualTo(limit - 1);
        assertThat(below.imagesDropped()).isFalse();
        assertThat(at.imagesDropped()).isTrue();
        assertThat(at.size()).isLessThan(limit);
    }

    static Stream<Arguments> numbers() {
        AttributeValue outside = AttributeValue.fromN("12345678901234567890");
        AttributeValue belowInt64 = AttributeValue.fromN("-9223372036854775809");
        AttributeValue int64Max = AttributeValue.fromN("9223372036854775807");
        return Stream.of(
                argumentSet("an integer outside int64", outside, true),
                argumentSet("one below int64's least", belowInt64, true),
                argumentSet("int64's greatest", int64Max, false),
                argumentSet("a number set with one outside int64", AttributeValue.fromNs(List.of("1", "12345678901234567890")), true),
                argumentSet("a number set within int64", AttributeValue.fromNs(List.of("1", "9223372036854775807")), false),
                argumentSet("a map holding one outside int64", AttributeValue.fromM(Map.of("a", AttributeValue.fromS("x"), "b", outside)), true),
                argumentSet("a map within int64", AttributeValue.fromM(Map.of("a", int64Max)), false),
                argumentSet("a list holding one outside int64", AttributeValue.fromL(List.of(AttributeValue.fromS("x"), outside)), true),
                argumentSet("a list within int64", AttributeValue.fromL(List.of(int64Max, AttributeValue.fromS("x"))), false),
                argumentSet("a string of digits", AttributeValue.fromS("12345678901234567890"), false));
    }

    @ParameterizedTest
    @MethodSource("numbers")
    void toEvent_saysItSentIntegersOutsideInt64AsStrings_wheneverTheImageHoldsOne(AttributeValue value, boolean adjusted) {
        ChangeEvent event = eventOf(Map.of("id", AttributeValue.fromS("issue#1"), "value", value));

        if (adjusted) {
            assertThat(event.adjustments()).containsExactly("integers outside int64 sent as strings");
        } else {
            assertThat(event.adjustments()).isEmpty();
        }
    }

    private static AttributeValue nestedLists(int levels) {
        AttributeValue value = AttributeValue.fromS("leaf");
        for (int level = 0; level < levels; level++) {
            value = AttributeValue.fromL(List.of(AttributeValue.fromS("x"), value));
        }
        return value;
    }

    /**
     * The work on a thread with a large stack: the conversion of lists nested about 1,000 levels recurses deeper than a
     * default thread stack holds (the router never converts such an image: {@link ImageNesting} drops it before).
     */
    private static <T> T withLargeStack(Callable<T> work) throws Exception {
        FutureTask<T> task = new FutureTask<>(work);
        Thread thread = new Thread(null, task, "deep-nesting", 256L * 1024 * 1024);
        thread.start();
        return task.get();
    }

    @Test
    void toEvent_countsTheNestingOfListsAsOfMaps() throws Exception {
        ChangeEvent deepest = withLargeStack(() -> eventOf(Map.of("id", AttributeValue.fromS("issue#1"), "deep", nestedLists(998))));
        ChangeEvent tooDeep = withLargeStack(() -> eventOf(Map.of("id", AttributeValue.fromS("issue#1"), "deep", nestedLists(999))));

        assertThat(deepest.imagesDropped()).isFalse();
        assertThat(tooDeep.imagesDropped()).isTrue();
        assertThat(JSON.readTree(tooDeep.detail()).get("imagesDroppedReason").asText()).isEqualTo("nesting");
    }

    @Test
    void toEvent_withoutImages_dropsTheChangedNamesToo_whenTheyAloneWouldMakeTheEntryReachTheLimit() throws Exception {
        // given: images switched off; an attribute name as long as makes the entry exactly the limit, and one shorter
        int limit = 4096;
        ChangeEventFactory keysOnly = new ChangeEventFactory(new RouterConfig("bus", "src", RouterFixtures.TABLE_ARN, IndexDefinitions.packaged(),
                false, limit));
        int probe = keysOnly.toEvent(insertWithAttributeNamed("n")).size();
        String reachingTheLimit = "n".repeat(1 + limit - probe);

        // when
        ChangeEvent below = keysOnly.toEvent(insertWithAttributeNamed(reachingTheLimit.substring(1)));
        ChangeEvent at = keysOnly.toEvent(insertWithAttributeNamed(reachingTheLimit));

        // then
        assertThat(below.size()).isEqualTo(limit - 1);
        assertThat(JSON.readTree(below.detail()).get("changedAttributes").toString()).isEqualTo("[\"id\",\"" + reachingTheLimit.substring(1) + "\"]");
        assertThat(below.adjustments()).isEmpty();
        JsonNode atDetail = JSON.readTree(at.detail());
        assertThat(atDetail.has("changedAttributes")).isFalse();
        assertThat(atDetail.get("changedAttributesDropped").asBoolean()).isTrue();
        assertThat(at.adjustments()).containsExactly("changed attribute names dropped: entry would reach the size limit");
        assertThat(at.size()).isLessThan(limit);
    }

    private static ChangeRecord insertWithAttributeNamed(String name) {
        return RouterFixtures.changeRecord(Records.change(1, "issue#1", null,
                Map.of("id", AttributeValue.fromS("issue#1"), name, AttributeValue.fromS("v"))));
    }

    @Test
    void toEvent_whenTheRecordCarriesItsKeysAlone_takesTheEntityTypeFromThem() throws Exception {
        // a KEYS_ONLY stream: a removal without its old image
        ChangeEvent event = factory.toEvent(new ChangeRecord("e-1", com.multikey.common.ChangeKind.REMOVE, "1",
                Map.of("id", AttributeValue.fromS("issue#1")), null, null, null, null));

        assertThat(event.detailType()).isEqualTo("Issue Removed");
        assertThat(JSON.readTree(event.detail()).get("entityType").asText()).isEqualTo("issue");
    }

    @Test
    void toString_namesTheEventByKeysAndType_neverByItsImages() {
        ChangeEvent event = eventOf(Map.of("id", AttributeValue.fromS("issue#1"), "secret", AttributeValue.fromS("IMAGE-CONTENT")));

        assertThat(event.toString()).isEqualTo("ChangeEvent[itemKey={\"id\":\"issue#1\"}, eventId=e-1, sequenceNumber=1, "
                + "detailType=Issue Created, imagesDropped=false]");
    }
}
