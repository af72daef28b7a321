package com.multikey.redrive;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.multikey.emulator.services.streams.LambdaEvents;
import com.multikey.index.ItemKey;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.reindex.IndexScope;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Identity;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Records read back from the stream, written as the event Lambda delivers and read back as the runtime reads it. */
class StreamEventJsonTest {

    private static Record record(String id, String sequenceNumber, Map<String, AttributeValue> oldImage, Map<String, AttributeValue> newImage) {
        return Record.builder().eventID("e" + sequenceNumber).eventName(newImage == null ? OperationType.REMOVE : OperationType.MODIFY)
                .awsRegion("us-east-1").dynamodb(d -> {
                    d.keys(Map.of("id", AttributeValue.fromS(id))).sequenceNumber(sequenceNumber).sizeBytes(10L)
                            .streamViewType("NEW_AND_OLD_IMAGES").approximateCreationDateTime(Instant.ofEpochSecond(1_700_000_000));
                    if (oldImage != null) {
                        d.oldImage(oldImage);
                    }
                    if (newImage != null) {
                        d.newImage(newImage);
                    }
                }).build();
    }

    @Test
    void event_isReadByTheLambdaRuntimesReader_withEveryAttributeTypeAndTheTtlIdentity() {
        Map<String, AttributeValue> image = Map.of("id", AttributeValue.fromS("issue#1"), "n", AttributeValue.fromN("12345678901234567890.5"),
                "b", AttributeValue.fromB(SdkBytes.fromUtf8String("x")), "t", AttributeValue.fromBool(true), "z", AttributeValue.fromNul(true),
                "ss", AttributeValue.fromSs(List.of("a\"b", "\u00e9")), "ns", AttributeValue.fromNs(List.of("1", "2")),
                "l", AttributeValue.fromL(List.of(AttributeValue.fromS("x"))), "m", AttributeValue.fromM(Map.of("k", AttributeValue.fromN("1"))));
        Record ttl = record("layer#1", "200000000000000000002", image, null).toBuilder()
                .userIdentity(Identity.builder().type("Service").principalId("dynamodb.amazonaws.com").build()).build();

        String json = StreamEventJson.event(List.of(record("issue#1", "200000000000000000001", image, image), ttl), "arn:stream");
        DynamodbEvent event = LambdaEvents.read(json, DynamodbEvent.class);

        assertThat(event.getRecords()).hasSize(2);
        var first = event.getRecords().get(0);
        assertThat(first.getEventSourceARN()).isEqualTo("arn:stream");
        assertThat(first.getDynamodb().getSequenceNumber()).isEqualTo("200000000000000000001");
        assertThat(first.getDynamodb().getApproximateCreationDateTime().toInstant()).isEqualTo(Instant.ofEpochSecond(1_700_000_000));
        assertThat(first.getDynamodb().getNewImage().get("n").getN()).isEqualTo("12345678901234567890.5");
        assertThat(first.getDynamodb().getNewImage().get("ss").getSS()).containsExactly("a\"b", "\u00e9");
        assertThat(first.getDynamodb().getNewImage().get("m").getM().get("k").getN()).isEqualTo("1");
        assertThat(event.getRecords().get(1).getUserIdentity().getPrincipalId()).isEqualTo("dynamodb.amazonaws.com");
        assertThat(event.getRecords().get(1).getDynamodb().getNewImage()).isNull();
    }

    @Test
    void imagesByItem_keepsIssuesOnly_withEveryOldAndNewImageInStreamOrder() {
        Map<String, AttributeValue> v1 = Map.of("id", AttributeValue.fromS("issue#1"), "num", AttributeValue.fromN("1"));
        Map<String, AttributeValue> v2 = Map.of("id", AttributeValue.fromS("issue#1"), "num", AttributeValue.fromN("2"));
        Map<String, AttributeValue> layer = Map.of("id", AttributeValue.fromS("layer#1"));

        var images = IndexerRedrive.imagesByItem(List.of(record("issue#1", "1", null, v1), record("layer#1", "2", layer, layer),
                record("issue#1", "3", v1, v2), record("issue#1", "4", v2, null)), IndexScope.all(IndexDefinitions.packaged()));

        assertThat(images).containsOnlyKeys(ItemKey.ofString("id", "issue#1"));
        assertThat(images.get(ItemKey.ofString("id", "issue#1"))).containsExactly(v1, v1, v2, v2);
    }

    @Test
    void chunks_holdAtMostTheBatchSizeOfTheMapping() {
        List<Record> records = new java.util.ArrayList<>();
        for (int i = 0; i < 250; i++) {
            records.add(record("issue#" + i, Integer.toString(1000 + i), null, Map.of("id", AttributeValue.fromS("issue#" + i))));
        }

        assertThat(RouterRedrive.chunks(records, "arn")).extracting(List::size).containsExactly(100, 100, 50);
    }
}
