package com.multikey.reindex.worker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.common.EmfMetrics;
import com.multikey.common.StructuredLog;
import com.multikey.index.IndexKey;
import com.multikey.reindex.JobStore;
import com.multikey.reindex.PageCounts;
import com.multikey.reindex.PageOutcome;
import com.multikey.reindex.SegmentPosition;
import com.multikey.reindex.SegmentVerifier;
import com.multikey.reindex.SegmentWork;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The worker's logic with the jobs table on the local DynamoDB engine and a scripted segment: three pages a segment, each
 * reporting one missing item; the invoker records what would be invoked asynchronously.
 */
@ExtendWith(LocalTablesExtension.class)
class ReindexWorkerTest {

    private static final int PAGES_PER_SEGMENT = 3;
    private final JobStore jobs;
    private final List<String> invoked = new ArrayList<>();
    private final ByteArrayOutputStream output = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(output, true, StandardCharsets.UTF_8);
    private final ReindexWorker worker;

    ReindexWorkerTest(LocalTables tables) {
        this.jobs = new JobStore(tables.dynamoDb(), "ReindexJobsTable");
        this.worker = new ReindexWorker(jobs, spec -> new ThreePages(), (jobId, segment) -> invoked.add(jobId + "/" + segment),
                new WorkerMetrics(new EmfMetrics("Multikey", WorkerMetrics.SERVICE, out, Clock.systemUTC())),
                new StructuredLog("ReindexWorker", out, Clock.systemUTC()), Clock.systemUTC(), Duration.ofSeconds(60));
    }

    /** Page n of a segment continues after key n (a number key), the third is the last. */
    private static final class ThreePages implements SegmentWork {
        @Override
        public PageOutcome page(int segment, int totalSegments, SegmentPosition at) {
            int n = at.startKey().isEmpty() ? 1 : Integer.parseInt(at.startKey().get("n").n()) + 1;
            SegmentPosition next = n == PAGES_PER_SEGMENT ? SegmentPosition.DONE
                    : new SegmentPosition(SegmentPosition.Phase.APP, Map.of("n", AttributeValue.fromN(Integer.toString(n))));
            return new PageOutcome(new PageCounts(10, 10, 0, 1, 0, 0, 0), next);
        }
    }

    private ReindexWorker.Outcome handle(Map<String, Object> request, long remainingMillis) throws InterruptedException {
        return worker.handle(WorkerRequest.of(request, new WorkerRequest.Defaults(2, 100, 2, 10)), () -> remainingMillis);
    }

    private static Map<String, Object> start(String jobId) {
        return Map.of("action", "start", "jobId", jobId, "kind", "verify");
    }

    @Test
    void start_invokesEverySegment_andEachSegmentWorksToItsEnd_theLastPublishingTheDrift() throws Exception {
        assertThat(handle(start("v1"), 900_000)).isEqualTo(new ReindexWorker.Outcome.Started("v1", false, 2));
        assertThat(invoked).containsExactly("v1/0", "v1/1");

        ReindexWorker.Outcome first = handle(WorkerRequest.segment("v1", 0), 900_000);
        ReindexWorker.Outcome last = handle(WorkerRequest.segment("v1", 1), 900_000);

        assertThat(first).isEqualTo(new ReindexWorker.Outcome.Worked("v1", 0, 3, new PageCounts(30, 30, 0, 3, 0, 0, 0),
                ReindexWorker.Status.SEGMENT_DONE));
        assertThat(((ReindexWorker.Outcome.Worked) last).status()).isEqualTo(ReindexWorker.Status.JOB_DONE);
        assertThat(jobs.job("v1").orElseThrow().totals().missing()).isEqualTo(6);
        List<JsonNode> lines = new ArrayList<>();
        for (String line : output.toString(StandardCharsets.UTF_8).split("\n")) {
            lines.add(new ObjectMapper().readTree(line));
        }
        assertThat(lines).filteredOn(l -> "reindex checkpoint".equals(l.path("message").asText()) || "reindex segment done".equals(
                l.path("message").asText())).as("one log line a checkpoint").hasSize(6)
                .allSatisfy(l -> assertThat(l.has("startKey")).as("no keys or content of items").isFalse());
        assertThat(lines).filteredOn(l -> l.has("IndexDrift")).extracting(l -> l.path("drift").asText() + "=" + l.path("IndexDrift").asLong())
                .containsExactly("missing=6", "stale=0", "orphaned=0");
        assertThat(lines).filteredOn(l -> l.has("IndexDrift"))
                .allSatisfy(l -> assertThat(l.at("/_aws/CloudWatchMetrics/0/Dimensions").toString()).isEqualTo("[[\"service\",\"drift\"]]"));
    }

