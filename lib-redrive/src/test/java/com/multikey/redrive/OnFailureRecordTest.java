package com.multikey.redrive;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OnFailureRecordTest {

    /** The invocation record of the Lambda developer guide ("Retaining discarded batches for a DynamoDB event source"). */
    static final String DOCUMENTED = """
            {
                "requestContext": {
                    "requestId": "316aa6d0-8154-xmpl-9af7-85d5f4a6bc81",
                    "functionArn": "arn:aws:lambda:us-east-2:123456789012:function:myfunction",
                    "condition": "RetryAttemptsExhausted",
                    "approximateInvokeCount": 1
                },
                "responseContext": {
                    "statusCode": 200,
                    "executedVersion": "$LATEST",
                    "functionError": "Unhandled"
                },
                "version": "1.0",
                "timestamp": "2019-11-14T00:13:49.717Z",
                "DDBStreamBatchInfo": {
                    "shardId": "shardId-00000001573689847184-864758bb",
                    "startSequenceNumber": "800000000003126276362",
                    "endSequenceNumber": "800000000003126276362",
                    "approximateArrivalOfFirstRecord": "2019-11-14T00:13:19Z",
                    "approximateArrivalOfLastRecord": "2019-11-14T00:13:19Z",
                    "batchSize": 1,
                    "streamArn": "arn:aws:dynamodb:us-east-2:123456789012:table/mytable/stream/2019-11-14T00:04:06.388"
                }
            }""";

    @Test
    void parse_theDocumentedRecord_readsTheRange() {
        OnFailureRecord record = OnFailureRecord.parse(DOCUMENTED);

        assertThat(record).isEqualTo(new OnFailureRecord("RetryAttemptsExhausted",
                "arn:aws:lambda:us-east-2:123456789012:function:myfunction", "2019-11-14T00:13:49.717Z",
                "arn:aws:dynamodb:us-east-2:123456789012:table/mytable/stream/2019-11-14T00:04:06.388",
                "shardId-00000001573689847184-864758bb", "800000000003126276362", "800000000003126276362", 1));
    }

    /** The invocation record of the Lambda developer guide ("Retaining discarded batches for a Kinesis Data Streams event source"). */
    static final String DOCUMENTED_KINESIS = """
            {
                "requestContext": {
                    "requestId": "c9b8fa9f-5a7f-xmpl-af9c-0c604cde93a5",
                    "functionArn": "arn:aws:lambda:us-east-2:123456789012:function:myfunction",
                    "condition": "RetryAttemptsExhausted",
                    "approximateInvokeCount": 1
                },
                "responseContext": {
                    "statusCode": 200,
                    "executedVersion": "$LATEST",
                    "functionError": "Unhandled"
                },
                "version": "1.0",
                "timestamp": "2019-11-14T00:38:06.021Z",
                "KinesisBatchInfo": {
                    "shardId": "shardId-000000000001",
                    "startSequenceNumber": "49601189658422359378836298521827638475320189012309704722",
                    "endSequenceNumber": "49601189658422359378836298522902373528957594348623495186",
                    "approximateArrivalOfFirstRecord": "2019-11-14T00:38:04.835Z",
                    "approximateArrivalOfLastRecord": "2019-11-14T00:38:05.580Z",
                    "batchSize": 500,
                    "streamArn": "arn:aws:kinesis:us-east-2:123456789012:stream/mystream"
                }
            }""";

    @Test
    void parse_theDocumentedKinesisRecord_readsTheRangeOfItsDataStream() {
        OnFailureRecord record = OnFailureRecord.parse(DOCUMENTED_KINESIS);

        assertThat(record.source()).isEqualTo(OnFailureRecord.Source.KINESIS);
        assertThat(record.streamArn()).isEqualTo("arn:aws:kinesis:us-east-2:123456789012:stream/mystream");
        assertThat(record.shardId()).isEqualTo("shardId-000000000001");
        assertThat(record.startSequenceNumber()).isEqualTo("49601189658422359378836298521827638475320189012309704722");
        assertThat(record.endSequenceNumber()).isEqualTo("49601189658422359378836298522902373528957594348623495186");
        assertThat(record.batchSize()).isEqualTo(500);
        assertThat(record.condition()).isEqualTo("RetryAttemptsExhausted");
        assertThat(record.contains("49601189658422359378836298521827638475320189012309704723")).isTrue();
        assertThat(OnFailureRecord.parse(DOCUMENTED).source()).isEqualTo(OnFailureRecord.Source.DYNAMODB_STREAM);
    }

    @Test
    void parse_aKinesisRecordWithoutItsRange_isRefusedNamingTheField() {
        String body = DOCUMENTED_KINESIS.replace("\"endSequenceNumber\"", "\"end\"");

        assertThatThrownBy(() -> OnFailureRecord.parse(body)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("KinesisBatchInfo.endSequenceNumber");
    }

    @Test
    void contains_comparesSequenceNumbersAsNumbers_notAsText() {
        OnFailureRecord range = new OnFailureRecord(null, null, null, "arn", "shard", "99", "1000", 3);

        assertThat(range.contains("99")).isTrue();
        assertThat(range.contains("100")).isTrue();
        assertThat(range.contains("1000")).isTrue();
        assertThat(range.contains("98")).isFalse();
        assertThat(range.isAfter("1001")).isTrue();
        assertThat(range.isAfter("999")).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"not json", "[1]", "{}", "{\"DDBStreamBatchInfo\": 3}",
            "{\"DDBStreamBatchInfo\": {\"shardId\": \"s\", \"startSequenceNumber\": \"1\", \"endSequenceNumber\": \"2\"}}",
            "{\"DDBStreamBatchInfo\": {\"streamArn\": \"a\", \"shardId\": \"s\", \"startSequenceNumber\": \"x\", \"endSequenceNumber\": \"2\"}}",
            "{\"DDBStreamBatchInfo\": {\"streamArn\": \"a\", \"shardId\": \"s\", \"startSequenceNumber\": \"3\", \"endSequenceNumber\": \"2\"}}"})
    void parse_whatIsNotAStreamOnFailureRecord_isRefusedWithTheReason(String body) {
        assertThatThrownBy(() -> OnFailureRecord.parse(body)).isInstanceOf(IllegalArgumentException.class).message().isNotBlank()
                .doesNotContain("not json");
    }

    @Test
    void parse_aDeleteLayerEvent_saysItIsNotAStreamRecord() {
        assertThatThrownBy(() -> OnFailureRecord.parse("{\"detail-type\": \"Layer Expired\", \"detail\": {}}"))
                .hasMessageContaining("no DDBStreamBatchInfo");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "null", "\"text\"", "{\"DDBStreamBatchInfo\": null}", "{\"KinesisBatchInfo\": {\"shardId\": \"s\"}}",
            "{\"DDBStreamBatchInfo\": {\"streamArn\": \"a\", \"shardId\": \"s\", \"startSequenceNumber\": 1.5, \"endSequenceNumber\": 2}}",
            "{\"DDBStreamBatchInfo\": {\"streamArn\": \"a\", \"shardId\": \"s\", \"startSequenceNumber\": \"-1\", \"endSequenceNumber\": \"2\"}}",
            "{\"DDBStreamBatchInfo\": {\"streamArn\": [\"a\"], \"shardId\": \"s\", \"startSequenceNumber\": \"1\", \"endSequenceNumber\": \"2\"}}"})
    void parse_moreBodiesThatAreNotAStreamOnFailureRecord_areRefusedAsBadInput(String body) {
        assertThatThrownBy(() -> OnFailureRecord.parse(body)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void parse_aDeeplyNestedBody_withinSqsMessageSize_isRefusedAsBadInput() {
        // 200,000 opening brackets: a body SQS accepts (256 KiB); it must be an unreadable message, not end the run
        String body = "[".repeat(200_000);

        assertThatThrownBy(() -> OnFailureRecord.parse(body)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void parse_extraFieldsAndOtherConditions_areAccepted() {
        String body = DOCUMENTED.replace("RetryAttemptsExhausted", "RecordAgeExceeded")
                .replace("\"version\": \"1.0\",", "\"version\": \"1.0\", \"futureField\": {\"x\": [1, 2]},");

        OnFailureRecord record = OnFailureRecord.parse(body);

        assertThat(record.condition()).isEqualTo("RecordAgeExceeded");
        assertThat(record.batchSize()).isEqualTo(1);
    }
}
