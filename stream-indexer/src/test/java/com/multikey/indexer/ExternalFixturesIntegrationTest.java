package com.multikey.indexer;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.emulator.functions.LocalContext;
import com.multikey.emulator.services.streams.LambdaEvents;
import com.multikey.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every real DynamoDB stream event in fixtures/external, through the real handler on the local DynamoDB engine. */
@ExtendWith(IndexerStackExtension.class)
class ExternalFixturesIntegrationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MALFORMED = "awslambdago-dynamodb-event-malformed.json";
    private final IndexerStack stack;

    ExternalFixturesIntegrationTest(IndexerStack stack) {
        this.stack = stack;
    }

    static Stream<Path> streamFixtures() {
        List<Path> all = Fixtures.externalStreamEvents();
        assertThat(all).hasSizeGreaterThanOrEqualTo(20).noneMatch(f -> f.getFileName().toString().equals(MALFORMED));
        return all.stream();
    }

    @ParameterizedTest
    @MethodSource("streamFixtures")
    void fixture_asDelivered_isHandledAndItsOtherEntityRecordsIgnored(Path fixture) throws IOException {
        DynamodbEvent event = LambdaEvents.read(wrapped(fixture), DynamodbEvent.class);

        StreamsEventResponse response = stack.handler().handleRequest(event, LocalContext.of(IndexerStack.FUNCTION));

        assertThat(response.getBatchItemFailures()).isEmpty();
        IndexerMetrics.BatchSummary summary = stack.metrics.last();
        assertThat(summary.records()).isEqualTo(event.getRecords().size()).isPositive();
        assertThat(summary.ignoredRecords() + summary.skippedRecords()).isEqualTo(summary.records());
        assertThat(summary.puts() + summary.deletes()).isZero();
        assertThat(stack.indexItems()).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("streamFixtures")
    void fixture_withItsImagesAsIssueCustomFields_indexesWhatItCanAndRejectsTheRest(Path fixture) throws IOException {
        DynamodbEvent event = LambdaEvents.read(asIssueRecords(wrapped(fixture)), DynamodbEvent.class);
        // a record of a stream that does not carry both images (KEYS_ONLY, NEW_IMAGE, ...) is reported, never skipped
        long lackingImages = event.getRecords().stream().filter(ExternalFixturesIntegrationTest::lacksAnImage).count();

        StreamsEventResponse response = stack.handler().handleRequest(event, LocalContext.of(IndexerStack.FUNCTION));

        assertThat(response.getBatchItemFailures()).hasSize((int) lackingImages);
        IndexerMetrics.BatchSummary summary = stack.metrics.last();
        assertThat(summary.missingImages()).isEqualTo((int) lackingImages);
        assertThat(summary.ignoredRecords()).isZero();
        assertThat(summary.failedWrites()).isZero();
        assertThat(stack.indexItems()).allSatisfy(item -> assertThat(item.get("issueId").s()).startsWith("issue#fixture-"));
    }

    @Test
    void allAttributeTypesFixture_indexesScalarsListsAndSets_andRejectsMapsAndBinary() throws IOException {
        Path fixture = Fixtures.root().resolve("external/awslambdago-dynamodb-event-all-types.json");
        DynamodbEvent event = LambdaEvents.read(asIssueRecords(wrapped(fixture)), DynamodbEvent.class);

        stack.handler().handleRequest(event, LocalContext.of(IndexerStack.FUNCTION));

        assertThat(stack.metrics.last().rejectedFields()).isPositive();
        assertThat(stack.indexItems()).extracting(item -> item.get("value")).isNotEmpty()
                .allMatch(v -> v.s() != null || v.n() != null || v.bool() != null);
    }

    @Test
    void malformedFixture_isRefusedWithAClearMessage() {
        Path fixture = Fixtures.root().resolve("external").resolve(MALFORMED);

        assertThatThrownBy(() -> LambdaEvents.read(fixture, DynamodbEvent.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(MALFORMED + ": not a valid DynamodbEvent event: ");
    }

    private static String wrapped(Path fixture) {
        return Fixtures.asLambdaEvent(fixture);
    }

    /**
     * The fixture's records turned into issue records: each record's key becomes an issue id and each image
     * becomes the custom fields of an issue, so every attribute shape the fixtures hold meets the indexer.
     */
    private static boolean lacksAnImage(DynamodbEvent.DynamodbStreamRecord record) {
        boolean needsOld = !"INSERT".equals(record.getEventName());
        boolean needsNew = !"REMOVE".equals(record.getEventName());
        return (needsOld && record.getDynamodb().getOldImage() == null) || (needsNew && record.getDynamodb().getNewImage() == null);
    }

    private static String asIssueRecords(String eventJson) throws IOException {
        ObjectNode event = (ObjectNode) JSON.readTree(eventJson);
        int n = 0;
        for (JsonNode node : (ArrayNode) event.get("Records")) {
            ObjectNode dynamodb = (ObjectNode) node.get("dynamodb");
            String id = "issue#fixture-" + n++;
            dynamodb.set("Keys", JSON.createObjectNode().set("id", JSON.createObjectNode().put("S", id)));
            for (String image : List.of("NewImage", "OldImage")) {
                if (dynamodb.has(image)) {
                    ObjectNode issue = JSON.createObjectNode();
                    issue.set("id", JSON.createObjectNode().put("S", id));
                    issue.set("project", JSON.createObjectNode().put("S", "project#fixtures"));
                    issue.set("num", JSON.createObjectNode().put("N", Integer.toString(n)));
                    issue.set("custom_fields", JSON.createObjectNode().set("M", dynamodb.get(image)));
                    dynamodb.set(image, issue);
                }
            }
        }
        return event.toString();
    }

}