    @Test
    void segment_withLittleTimeLeft_savesItsCheckpointAfterOnePage_andContinuesInANewInvocation() throws Exception {
        handle(start("v2"), 900_000);
        invoked.clear();

        ReindexWorker.Outcome outcome = handle(WorkerRequest.segment("v2", 0), 59_000);

        assertThat(outcome).isEqualTo(new ReindexWorker.Outcome.Worked("v2", 0, 1, new PageCounts(10, 10, 0, 1, 0, 0, 0),
                ReindexWorker.Status.CONTINUED));
        assertThat(invoked).containsExactly("v2/0");
        ReindexWorker.Outcome next = handle(WorkerRequest.segment("v2", 0), 900_000);
        assertThat(((ReindexWorker.Outcome.Worked) next).pages()).as("resumed after its first page").isEqualTo(2);
        assertThat(jobs.job("v2").orElseThrow().totals().items()).as("every page counted once").isEqualTo(30);
    }

    @Test
    void segment_ofAVerify_keepsTheKeysOfTheWrongEntriesItsPagesFound_acrossInvocations_oneForEachCounted() throws Exception {
        // given: each page finds one missing entry, and lists it
        AtomicLong pagesWorked = new AtomicLong();
        ReindexWorker listing = new ReindexWorker(jobs, spec -> (segment, total, at) -> {
            PageOutcome page = new ThreePages().page(segment, total, at);
            return new PageOutcome(page.counts(), page.next(), List.of(new SegmentVerifier.Discrepancy(SegmentVerifier.Kind.MISSING,
                    "issue#" + segment, new IndexKey("issue-grid|p|f0", "page" + pagesWorked.incrementAndGet()))));
        }, (jobId, segment) -> invoked.add(jobId + "/" + segment), new WorkerMetrics(new EmfMetrics("Multikey", "x", out, Clock.systemUTC())),
                new StructuredLog("ReindexWorker", out, Clock.systemUTC()), Clock.systemUTC(), Duration.ofSeconds(60));
        listing.handle(WorkerRequest.of(start("v6"), new WorkerRequest.Defaults(2, 100, 2, 10)), () -> 900_000L);

        // when: segment 0 runs out of time after its first page and goes on in a new invocation
        listing.handle(new WorkerRequest.Segment("v6", 0), () -> 59_000L);
        listing.handle(new WorkerRequest.Segment("v6", 0), () -> 900_000L);
        listing.handle(new WorkerRequest.Segment("v6", 1), () -> 900_000L);

        // then
        assertThat(jobs.job("v6").orElseThrow().totals().drift()).isEqualTo(6);
        assertThat(jobs.found("v6", 100)).extracting(d -> d.key().sortKey())
                .containsExactlyInAnyOrder("page1", "page2", "page3", "page4", "page5", "page6");
    }

