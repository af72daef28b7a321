package com.multikey.redrive;

import com.multikey.index.definition.IndexDefinitions;
import com.multikey.reindex.IndexScope;
import com.multikey.reindex.TargetedRepair;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.TrimmedDataAccessException;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Reading a range back, against a scripted DynamoDB Streams client. */
class StreamRangeReaderTest {

    private static final OnFailureRecord RANGE = new OnFailureRecord("RetryAttemptsExhausted", null, null, "arn:stream", "shard-1",
            "100000000000000000010", "100000000000000000012", 3);

    private static Record record(long sequenceNumber) {
        return Record.builder().dynamodb(d -> d.sequenceNumber(Long.toString(100000000000000000L) + String.format("%03d", sequenceNumber)))
                .build();
    }

    /** Pages of records, one per GetRecords call; iterators named by page number. */
    private static final class ScriptedStreams implements DynamoDbStreamsClient {
        final List<List<Record>> pages;
        final List<GetShardIteratorRequest> iteratorRequests = new ArrayList<>();
        Supplier<RuntimeException> failure;

        ScriptedStreams(List<List<Record>> pages) {
            this.pages = pages;
        }

        @Override
        public GetShardIteratorResponse getShardIterator(GetShardIteratorRequest request) {
            iteratorRequests.add(request);
            if (failure != null) {
                throw failure.get();
            }
            return GetShardIteratorResponse.builder().shardIterator("0").build();
        }

        @Override
        public GetRecordsResponse getRecords(GetRecordsRequest request) {
            int page = Integer.parseInt(request.shardIterator());
            return GetRecordsResponse.builder().records(page < pages.size() ? pages.get(page) : List.of())
                    .nextShardIterator(Integer.toString(page + 1)).build();
        }

        @Override
        public String serviceName() {
            return "dynamodb";
        }

        @Override
        public void close() {
        }
    }

    @Test
    void read_startsAtTheFirstSequenceNumber_andStopsPastTheLast() {
        ScriptedStreams streams = new ScriptedStreams(List.of(List.of(record(10), record(11)), List.of(), List.of(record(12), record(13))));

        StreamRange range = new StreamRangeReader(streams).read(RANGE);

        assertThat(range).isInstanceOfSatisfying(StreamRange.Found.class, found -> assertThat(found.records())
                .extracting(r -> r.dynamodb().sequenceNumber().substring(18)).containsExactly("010", "011", "012"));
        assertThat(streams.iteratorRequests).singleElement().satisfies(request -> {
            assertThat(request.shardIteratorType()).isEqualTo(ShardIteratorType.AT_SEQUENCE_NUMBER);
            assertThat(request.sequenceNumber()).isEqualTo(RANGE.startSequenceNumber());
            assertThat(request.shardId()).isEqualTo("shard-1");
        });
    }

    @Test
    void read_whenTheLastRecordIsTheRangesEnd_stopsThere() {
        ScriptedStreams streams = new ScriptedStreams(List.of(List.of(record(10), record(11), record(12))));

        StreamRange range = new StreamRangeReader(streams).read(RANGE);

        assertThat(range).isInstanceOfSatisfying(StreamRange.Found.class, found -> assertThat(found.records()).hasSize(3));
    }

    @Test
    void read_whenTheReadsStopBeforeTheRangesEnd_isNotFound_butAFailureToRunAgain() {
        // the open end of the shard answers empty pages: record 10 is all that was read of 10..12
        ScriptedStreams streams = new ScriptedStreams(List.of(List.of(record(10))));

        assertThatThrownBy(() -> new StreamRangeReader(streams).read(RANGE)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("run again");
    }

    @Test
    void read_whenEmptyPagesComeBeforeTheRangesRecords_neverAnswersAPartialRangeAsFound() {
        // GetRecords: "it might take multiple calls to get to a portion of the shard that contains stream records"
        List<List<Record>> pages = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            pages.add(List.of());
        }
        pages.add(List.of(record(10), record(11), record(12)));
        ScriptedStreams streams = new ScriptedStreams(pages);

        StreamRange range;
        try {
            range = new StreamRangeReader(streams).read(RANGE);
        } catch (IllegalStateException stoppedEarly) {
            return; // kept for the next run: acceptable
        }
        assertThat(range).isInstanceOfSatisfying(StreamRange.Found.class, found -> assertThat(found.records()).hasSize(3));
    }

    @Test
    void indexerRedrive_whenTheRangeWasNotReadToItsEnd_keepsTheMessage() {
        // given: the on-failure record names 10..12; the stream answers empty pages before them
        List<List<Record>> pages = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            pages.add(List.of());
        }
        pages.add(List.of(record(10), record(11), record(12)));
        String body = OnFailureRecordTest.DOCUMENTED
                .replace("\"startSequenceNumber\": \"800000000003126276362\"", "\"startSequenceNumber\": \"" + RANGE.startSequenceNumber() + "\"")
                .replace("\"endSequenceNumber\": \"800000000003126276362\"", "\"endSequenceNumber\": \"" + RANGE.endSequenceNumber() + "\"");
        assertThat(OnFailureRecord.parse(body).endSequenceNumber()).isEqualTo(RANGE.endSequenceNumber());
        RedriveTest.InMemoryQueue queue = new RedriveTest.InMemoryQueue(body);
        IndexerRedrive action = new IndexerRedrive(new StreamRangeReader(new ScriptedStreams(pages)),
                new TargetedRepair(null, "app", "index", IndexScope.all(IndexDefinitions.packaged())), IndexScope.all(IndexDefinitions.packaged()));

        // when
        Redrive.Report report = new Redrive(QueueKind.INDEXER, queue, action).run(false, 10, false);

        // then: nothing of the range was repaired, so the message must stay
        assertThat(queue.deleted).isEmpty();
        assertThat(report.outcomes()).singleElement().isInstanceOf(Redrive.Outcome.Failed.class);
    }

    @Test
    void read_whenTheRecordsWereTrimmed_isGone() {
        ScriptedStreams streams = new ScriptedStreams(List.of());
        streams.failure = () -> TrimmedDataAccessException.builder()
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("TrimmedDataAccessException").errorMessage("trimmed").build()).build();

        assertThat(new StreamRangeReader(streams).read(RANGE)).isInstanceOfSatisfying(StreamRange.Gone.class,
                gone -> assertThat(gone.reason()).contains("trimmed"));
    }

    @Test
    void read_whenTheStreamOrShardNoLongerExists_isGone() {
        ScriptedStreams streams = new ScriptedStreams(List.of());
        streams.failure = () -> ResourceNotFoundException.builder()
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("ResourceNotFoundException").errorMessage("no shard").build()).build();

        assertThat(new StreamRangeReader(streams).read(RANGE)).isInstanceOfSatisfying(StreamRange.Gone.class,
                gone -> assertThat(gone.reason()).contains("no longer exists"));
    }
}
