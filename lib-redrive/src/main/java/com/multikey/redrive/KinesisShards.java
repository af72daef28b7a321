package com.multikey.redrive;

import java.time.Instant;
import java.util.List;

/**
 * The two Kinesis Data Streams calls redrive reads a failed range back with: GetShardIterator
 * {@code AT_SEQUENCE_NUMBER} and GetRecords. A port: {@link KinesisSdkShards} speaks the API, tests may hand in a fake.
 */
public interface KinesisShards {

    /**
     * GetShardIterator {@code AT_SEQUENCE_NUMBER}.
     *
     * @throws KinesisException with the service's error code
     */
    String shardIteratorAt(String streamArn, String shardId, String sequenceNumber);

    /**
     * GetRecords.
     *
     * @throws KinesisException with the service's error code
     */
    Page records(String shardIterator, int limit);

    /** One record of a shard as GetRecords answers it ({@code Data} decoded). */
    record Record(String sequenceNumber, String partitionKey, byte[] data, Instant arrival) {
        public Record {
            data = data.clone();
        }

        @Override
        public byte[] data() {
            return data.clone();
        }
    }

    /**
     * What one GetRecords call answered.
     *
     * @param nextShardIterator null when the shard is closed and read to its end
     * @param millisBehindLatest how far the read is behind the shard's tip (0: at the tip)
     */
    record Page(List<Record> records, String nextShardIterator, long millisBehindLatest) {
        public Page {
            records = List.copyOf(records);
        }
    }

    /** An error the Kinesis API answered, by its code ({@code ResourceNotFoundException}, {@code InvalidArgumentException}, ...). */
    final class KinesisException extends RuntimeException {
        private final String errorCode;

        public KinesisException(String errorCode, String message) {
            super(errorCode + ": " + message);
            this.errorCode = errorCode;
        }

        public String errorCode() {
            return errorCode;
        }
    }
}
