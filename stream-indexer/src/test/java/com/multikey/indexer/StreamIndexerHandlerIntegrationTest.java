package com.multikey.indexer;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.multikey.emulator.functions.LocalContext;
import com.multikey.emulator.services.streams.LambdaEvents;
import com.multikey.emulator.template.SamTemplate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The handler built from the function's environment alone, as Lambda builds it, on the local DynamoDB engine. */
@ExtendWith(IndexerStackExtension.class)
class StreamIndexerHandlerIntegrationTest {

    private final IndexerStack stack;

    StreamIndexerHandlerIntegrationTest(IndexerStack stack) {
        this.stack = stack;
    }

    @Test
    void handlerFromTheTemplatesEnvironment_recordsTheGroupedGridOnANewStack_andIndexesTheSampleInsertInIt() throws IOException {
        // given: a new stack, and the sample insert of an issue with three custom fields, one of them a set of two
        DynamodbEvent event = LambdaEvents.read(SamTemplate.findUp("sam").resolve("events/issue-insert.json"), DynamodbEvent.class);

        // when
        StreamsEventResponse response = stack.handlerFromEnvironment().handleRequest(event, LocalContext.of(IndexerStack.FUNCTION));

        // then: the layout state item says grouped, and each value sits in the project's partition of its field
        assertThat(response.getBatchItemFailures()).isEmpty();
        Map<Boolean, List<Map<String, AttributeValue>>> controlOrEntry = stack.indexItems().stream()
                .collect(Collectors.partitioningBy(item -> item.containsKey("control")));
        assertThat(controlOrEntry.get(true)).singleElement()
                .satisfies(state -> assertThat(state.get("state")).isEqualTo(AttributeValue.fromS("grouped")));
        assertThat(controlOrEntry.get(false)).allSatisfy(item -> {
            assertThat(item.get("index")).isEqualTo(AttributeValue.fromS("issue-grid"));
            assertThat(item.get("itemKey")).isEqualTo(AttributeValue.fromM(Map.of("id", AttributeValue.fromS("issue#af34"))));
        }).extracting(item -> item.get("attribId").s() + " " + item.get("value")).containsExactlyInAnyOrder(
                "issue-grid|project#35e9|3fe6 " + AttributeValue.fromN("42"),
                "issue-grid|project#35e9|47e5 " + AttributeValue.fromS("Approved"),
                "issue-grid|project#35e9|9c1d " + AttributeValue.fromS("steel"),
                "issue-grid|project#35e9|9c1d " + AttributeValue.fromS("urgent"));
    }
}
