package com.multikey.emulator.services.streams;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;
import software.amazon.event.ruler.Machine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

class StreamEventSourceTest {

    private final List<List<String>> invocations = new ArrayList<>();
    private final List<String> lines = new ArrayList<>();

    private static Record record(int n, String id) {
        return Record.builder().eventID("e" + n).eventName(OperationType.INSERT)
                .dynamodb(StreamRecord.builder().keys(Map.of("id", AttributeValue.fromS(id)))
                        .newImage(Map.of("id", AttributeValue.fromS(id))).sequenceNumber(String.valueOf(100 + n))
                        .streamViewType("NEW_AND_OLD_IMAGES").build())
                .build();
    }

    private static List<Record> records(int count) {
        List<Record> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            records.add(record(i, "issue#" + i));
        }
        return records;
    }

    private StreamEventSource source(int batchSize, int retries, boolean bisect, Machine filter,
                                     Function<List<String>, StreamsEventResponse> handler) {
        return new StreamEventSource("Fn", "arn:stream", filter, batchSize, retries, bisect, (String json) -> {
            DynamodbEvent event = LambdaEvents.read(json, DynamodbEvent.class);
            List<String> sequenceNumbers = event.getRecords().stream().map(r -> r.getDynamodb().getSequenceNumber()).toList();
            invocations.add(sequenceNumbers);
            return handler.apply(sequenceNumbers);
        }, lines::add, OnFailureDestination.NONE);
    }

    private static void drain(StreamEventSource source) {
        for (int i = 0; i < 100 && !source.idle(); i++) {
            source.deliverOnce();
        }
    }

    @Test
    void partialBatchResponse_redeliversFromTheFailedRecord_andLosesNothingAfterIt() {
        boolean[] failedOnce = {false};
        StreamEventSource source = source(4, 5, true, null, batch -> {
            if (!failedOnce[0] && batch.contains("102")) {
                failedOnce[0] = true;
                return new StreamsEventResponse(List.of(new StreamsEventResponse.BatchItemFailure("102")));
            }
            return new StreamsEventResponse(List.of());
        });
        source.offer(records(6));

        drain(source);

        assertThat(invocations).containsExactly(
                List.of("100", "101", "102", "103"),
                List.of("102", "103", "104", "105"));
        assertThat(source.idle()).isTrue();
        assertThat(source.onFailure()).isEmpty();
    }

    @Test
    void handlerErrors_bisectTheBatch_andAfterTheRetriesGoToTheOnFailureDestination() {
        StreamEventSource source = source(4, 2, true, null, batch -> {
            if (batch.contains("101")) {
                throw new IllegalStateException("boom");
            }
            return new StreamsEventResponse(List.of());
        });
        source.offer(records(4));

        drain(source);

        assertThat(invocations).containsExactly(
                List.of("100", "101", "102", "103"),
                List.of("100", "101"),
                List.of("100"),
                List.of("101", "102", "103"),
                List.of("101"),
                List.of("101"),
                List.of("102", "103"));
        assertThat(source.onFailure()).containsExactly(List.of("101"));
        assertThat(lines).anyMatch(line -> line.contains("sent to the on-failure destination"));
    }

    @Test
    void filterCriteria_dropRecordsBeforeTheyReachTheFunction() throws Exception {
        Machine filter = new Machine();
        filter.addRule("issues", "{\"dynamodb\": {\"Keys\": {\"id\": {\"S\": [{\"prefix\": \"issue#\"}]}}}}");
        StreamEventSource source = source(10, 0, false, filter, batch -> new StreamsEventResponse(List.of()));
        source.offer(List.of(record(0, "issue#1"), record(1, "layer#1"), record(2, "issue#2")));

        drain(source);

        assertThat(invocations).containsExactly(List.of("100", "102"));
    }
}