    @Test
    void segment_claimedAgainWhileItRuns_stopsAtItsNextCheckpoint_andAFinishedSegmentDoesNothing() throws Exception {
        handle(start("v3"), 900_000);
        AtomicLong calls = new AtomicLong();
        ReindexWorker racing = new ReindexWorker(jobs, spec -> (segment, total, at) -> {
            if (calls.incrementAndGet() == 1) {
                jobs.claim("v3", segment, java.time.Instant.now()).orElseThrow(); // a duplicate delivery claims it meanwhile
            }
            return new ThreePages().page(segment, total, at);
        }, (jobId, segment) -> invoked.add(jobId + "/" + segment), new WorkerMetrics(new EmfMetrics("Multikey", "x", out, Clock.systemUTC())),
                new StructuredLog("ReindexWorker", out, Clock.systemUTC()), Clock.systemUTC(), Duration.ofSeconds(60));

        ReindexWorker.Outcome superseded = racing.handle(new WorkerRequest.Segment("v3", 0), () -> 900_000L);

        assertThat(((ReindexWorker.Outcome.Worked) superseded).status()).isEqualTo(ReindexWorker.Status.SUPERSEDED);
        assertThat(jobs.job("v3").orElseThrow().totals().items()).isZero();
        handle(WorkerRequest.segment("v3", 0), 900_000);
        assertThat(((ReindexWorker.Outcome.Worked) handle(WorkerRequest.segment("v3", 0), 900_000)).status())
                .isEqualTo(ReindexWorker.Status.ALREADY_DONE);
    }

    @Test
    void segment_retriedAfterACrashBetweenItsLastCheckpointAndTheJobsCompletion_marksTheJobDone() throws Exception {
        handle(Map.of("action", "start", "jobId", "v5", "kind", "verify", "totalSegments", 1), 900_000);
        // the invocation saved the segment's last page (the job has no segment left), then died before completing the job
        JobStore.Claim claim = jobs.claim("v5", 0, java.time.Instant.now()).orElseThrow();
        assertThat(jobs.checkpoint("v5", claim, SegmentPosition.DONE, new PageCounts(10, 10, 0, 1, 0, 0, 0), java.time.Instant.now()))
                .isTrue();

        // Lambda retries the failed asynchronous invocation
        handle(WorkerRequest.segment("v5", 0), 900_000);

        assertThat(jobs.job("v5").orElseThrow().done()).as("the retry finishes the job").isTrue();
        assertThat(output.toString(StandardCharsets.UTF_8)).contains("\"IndexDrift\"");
    }

    @Test
    void start_ofAnExistingJob_resumesOnlyUnfinishedSegments_andRefusesAnotherKind() throws Exception {
        handle(start("v4"), 900_000);
        handle(WorkerRequest.segment("v4", 1), 900_000);
        invoked.clear();

        assertThat(handle(start("v4"), 900_000)).isEqualTo(new ReindexWorker.Outcome.Started("v4", true, 1));
        assertThat(invoked).containsExactly("v4/0");
        assertThatThrownBy(() -> handle(Map.of("action", "start", "jobId", "v4", "kind", "backfill"), 900_000))
                .hasMessageContaining("exists as a verify over 2 segments");
    }

    @Test
    void request_thatIsNotAStartOrASegment_isRefusedClearly() {
        WorkerRequest.Defaults defaults = new WorkerRequest.Defaults(2, 100, 2, 10);
        assertThatThrownBy(() -> WorkerRequest.of(Map.of("action", "go"), defaults)).hasMessageContaining("\"action\" must be");
        assertThatThrownBy(() -> WorkerRequest.of(Map.of("action", "segment", "jobId", "j"), defaults)).hasMessageContaining("\"segment\"");
        assertThatThrownBy(() -> WorkerRequest.of(Map.of("action", "start", "jobId", "j", "kind", "rebuild"), defaults))
                .hasMessageContaining("kind must be backfill, verify, repair or remove");
        assertThatThrownBy(() -> WorkerRequest.of(Map.of("action", "start", "jobId", "j", "kind", "verify", "totalSegments", 0), defaults))
                .hasMessageContaining("total segments must be 1 to 1000000");
        assertThatThrownBy(() -> WorkerRequest.of(Map.of("action", "start", "jobId", "a b", "kind", "verify"), defaults))
                .hasMessageContaining("job id must be");
    }
}
