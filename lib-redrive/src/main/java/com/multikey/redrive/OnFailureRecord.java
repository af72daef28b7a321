package com.multikey.redrive;

import software.amazon.awssdk.protocols.jsoncore.JsonNode;

import java.math.BigInteger;

/**
 * The invocation record Lambda sends to a DynamoDB event source mapping's on-failure destination (Lambda
 * developer guide, "Retaining discarded batches for a DynamoDB event source"): {@code requestContext}
 * ({@code condition}: {@code RetryAttemptsExhausted}, {@code RecordAgeExceeded}, ...), {@code responseContext},
 * {@code version}, {@code timestamp} and {@code DDBStreamBatchInfo}, which names the shard and the range of
 * sequence numbers of the batch, not its records.
 */
public record OnFailureRecord(String condition, String functionArn, String timestamp, String streamArn, String shardId,
                              String startSequenceNumber, String endSequenceNumber, int batchSize) {

    public OnFailureRecord {
        require(streamArn, "DDBStreamBatchInfo.streamArn");
        require(shardId, "DDBStreamBatchInfo.shardId");
        require(startSequenceNumber, "DDBStreamBatchInfo.startSequenceNumber");
        require(endSequenceNumber, "DDBStreamBatchInfo.endSequenceNumber");
        if (!startSequenceNumber.matches("\\d+") || !endSequenceNumber.matches("\\d+")) {
            throw new IllegalArgumentException("DDBStreamBatchInfo: sequence numbers must be decimal digits");
        }
        if (new BigInteger(startSequenceNumber).compareTo(new BigInteger(endSequenceNumber)) > 0) {
            throw new IllegalArgumentException("DDBStreamBatchInfo: startSequenceNumber is after endSequenceNumber");
        }
    }

    /**
     * Reads a queue message's body.
     *
     * @throws IllegalArgumentException when it is not a DynamoDB stream on-failure record, saying why
     */
    public static OnFailureRecord parse(String body) {
        JsonNode root = Json.parse(body);
        if (!root.isObject()) {
            throw new IllegalArgumentException("not a JSON object");
        }
        JsonNode info = Json.field(root, "DDBStreamBatchInfo").filter(JsonNode::isObject).orElseThrow(() ->
                new IllegalArgumentException("no DDBStreamBatchInfo: not an on-failure record of a DynamoDB stream"));
        JsonNode context = Json.field(root, "requestContext").orElse(JsonNode.emptyObjectNode());
        String batchSize = Json.text(info, "batchSize");
        return new OnFailureRecord(Json.text(context, "condition"), Json.text(context, "functionArn"), Json.text(root, "timestamp"),
                Json.text(info, "streamArn"), Json.text(info, "shardId"), Json.text(info, "startSequenceNumber"),
                Json.text(info, "endSequenceNumber"), batchSize == null || !batchSize.matches("\\d{1,9}") ? 0 : Integer.parseInt(batchSize));
    }

    /** Whether a record's sequence number lies in the range. */
    public boolean contains(String sequenceNumber) {
        BigInteger number = new BigInteger(sequenceNumber);
        return number.compareTo(new BigInteger(startSequenceNumber)) >= 0 && number.compareTo(new BigInteger(endSequenceNumber)) <= 0;
    }

    /** Whether a sequence number lies after the range. */
    public boolean isAfter(String sequenceNumber) {
        return new BigInteger(sequenceNumber).compareTo(new BigInteger(endSequenceNumber)) > 0;
    }

    /** The range as an operator reads it. */
    public String describe() {
        return "shard " + shardId + " sequence numbers " + startSequenceNumber + ".." + endSequenceNumber + " (" + batchSize
                + " records, " + (condition == null ? "condition unknown" : condition) + ")";
    }

    private static void require(String value, String field) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(field + " is missing");
        }
    }
}
