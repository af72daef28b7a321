package com.multikey.redrive;

import software.amazon.awssdk.services.dynamodb.model.ExpiredIteratorException;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.TrimmedDataAccessException;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads the records an on-failure record names back from the stream: GetShardIterator
 * {@code AT_SEQUENCE_NUMBER} the first sequence number, then GetRecords until past the last. A read that
 * stops before the range's last record (GetRecords may answer empty pages before the records, and the
 * shard may end) is not a range found but a failure to run again. Stream
 * records are kept 24 hours; a range trimmed since, or a stream or shard that no longer exists, is
 * {@link StreamRange.Gone}.
 */
public final class StreamRangeReader {

    /** GetRecords: at most 1,000 records a call (DynamoDB Streams API reference, GetRecords). */
    static final int MAX_RECORDS_PER_GET = 1000;
    /** Empty answers in a row before the reader stops at the open end of a shard that holds no more. */
    private static final int MAX_EMPTY_READS = 5;

    private final DynamoDbStreamsClient streams;

    public StreamRangeReader(DynamoDbStreamsClient streams) {
        this.streams = streams;
    }

    public StreamRange read(OnFailureRecord range) {
        try {
            String iterator = streams.getShardIterator(b -> b.streamArn(range.streamArn()).shardId(range.shardId())
                    .shardIteratorType(ShardIteratorType.AT_SEQUENCE_NUMBER).sequenceNumber(range.startSequenceNumber())).shardIterator();
            List<Record> records = new ArrayList<>();
            int empty = 0;
            while (iterator != null && empty < MAX_EMPTY_READS) {
                String current = iterator;
                GetRecordsResponse response = streams.getRecords(b -> b.shardIterator(current).limit(MAX_RECORDS_PER_GET));
                empty = response.records().isEmpty() ? empty + 1 : 0;
                for (Record record : response.records()) {
                    String sequenceNumber = record.dynamodb().sequenceNumber();
                    if (range.isAfter(sequenceNumber)) {
                        return new StreamRange.Found(records);
                    }
                    if (range.contains(sequenceNumber)) {
                        records.add(record);
                    }
                }
                if (!records.isEmpty() && range.endSequenceNumber().equals(lastSequenceNumber(records))) {
                    return new StreamRange.Found(records);
                }
                iterator = response.nextShardIterator();
            }
            // the range's last record was neither read nor passed: an answer now would be part of the range (or
            // none of it), and the message would be deleted for records never handled
            throw new IllegalStateException("read " + records.size() + " records of " + range.describe() + " without reaching "
                    + range.endSequenceNumber() + (iterator == null ? " before the shard ended" : " (GetRecords kept answering empty)")
                    + "; run again");
        } catch (TrimmedDataAccessException e) {
            return new StreamRange.Gone("the records were trimmed from the stream (kept 24 hours): " + e.awsErrorDetails().errorMessage());
        } catch (ResourceNotFoundException e) {
            return new StreamRange.Gone("the stream or shard no longer exists: " + e.awsErrorDetails().errorMessage());
        } catch (ExpiredIteratorException e) {
            throw new IllegalStateException("the shard iterator expired while reading " + range.describe() + "; run again", e);
        }
    }

    private static String lastSequenceNumber(List<Record> records) {
        return records.get(records.size() - 1).dynamodb().sequenceNumber();
    }
}
