package com.multikey.common;

import com.amazonaws.services.lambda.runtime.events.KinesisEvent;
import com.amazonaws.services.lambda.runtime.events.KinesisEvent.KinesisEventRecord;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Kinesis records of DynamoDB's changes (AWS's documented format) read as change records. */
class KinesisChangeRecordsTest {

    private static KinesisEventRecord record(String data, String sequence) {
        KinesisEvent.Record kinesis = new KinesisEvent.Record();
        kinesis.setData(ByteBuffer.wrap(data.getBytes(StandardCharsets.UTF_8)));
        kinesis.setSequenceNumber(sequence);
        KinesisEventRecord record = new KinesisEventRecord();
        record.setKinesis(kinesis);
        record.setEventSourceARN("arn:aws:kinesis:us-east-1:123456789012:stream/changes");
        return record;
    }

    @Test
    void read_ofAModifyAtMicrosecondPrecision_keepsEveryTypeTheMicrosecondsAndTheKinesisSequenceNumber() {
        // given
        String data = """
                {"awsRegion":"us-east-1","eventID":"e-1","eventName":"MODIFY","userIdentity":null,"recordFormat":"application/json",
                 "tableName":"AppTable","dynamodb":{"ApproximateCreationDateTime":1700000000123456,
                 "ApproximateCreationDateTimePrecision":"MICROSECOND","Keys":{"id":{"S":"issue#a"}},
                 "NewImage":{"id":{"S":"issue#a"},"n":{"N":"1.50"},"b":{"B":"AAE="},"t":{"BOOL":true},"z":{"NULL":true},
                   "ss":{"SS":["x","y"]},"ns":{"NS":["1","2"]},"bs":{"BS":["AA=="]},"l":{"L":[{"S":"x"}]},"m":{"M":{"k":{"N":"3"}}}},
                 "OldImage":{"id":{"S":"issue#a"}},"SizeBytes":90},"eventSource":"aws:dynamodb"}""";

        // when
        PartialBatch.Decoded<ChangeRecord> decoded = new KinesisChangeRecords("id").read(record(data, "4961"));

        // then
        assertThat(decoded).isInstanceOfSatisfying(PartialBatch.Decoded.Read.class, read -> {
            ChangeRecord change = (ChangeRecord) read.record();
            assertThat(change.kind()).isEqualTo(ChangeKind.MODIFY);
            assertThat(change.eventId()).isEqualTo("e-1");
            assertThat(change.sequenceNumber()).contains("4961");
            assertThat(change.approximateCreationTime()).contains(Instant.parse("2023-11-14T22:13:20.123456Z"));
            assertThat(change.oldImage()).contains(Map.of("id", AttributeValue.fromS("issue#a")));
            assertThat(change.newImage().orElseThrow()).containsEntry("n", AttributeValue.fromN("1.50"))
                    .containsEntry("b", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[]{0, 1})))
                    .containsEntry("t", AttributeValue.fromBool(true)).containsEntry("z", AttributeValue.fromNul(true))
                    .containsEntry("ss", AttributeValue.fromSs(List.of("x", "y"))).containsEntry("ns", AttributeValue.fromNs(List.of("1", "2")))
                    .containsEntry("bs", AttributeValue.fromBs(List.of(SdkBytes.fromByteArray(new byte[]{0}))))
                    .containsEntry("l", AttributeValue.fromL(List.of(AttributeValue.fromS("x"))))
                    .containsEntry("m", AttributeValue.fromM(Map.of("k", AttributeValue.fromN("3"))));
            assertThat(change.userIdentity()).isEmpty();
        });
    }

    @Test
    void read_ofRecordsWithoutAPrecisionField_readsTheirUnitFromTheValue() {
        // given: the record format AWS documents names no precision: a microsecond value is a thousand times a millisecond one
        String micros = """
                {"eventID":"e-3","eventName":"INSERT","dynamodb":{"ApproximateCreationDateTime":1700000000123456,
                 "Keys":{"id":{"S":"issue#m"}},"NewImage":{"id":{"S":"issue#m"}}}}""";
        String millis = """
                {"eventID":"e-4","eventName":"INSERT","dynamodb":{"ApproximateCreationDateTime":1700000000123,
                 "Keys":{"id":{"S":"issue#m"}},"NewImage":{"id":{"S":"issue#m"}}}}""";

        // when
        ChangeRecord inMicros = ((PartialBatch.Decoded.Read<ChangeRecord>) new KinesisChangeRecords("id").read(record(micros, "8"))).record();
        ChangeRecord inMillis = ((PartialBatch.Decoded.Read<ChangeRecord>) new KinesisChangeRecords("id").read(record(millis, "9"))).record();

        // then
        assertThat(inMicros.approximateCreationTime()).contains(Instant.parse("2023-11-14T22:13:20.123456Z"));
        assertThat(inMillis.approximateCreationTime()).contains(Instant.parse("2023-11-14T22:13:20.123Z"));
    }

    @Test
    void read_ofARemoveByTtl_atMillisecondPrecision_readsMillisecondsAndTheServiceIdentity() {
        // given
        String data = """
                {"eventID":"e-2","eventName":"REMOVE","userIdentity":{"type":"Service","principalId":"dynamodb.amazonaws.com"},
                 "dynamodb":{"ApproximateCreationDateTime":1700000000123,"ApproximateCreationDateTimePrecision":"MILLISECOND",
                 "Keys":{"id":{"S":"layer#1"}},"OldImage":{"id":{"S":"layer#1"}}}}""";

        // when
        ChangeRecord change = ((PartialBatch.Decoded.Read<ChangeRecord>) new KinesisChangeRecords("id").read(record(data, "7"))).record();

        // then
        assertThat(change.approximateCreationTime()).contains(Instant.parse("2023-11-14T22:13:20.123Z"));
        assertThat(change.userIdentity().orElseThrow().isTimeToLiveExpiry()).isTrue();
        assertThat(change.newImage()).isEmpty();
    }

    @Test
    void read_ofDataThatIsNotAChangeRecord_isUnreadable_namingItsKeyAndSequenceNumber() {
        // given, when
        PartialBatch.Decoded<ChangeRecord> notJson = new KinesisChangeRecords("id").read(record("not json", "8"));
        PartialBatch.Decoded<ChangeRecord> badImage = new KinesisChangeRecords("id").read(record(
                "{\"eventID\":\"e\",\"eventName\":\"INSERT\",\"dynamodb\":{\"Keys\":{\"id\":{\"S\":\"issue#q\"}},\"NewImage\":{\"a\":{\"X\":1}}}}", "9"));

        // then
        assertThat(notJson).isEqualTo(new PartialBatch.Decoded.Unreadable<>(new PartialBatch.Skipped("(unknown)", "(unknown)", "8",
                "kinesis data is not JSON: JsonParseException")));
        assertThat(badImage).isEqualTo(new PartialBatch.Decoded.Unreadable<>(new PartialBatch.Skipped("issue#q", "e", "9",
                "NewImage cannot be converted: IllegalArgumentException")));
    }
}
