package com.multikey.reindex;

import com.multikey.index.IndexKey;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The jobs table on the local DynamoDB engine: claims, checkpoints of any key type, totals, one completion, and the wrong
 * entries a verify's pages keep.
 */
@ExtendWith(LocalTablesExtension.class)
class JobStoreIntegrationTest {

    // items expire RETENTION after their last write (TTL, which the DynamoDB engine applies): now, not a fixed date
    private static final Instant NOW = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    private final JobStore jobs;
    private final DynamoDbClient dynamoDb;

    JobStoreIntegrationTest(LocalTables tables) {
        this.dynamoDb = tables.dynamoDb();
        this.jobs = new JobStore(dynamoDb, "ReindexJobsTable");
    }

    private static JobSpec spec(String id, int segments) {
        return new JobSpec(id, JobSpec.Kind.VERIFY, segments, 100, 4, 10);
    }

    @Test
    void checkpoint_keepsAStartKeyOfEveryKeyType_andAddsEachPageToTheTotalsOnce() {
        assertThat(jobs.create(spec("j1", 2), NOW)).isTrue();
        assertThat(jobs.create(spec("j1", 2), NOW)).as("exists").isFalse();
        JobStore.Claim claim = jobs.claim("j1", 1, NOW).orElseThrow();
        Map<String, AttributeValue> key = Map.of("n", AttributeValue.fromN("12.5"), "b", AttributeValue.fromB(SdkBytes.fromUtf8String("\u0001x")),
                "s", AttributeValue.fromS("issue#1"));
        SegmentPosition at = new SegmentPosition(SegmentPosition.Phase.INDEX, key);

        assertThat(jobs.checkpoint("j1", claim, at, new PageCounts(10, 9, 0, 1, 2, 3, 0), NOW)).isTrue();

        JobStore.Claim resumed = jobs.claim("j1", 1, NOW).orElseThrow();
        assertThat(resumed.position()).isEqualTo(at);
        assertThat(resumed.step()).isEqualTo(claim.step() + 1);
        JobStatus status = jobs.job("j1").orElseThrow();
        assertThat(status.totals()).isEqualTo(new PageCounts(10, 9, 0, 1, 2, 3, 0));
        assertThat(status.segmentsLeft()).isEqualTo(2);
        assertThat(jobs.unfinishedSegments(status.spec())).containsExactly(0, 1);
    }

    @Test
    void checkpoint_ofAnInvocationWhoseSegmentWasClaimedAgain_isRefused_andAddsNothing() {
        jobs.create(spec("j2", 1), NOW);
        JobStore.Claim first = jobs.claim("j2", 0, NOW).orElseThrow();
        JobStore.Claim second = jobs.claim("j2", 0, NOW).orElseThrow();

        boolean saved = jobs.checkpoint("j2", first, SegmentPosition.DONE, new PageCounts(5, 5, 0, 0, 0, 0, 0), NOW);

        assertThat(saved).isFalse();
        assertThat(jobs.job("j2").orElseThrow().totals()).isEqualTo(PageCounts.NONE);
        assertThat(jobs.checkpoint("j2", second, SegmentPosition.DONE, new PageCounts(5, 5, 0, 0, 0, 0, 0), NOW)).isTrue();
        assertThat(jobs.claim("j2", 0, NOW)).as("done").isEmpty();
    }

    @Test
    void completeIfLast_marksTheJobDoneOnce_whenNoSegmentIsLeft() {
        jobs.create(spec("j3", 2), NOW);
        JobStore.Claim a = jobs.claim("j3", 0, NOW).orElseThrow();
        JobStore.Claim b = jobs.claim("j3", 1, NOW).orElseThrow();
        jobs.checkpoint("j3", a, SegmentPosition.DONE, new PageCounts(1, 1, 0, 1, 0, 0, 0), NOW);
        assertThat(jobs.completeIfLast("j3", NOW)).as("one segment left").isEmpty();
        jobs.checkpoint("j3", b, SegmentPosition.DONE, new PageCounts(1, 1, 0, 0, 0, 1, 0), NOW);

        JobStatus done = jobs.completeIfLast("j3", NOW.plusSeconds(5)).orElseThrow();

        assertThat(done.done()).isTrue();
        assertThat(done.totals().missing()).isEqualTo(1);
        assertThat(done.totals().orphaned()).isEqualTo(1);
        assertThat(done.finishedAt()).contains(NOW.plusSeconds(5));
        assertThat(jobs.completeIfLast("j3", NOW)).as("only once").isEmpty();
        assertThat(jobs.unfinishedSegments(done.spec())).isEmpty();
    }

