package com.multikey.reindex;

import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The jobs table on the local DynamoDB engine: claims, checkpoints of any key type, totals, and one completion. */
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
}
