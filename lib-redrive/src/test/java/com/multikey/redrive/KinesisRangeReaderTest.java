package com.multikey.redrive;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Reading a Kinesis range back, against a scripted shard. */
class KinesisRangeReaderTest {

    private static final String STREAM = "arn:aws:kinesis:us-east-1:123456789012:stream/AppTableChanges";
    private static final OnFailureRecord RANGE = new OnFailureRecord("RetryAttemptsExhausted", null, null, STREAM, "shardId-000000000000",
            "49590000000000000000000000000000000000000000000000000010", "49590000000000000000000000000000000000000000000000000012", 3,
            OnFailureRecord.Source.KINESIS);

    private static KinesisShards.Record record(int n) {
        return new KinesisShards.Record(String.format("495900000000000000000000000000000000000000000000000000%02d", n), "p",
                ("{\"n\":" + n + "}").getBytes(StandardCharsets.UTF_8), Instant.EPOCH);
    }

    /** Pages of records from the iterator's sequence number on, one per GetRecords call; the last page at the tip. */
    private static final class ScriptedShard implements KinesisShards {
        final List<List<Record>> pages;
        final List<String> iteratorStreams = new ArrayList<>();
        String iteratorError;
        boolean closed;

        ScriptedShard(List<List<Record>> pages) {
            this.pages = pages;
        }

        @Override
        public String shardIteratorAt(String streamArn, String shardId, String sequenceNumber) {
            iteratorStreams.add(streamArn);
            if (iteratorError != null) {
                throw new KinesisException(iteratorError, "scripted");
            }
            return "0";
        }

        @Override
        public Page records(String shardIterator, int limit) {
            int page = Integer.parseInt(shardIterator);
            boolean last = page >= pages.size() - 1;
            return new Page(page < pages.size() ? pages.get(page) : List.of(), closed && last ? null : Integer.toString(page + 1),
                    last ? 0 : 1000);
        }
    }

    @Test
    void read_whenTheRangeIsInTheShard_findsItsRecordsAndStopsAtItsEnd() {
        ScriptedShard shard = new ScriptedShard(List.of(List.of(), List.of(record(10), record(11)), List.of(record(12), record(13))));

        KinesisRange range = new KinesisRangeReader(shard).read(RANGE);

        assertThat(range).isInstanceOfSatisfying(KinesisRange.Found.class, found -> assertThat(found.records())
                .extracting(KinesisShards.Record::sequenceNumber).containsExactly(record(10).sequenceNumber(), record(11).sequenceNumber(),
                        record(12).sequenceNumber()));
    }

    @Test
    void read_whenTheFirstRecordReadIsPastTheRangesFirst_isGone_notRedrivenInPart() {
        // the range's first record trimmed: the iterator starts at the shard's oldest record kept
        ScriptedShard shard = new ScriptedShard(List.of(List.of(record(11), record(12))));

        assertThat(new KinesisRangeReader(shard).read(RANGE)).isInstanceOfSatisfying(KinesisRange.Gone.class,
                gone -> assertThat(gone.reason()).contains("retention"));
    }

    @Test
    void read_whenTheShardHoldsNothingUpToItsTip_isGone() {
        ScriptedShard shard = new ScriptedShard(List.of(List.of()));

        assertThat(new KinesisRangeReader(shard).read(RANGE)).isInstanceOf(KinesisRange.Gone.class);
    }

    @Test
    void read_whenKinesisRefusesTheSequenceNumber_orTheStreamIsGone_isGone() {
        ScriptedShard refused = new ScriptedShard(List.of());
        refused.iteratorError = "InvalidArgumentException";
        ScriptedShard missing = new ScriptedShard(List.of());
        missing.iteratorError = "ResourceNotFoundException";

        assertThat(new KinesisRangeReader(refused).read(RANGE)).isInstanceOf(KinesisRange.Gone.class);
        assertThat(new KinesisRangeReader(missing).read(RANGE)).isInstanceOf(KinesisRange.Gone.class);
    }

    @Test
    void read_whenThrottledPastItsRetries_failsToRunAgain_ratherThanCallingTheRangeGone() {
        ScriptedShard throttled = new ScriptedShard(List.of());
        throttled.iteratorError = "ProvisionedThroughputExceededException";

        assertThatThrownBy(() -> new KinesisRangeReader(throttled).read(RANGE)).isInstanceOf(KinesisShards.KinesisException.class);
    }

    @Test
    void read_whenTheShardEndsBeforeTheRangesEnd_failsToRunAgain_ratherThanAnsweringPartOfIt() {
        ScriptedShard shard = new ScriptedShard(List.of(List.of(record(10), record(11))));
        shard.closed = true;

        assertThatThrownBy(() -> new KinesisRangeReader(shard).read(RANGE)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("run again");
    }

    @Test
    void read_whenTheRecordNamesAnEnhancedFanOutConsumer_readsItsStream() {
        OnFailureRecord throughConsumer = new OnFailureRecord(null, null, null, STREAM + "/consumer/indexer:1700000000", RANGE.shardId(),
                RANGE.startSequenceNumber(), RANGE.endSequenceNumber(), 3, OnFailureRecord.Source.KINESIS);
        ScriptedShard shard = new ScriptedShard(List.of(List.of(record(10), record(11), record(12))));

        new KinesisRangeReader(shard).read(throughConsumer);

        assertThat(shard.iteratorStreams).containsExactly(STREAM);
    }
}