    @Test
    void job_readBack_keepsTheIndexItWasStartedFor_orNoneForEveryIndex() {
        // given
        jobs.create(new JobSpec("j4", JobSpec.Kind.REMOVE, 2, 100, 2, 10, java.util.Optional.of("issue-labels")), NOW);
        jobs.create(new JobSpec("j5", JobSpec.Kind.BACKFILL, 2, 100, 2, 10), NOW);

        // when
        JobSpec removal = jobs.job("j4").orElseThrow().spec();
        JobSpec backfill = jobs.job("j5").orElseThrow().spec();

        // then
        assertThat(removal.kind()).isEqualTo(JobSpec.Kind.REMOVE);
        assertThat(removal.index()).contains("issue-labels");
        assertThat(backfill.index()).isEmpty();
    }

    @Test
    void checkpoint_keepsThePagesWrongEntries_withTheClaimCountingThem_andARefusedCheckpointKeepsNone() {
        // given
        jobs.create(spec("j6", 2), NOW);
        SegmentVerifier.Discrepancy missing = new SegmentVerifier.Discrepancy(SegmentVerifier.Kind.MISSING, "id=issue#1",
                new IndexKey("issue-grid|p|f0", "n0001\u0000x"));
        SegmentVerifier.Discrepancy sourceless = new SegmentVerifier.Discrepancy(SegmentVerifier.Kind.ORPHANED, "",
                new IndexKey("issue-grid|p|f0", "n0002"));
        JobStore.Claim superseded = jobs.claim("j6", 0, NOW).orElseThrow();
        JobStore.Claim claim = jobs.claim("j6", 0, NOW).orElseThrow();

        // when
        boolean refused = !jobs.checkpoint("j6", superseded, SegmentPosition.DONE, new PageCounts(1, 1, 0, 1, 0, 0, 0),
                List.of(missing), NOW);
        boolean saved = jobs.checkpoint("j6", claim, new SegmentPosition(SegmentPosition.Phase.INDEX, Map.of()),
                new PageCounts(2, 1, 0, 1, 0, 1, 0), List.of(missing, sourceless), NOW);

        // then
        assertThat(refused).isTrue();
        assertThat(saved).isTrue();
        assertThat(jobs.found("j6", 100)).containsExactlyInAnyOrder(missing, sourceless);
        assertThat(jobs.found("j6", 1)).hasSize(1);
        assertThat(jobs.found("no-such-job", 100)).isEmpty();
        assertThat(jobs.claim("j6", 0, NOW).orElseThrow().kept()).isEqualTo(2);
        assertThat(jobs.claim("j6", 1, NOW).orElseThrow().kept()).isZero();
        assertThat(dynamoDb.scan(b -> b.tableName("ReindexJobsTable")).items()).allSatisfy(item -> assertThat(item)
                .containsEntry(JobStore.EXPIRES_AT, AttributeValue.fromN(Long.toString(NOW.plus(JobStore.RETENTION).getEpochSecond()))));
    }

    @Test
    void toKeep_keepsTheFirstEntries_whileTheSegmentHasKeptFewerThanItsBound_andThePageFitsInOneItem() {
        // given
        List<SegmentVerifier.Discrepancy> page = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            page.add(new SegmentVerifier.Discrepancy(SegmentVerifier.Kind.STALE, "id=issue#" + i, new IndexKey("a", "k" + i)));
        }
        List<SegmentVerifier.Discrepancy> long1k = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            long1k.add(new SegmentVerifier.Discrepancy(SegmentVerifier.Kind.STALE, "id=issue#" + i, new IndexKey("a", "k".repeat(1000) + i)));
        }

        // then
        assertThat(JobStore.toKeep(page, 0)).isEqualTo(page);
        assertThat(JobStore.toKeep(page, JobStore.MAX_KEPT_PER_SEGMENT - 10)).isEqualTo(page.subList(0, 10));
        assertThat(JobStore.toKeep(page, JobStore.MAX_KEPT_PER_SEGMENT)).isEmpty();
        assertThat(JobStore.toKeep(long1k, 0)).hasSizeBetween(200, 299).isEqualTo(long1k.subList(0, JobStore.toKeep(long1k, 0).size()));
    }
}
