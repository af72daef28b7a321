package com.multikey.redrive;

import software.amazon.awssdk.protocols.jsoncore.JsonNode;

import java.math.BigInteger;

/**
 * The invocation record Lambda sends to a stream event source mapping's on-failure destination (Lambda developer
 * guide, "Retaining discarded batches for a DynamoDB event source" and "... for a Kinesis Data Streams event source"):
 * {@code requestContext} ({@code condition}: {@code RetryAttemptsExhausted}, {@code RecordAgeExceeded}, ...),
 * {@code responseContext}, {@code version}, {@code timestamp} and {@code DDBStreamBatchInfo} (a DynamoDB stream) or
 * {@code KinesisBatchInfo} (a Kinesis data stream), which names the shard and the range of sequence numbers of the
 * batch, not its records.
 */
public record OnFailureRecord(String condition, String functionArn, String timestamp, String streamArn, String shardId,
                              String startSequenceNumber, String endSequenceNumber, int batchSize, Source source) {

    /** The kind of stream the range is of: which field of the invocation record named it. */
    public enum Source {
        /** {@code DDBStreamBatchInfo}: a range of the table's DynamoDB stream. */
        DYNAMODB_STREAM("DDBStreamBatchInfo"),
        /** {@code KinesisBatchInfo}: a range of a Kinesis data stream (the table's Kinesis streaming destination). */
        KINESIS("KinesisBatchInfo");

        private final String field;

        Source(String field) {
            this.field = field;
        }

        /** The invocation record's field that names the range. */
        public String field() {
            return field;
        }
    }

    public OnFailureRecord {
        String field = source == null ? Source.DYNAMODB_STREAM.field() : source.field();
        require(streamArn, field + ".streamArn");
        require(shardId, field + ".shardId");
        require(startSequenceNumber, field + ".startSequenceNumber");
        require(endSequenceNumber, field + ".endSequenceNumber");
        if (!startSequenceNumber.matches("\\d+") || !endSequenceNumber.matches("\\d+")) {
            throw new IllegalArgumentException(field + ": sequence numbers must be decimal digits");
        }
        if (new BigInteger(startSequenceNumber).compareTo(new BigInteger(endSequenceNumber)) > 0) {
            throw new IllegalArgumentException(field + ": startSequenceNumber is after endSequenceNumber");
        }
        source = source == null ? Source.DYNAMODB_STREAM : source;
    }

    /** A range of a DynamoDB stream. */
    public OnFailureRecord(String condition, String functionArn, String timestamp, String streamArn, String shardId,
                           String startSequenceNumber, String endSequenceNumber, int batchSize) {
        this(condition, functionArn, timestamp, streamArn, shardId, startSequenceNumber, endSequenceNumber, batchSize,
                Source.DYNAMODB_STREAM);
    }

    /**
     * Reads a queue message's body.
     *
     * @throws IllegalArgumentException when it is not a DynamoDB or Kinesis stream on-failure record, saying why
     */
    public static OnFailureRecord parse(String body) {
        JsonNode root = Json.parse(body);
        if (!root.isObject()) {
            throw new IllegalArgumentException("not a JSON object");
        }
        Source source = Json.field(root, Source.DYNAMODB_STREAM.field()).isPresent() || Json.field(root, Source.KINESIS.field()).isEmpty()
                ? Source.DYNAMODB_STREAM : Source.KINESIS;
        JsonNode info = Json.field(root, source.field()).filter(JsonNode::isObject).orElseThrow(() ->
                new IllegalArgumentException("no DDBStreamBatchInfo or KinesisBatchInfo: not an on-failure record of a DynamoDB or"
                        + " Kinesis stream"));
        JsonNode context = Json.field(root, "requestContext").orElse(JsonNode.emptyObjectNode());
        String batchSize = Json.text(info, "batchSize");
        return new OnFailureRecord(Json.text(context, "condition"), Json.text(context, "functionArn"), Json.text(root, "timestamp"),
                Json.text(info, "streamArn"), Json.text(info, "shardId"), Json.text(info, "startSequenceNumber"),
                Json.text(info, "endSequenceNumber"), batchSize == null || !batchSize.matches("\\d{1,9}") ? 0 : Integer.parseInt(batchSize),
                source);
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
