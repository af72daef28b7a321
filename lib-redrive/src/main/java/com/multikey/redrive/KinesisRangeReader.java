package com.multikey.redrive;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads the records a Kinesis on-failure record names back from the data stream: GetShardIterator
 * {@code AT_SEQUENCE_NUMBER} the first sequence number, then GetRecords until past the last.
 *
 * <p>A Kinesis stream keeps records for its retention period (24 hours unless raised, up to 365 days) and trims older
 * ones. The range is {@link KinesisRange.Gone} when the stream or shard no longer exists, when Kinesis refuses the
 * first sequence number, when the first record read is not the range's first (trimmed: the iterator started at the
 * shard's oldest record), or when the read reaches the shard's tip without meeting a record of the range. Only the
 * whole range is handed on: a range missing its first records is gone, not redriven in part. A read that stops in
 * the range before its last record (the shard's iterator expired, GetRecords kept answering empty behind the tip) is
 * a failure to run again.
 */
final class KinesisRangeReader {

    /** GetRecords: at most 10,000 records a call (Kinesis API reference, GetRecords). */
    static final int MAX_RECORDS_PER_GET = 10_000;
    /** Empty answers in a row, behind the shard's tip, before the reader gives up for this run. */
    private static final int MAX_EMPTY_READS = 5;

    private final KinesisShards kinesis;

    KinesisRangeReader(KinesisShards kinesis) {
        this.kinesis = kinesis;
    }

    KinesisRange read(OnFailureRecord range) {
        String iterator;
        try {
            iterator = kinesis.shardIteratorAt(streamOf(range.streamArn()), range.shardId(), range.startSequenceNumber());
        } catch (KinesisShards.KinesisException e) {
            return switch (e.errorCode()) {
                case "ResourceNotFoundException" -> new KinesisRange.Gone("the Kinesis stream or shard no longer exists: " + e.getMessage());
                case "InvalidArgumentException" -> new KinesisRange.Gone("Kinesis refuses the range's first sequence number (past the"
                        + " stream's retention, or not of this shard): " + e.getMessage());
                default -> throw e;
            };
        }
        List<KinesisShards.Record> records = new ArrayList<>();
        int empty = 0;
        while (iterator != null) {
            KinesisShards.Page page;
            try {
                page = kinesis.records(iterator, MAX_RECORDS_PER_GET);
            } catch (KinesisShards.KinesisException e) {
                if (e.errorCode().equals("ResourceNotFoundException")) {
                    return new KinesisRange.Gone("the Kinesis stream or shard no longer exists: " + e.getMessage());
                }
                throw new IllegalStateException("reading " + range.describe() + " back from Kinesis failed (" + e.getMessage() + "); run again", e);
            }
            for (KinesisShards.Record record : page.records()) {
                if (records.isEmpty() && !record.sequenceNumber().equals(range.startSequenceNumber())) {
                    return new KinesisRange.Gone("the range's first records are no longer in the stream (past its retention): the"
                            + " shard's oldest record is " + record.sequenceNumber());
                }
                if (range.isAfter(record.sequenceNumber())) {
                    return new KinesisRange.Found(records);
                }
                records.add(record);
                if (record.sequenceNumber().equals(range.endSequenceNumber())) {
                    return new KinesisRange.Found(records);
                }
            }
            if (page.records().isEmpty()) {
                if (records.isEmpty() && page.millisBehindLatest() == 0) {
                    return new KinesisRange.Gone("none of the range's records is in the stream any more (past its retention)");
                }
                if (++empty >= MAX_EMPTY_READS) {
                    break;
                }
            } else {
                empty = 0;
            }
            iterator = page.nextShardIterator();
        }
        // the range's last record was neither read nor passed: an answer now would be part of the range (or none of it),
        // and the message would be deleted for records never handled
        throw new IllegalStateException("read " + records.size() + " records of " + range.describe() + " without reaching "
                + range.endSequenceNumber() + (iterator == null ? " before the shard ended" : " (GetRecords kept answering empty)")
                + "; run again");
    }

    /** The data stream's ARN, also when a record names an enhanced fan-out consumer's ({@code <stream ARN>/consumer/<name>:<time>}). */
    static String streamOf(String arn) {
        int consumer = arn.indexOf("/consumer/");
        return consumer < 0 ? arn : arn.substring(0, consumer);
    }
}
