package com.multikey.emulator.services.streams;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.common.ChangeRecord;
import com.multikey.emulator.services.sqs.LocalSqs;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.SequenceNumberRange;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

import java.math.BigInteger;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

/**
 * The invocation record Lambda sends to a DynamoDB event source mapping's on-failure destination (Lambda
 * developer guide, "Retaining discarded batches for a DynamoDB event source": {@code requestContext},
 * {@code responseContext}, {@code version}, {@code timestamp} and {@code DDBStreamBatchInfo} with the shard, the
 * first and last sequence number, the arrival times of the first and last record, the batch size and the
 * stream ARN). It names the records; it does not hold them. Sent to an SQS queue of {@link LocalSqs}.
 */
final class StreamOnFailureRecord implements OnFailureDestination {

    /** {@code requestContext.condition} when the retries ran out. */
    static final String RETRY_ATTEMPTS_EXHAUSTED = "RetryAttemptsExhausted";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final DynamoDbStreamsClient streams;
    private final String streamArn;
    private final String functionArn;
    private final LocalSqs sqs;
    private final String queueName;

    StreamOnFailureRecord(DynamoDbStreamsClient streams, String streamArn, String functionArn, LocalSqs sqs, String queueName) {
        this.streams = streams;
        this.streamArn = streamArn;
        this.functionArn = functionArn;
        this.sqs = sqs;
        this.queueName = queueName;
    }

    @Override
    public void send(List<Record> batch, int invokeCount) {
        sqs.send(queueName, message(batch, invokeCount, shardOf(batch.get(0).dynamodb().sequenceNumber()), Instant.now()));
    }

    /** The invocation record of a batch of one shard. */
    String message(List<Record> batch, int invokeCount, String shardId, Instant now) {
        ObjectNode message = JSON.createObjectNode();
        message.putObject("requestContext").put("requestId", UUID.randomUUID().toString()).put("functionArn", functionArn)
                .put("condition", RETRY_ATTEMPTS_EXHAUSTED).put("approximateInvokeCount", invokeCount);
        message.putObject("responseContext").put("statusCode", 200).put("executedVersion", "$LATEST").put("functionError", "Unhandled");
        message.put("version", "1.0");
        message.put("timestamp", now.truncatedTo(ChronoUnit.MILLIS).toString());
        Record first = batch.get(0);
        Record last = batch.get(batch.size() - 1);
        ObjectNode info = message.putObject("DDBStreamBatchInfo");
        info.put("shardId", shardId);
        info.put("startSequenceNumber", first.dynamodb().sequenceNumber());
        info.put("endSequenceNumber", last.dynamodb().sequenceNumber());
        info.put("approximateArrivalOfFirstRecord", arrival(first));
        info.put("approximateArrivalOfLastRecord", arrival(last));
        info.put("batchSize", batch.size());
        info.put("streamArn", streamArn);
        return message.toString();
    }

    private static String arrival(Record record) {
        Instant time = record.dynamodb().approximateCreationDateTime();
        return time == null ? "" : ChangeRecord.plausible(time).truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** The shard whose sequence number range holds this sequence number. */
    private String shardOf(String sequenceNumber) {
        BigInteger number = new BigInteger(sequenceNumber);
        List<Shard> shards = streams.describeStream(b -> b.streamArn(streamArn)).streamDescription().shards();
        for (Shard shard : shards) {
            SequenceNumberRange range = shard.sequenceNumberRange();
            boolean afterStart = range.startingSequenceNumber() == null || number.compareTo(new BigInteger(range.startingSequenceNumber())) >= 0;
            boolean beforeEnd = range.endingSequenceNumber() == null || number.compareTo(new BigInteger(range.endingSequenceNumber())) <= 0;
            if (afterStart && beforeEnd) {
                return shard.shardId();
            }
        }
        throw new IllegalStateException("no shard of " + streamArn + " holds sequence number " + sequenceNumber);
    }
}
