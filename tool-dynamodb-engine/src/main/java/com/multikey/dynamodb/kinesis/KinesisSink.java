package com.multikey.dynamodb.kinesis;

/**
 * Where the engine's Kinesis streaming destinations put their records: a Kinesis data stream service (the emulator's
 * local one), called as a producer calls PutRecord. Called under the table's lock, in the order of the table's
 * changes: it must be quick and must not call back into the engine.
 */
public interface KinesisSink {

    /** Whether a data stream with this ARN exists (EnableKinesisStreamingDestination checks it). */
    boolean exists(String streamArn);

    /** Puts one record: {@code data} keyed by {@code partitionKey}, as PutRecord does. */
    void put(String streamArn, String partitionKey, byte[] data);

    /** No Kinesis service: no data stream exists, so no destination can be enabled. */
    KinesisSink NONE = new KinesisSink() {
        @Override
        public boolean exists(String streamArn) {
            return false;
        }

        @Override
        public void put(String streamArn, String partitionKey, byte[] data) {
            throw new IllegalStateException("no Kinesis service");
        }
    };
}
