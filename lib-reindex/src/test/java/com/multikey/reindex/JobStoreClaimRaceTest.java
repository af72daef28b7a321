package com.multikey.reindex;

import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A claim races the checkpoint of the invocation holding the segment: the holder saves a page between the
 * claim's read of the segment and its conditional update (a checkpoint leaves the step as it is, so the update
 * still passes). The new claim must resume from what was saved, not from what it read before.
 */
@ExtendWith(LocalTablesExtension.class)
class JobStoreClaimRaceTest {

    private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    private static final String TABLE = "ReindexJobsTable";
    private final DynamoDbClient dynamoDb;

    JobStoreClaimRaceTest(LocalTables tables) {
        this.dynamoDb = tables.dynamoDb();
    }

    /** The client, running {@code after} once, right after the next call of {@code operation} answers. */
    private static DynamoDbClient runningAfter(String operation, DynamoDbClient client, AtomicReference<Runnable> after) {
        return (DynamoDbClient) Proxy.newProxyInstance(DynamoDbClient.class.getClassLoader(), new Class<?>[] {DynamoDbClient.class},
                (proxy, method, args) -> {
                    Object result;
                    try {
                        result = method.invoke(client, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (method.getName().equals(operation)) {
                        Runnable hook = after.getAndSet(null);
                        if (hook != null) {
                            hook.run();
                        }
                    }
                    return result;
                });
    }

    @Test
    void claim_racingTheHoldersLastCheckpoint_doesNotReworkTheSegment_norTakeItOffTwice() {
        JobStore jobs = new JobStore(dynamoDb, TABLE);
        jobs.create(new JobSpec("race", JobSpec.Kind.VERIFY, 2, 100, 2, 10), NOW);
        JobStore.Claim holder = jobs.claim("race", 0, NOW).orElseThrow();
        AtomicReference<Runnable> hook = new AtomicReference<>(() -> assertThat(
                jobs.checkpoint("race", holder, SegmentPosition.DONE, new PageCounts(5, 5, 0, 1, 0, 0, 0), NOW)).isTrue());
        JobStore racing = new JobStore(runningAfter("getItem", dynamoDb, hook), TABLE);

        // a duplicate delivery of segment 0 claims it while the holder saves its last page
        var duplicate = racing.claim("race", 0, NOW);

        if (duplicate.isPresent() && !duplicate.get().position().done()) {
            // the worker would work the page at that position (the segment's only page) and save it
            jobs.checkpoint("race", duplicate.get(), SegmentPosition.DONE, new PageCounts(5, 5, 0, 1, 0, 0, 0), NOW);
        }
        JobStatus status = jobs.job("race").orElseThrow();
        assertThat(status.segmentsLeft()).as("segment 1 has not run").isEqualTo(1);
        assertThat(status.totals().missing()).as("the page counted once").isEqualTo(1);
    }

    @Test
    void claim_whoseUpdateSucceededButWhoseAnswerWasLost_isStillTheClaim_afterTheSdksRetryFailsItsCondition() {
        JobStore jobs = new JobStore(dynamoDb, TABLE);
        jobs.create(new JobSpec("lost", JobSpec.Kind.VERIFY, 1, 100, 1, 10), NOW);
        // the first UpdateItem is applied but its answer never arrives; the SDK sends it again, and that one fails
        // its condition (the step has moved on)
        DynamoDbClient lossy = (DynamoDbClient) Proxy.newProxyInstance(DynamoDbClient.class.getClassLoader(),
                new Class<?>[] {DynamoDbClient.class}, (proxy, method, args) -> {
                    try {
                        if (method.getName().equals("updateItem")) {
                            method.invoke(dynamoDb, args);
                        }
                        return method.invoke(dynamoDb, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });

        var claim = new JobStore(lossy, TABLE).claim("lost", 0, NOW);

        assertThat(claim).as("the segment is claimed by this invocation, not by nobody").isPresent();
        assertThat(jobs.checkpoint("lost", claim.get(), SegmentPosition.DONE, new PageCounts(1, 1, 0, 0, 0, 0, 0), NOW)).isTrue();
        assertThat(jobs.job("lost").orElseThrow().segmentsLeft()).isZero();
        assertThat(jobs.claim("lost", 0, NOW)).as("a later delivery finds it done").isEmpty();
    }

    @Test
    void create_racingADuplicateStartWhoseSegmentAlreadyRan_doesNotResetThatSegment() {
        JobStore jobs = new JobStore(dynamoDb, TABLE);
        JobSpec spec = new JobSpec("dup", JobSpec.Kind.VERIFY, 2, 100, 2, 10);
        // a duplicate delivery of the scheduled start finds the job as soon as its item is written, invokes segment 0,
        // and that invocation works the segment to its end, while the first start is still writing segment items
        AtomicReference<Runnable> hook = new AtomicReference<>(() -> {
            assertThat(jobs.create(spec, NOW)).isFalse();
            JobStore.Claim claim = jobs.claim("dup", 0, NOW).orElseThrow();
            assertThat(jobs.checkpoint("dup", claim, SegmentPosition.DONE, new PageCounts(5, 5, 0, 1, 0, 0, 0), NOW)).isTrue();
        });
        JobStore first = new JobStore(runningAfter("putItem", dynamoDb, hook), TABLE);

        assertThat(first.create(spec, NOW)).isTrue();

        assertThat(jobs.unfinishedSegments(spec)).as("segment 0 stays done").containsExactly(1);
        assertThat(jobs.claim("dup", 0, NOW)).as("segment 0 is not worked again").isEmpty();
    }
}
