package com.multikey.reindex;

import com.multikey.common.Sleeper;
import com.multikey.index.GridLayoutStore;
import com.multikey.index.definition.GridState;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.IssueFixtures;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link GridMigration} stopped by a failure at each of its steps in turn (during the backfill, the verify, the removal,
 * and after each of them), each time run again: it goes on from the state it recorded, redoes no recorded step, and ends
 * with the grid grouped and the old layout's items gone.
 */
@ExtendWith(LocalTablesExtension.class)
class GridMigrationResumeTest {

    private static final String APP = "AppTable";
    private static final String INDEX = "IssueAttribIndexTable";
    private static final IndexDefinitions DEFINITIONS = IndexDefinitions.packaged();

    private final DynamoDbClient dynamoDb;

    GridMigrationResumeTest(LocalTables tables) {
        this.dynamoDb = tables.dynamoDb();
    }

    /** The in-process work, failing once at each of the named points. */
    private final class FailingOnce implements GridMigration.Work {
        private final GridMigration.InProcess work = new GridMigration.InProcess(dynamoDb, APP, INDEX, 2, 100_000);
        private final List<String> failAt = new ArrayList<>(List.of("backfill:before", "backfill:after", "verify:after",
                "remove:before", "remove:after"));
        private final List<String> done = new ArrayList<>();

        private void maybeFail(String point) {
            if (failAt.remove(point)) {
                throw new IllegalStateException("injected failure at " + point);
            }
        }

        @Override
        public void backfill(IndexDefinitions definitions, String index, GridMigration.Listener listener) throws InterruptedException {
            maybeFail("backfill:before");
            work.backfill(definitions, index, listener);
            done.add("backfill");
            maybeFail("backfill:after");
        }

        @Override
        public GridMigration.Found verify(IndexDefinitions definitions, String index, GridMigration.Listener listener)
                throws InterruptedException {
            GridMigration.Found found = work.verify(definitions, index, listener);
            done.add("verify");
            maybeFail("verify:after");
            return found;
        }

        @Override
        public List<SegmentVerifier.Discrepancy> recheck(IndexDefinitions definitions, String index, List<SegmentVerifier.Discrepancy> found) {
            return work.recheck(definitions, index, found);
        }

        @Override
        public long removeFieldPartitioned(IndexDefinitions definitions, GridMigration.Listener listener) throws InterruptedException {
            maybeFail("remove:before");
            long removed = work.removeFieldPartitioned(definitions, listener);
            done.add("remove");
            maybeFail("remove:after");
            return removed;
        }
    }

    @Test
    void run_stoppedByAFailureAtEachStep_andRunAgain_goesOnWhereItStopped_andEndsGrouped() throws Exception {
        // given: a stack that had the grid before
        IssueFixtures.putRandomIssues(dynamoDb, APP, 40, new Random(5));
        new Backfill(dynamoDb, APP, INDEX, IndexScope.all(DEFINITIONS), 100_000).run(CheckpointStore.open(null, 2), 2, p -> { },
                Duration.ofSeconds(1));
        FailingOnce work = new FailingOnce();
        GridLayoutStore store = new GridLayoutStore(dynamoDb, INDEX, DEFINITIONS, true, Duration.ZERO, System::nanoTime);

        // when: run again after every failure
        List<GridState> stoppedIn = new ArrayList<>();
        GridMigration.Outcome outcome = null;
        for (int run = 1; outcome == null; run++) {
            assertThat(run).as("runs").isLessThanOrEqualTo(6);
            try {
                outcome = new GridMigration(store, DEFINITIONS, work, Duration.ZERO, Sleeper.SYSTEM).run(step -> { });
            } catch (IllegalStateException injected) {
                assertThat(injected).hasMessageStartingWith("injected failure");
                stoppedIn.add(store.read().orElseThrow().state());
            }
        }

        // then
        assertThat(outcome).isEqualTo(new GridMigration.Outcome(GridState.GROUPED, true));
        assertThat(stoppedIn).containsExactly(GridState.MIGRATING, GridState.MIGRATING, GridState.MIGRATING, GridState.GROUPED,
                GridState.GROUPED);
        assertThat(work.done).as("a step is redone only when it failed before it was recorded")
                .containsExactly("backfill", "backfill", "verify", "verify", "remove", "remove");
        assertThat(IssueFixtures.storedIndex(dynamoDb, INDEX)).isEqualTo(IssueFixtures.expectedIndex(dynamoDb, APP,
                DEFINITIONS.withGridState(GridState.GROUPED)));
        assertThat(new Verifier(dynamoDb, APP, INDEX, IndexScope.all(DEFINITIONS.withGridState(GridState.GROUPED))).verify(false).clean())
                .isTrue();
        assertThat(store.transition(new GridLayoutStore.Control(GridState.MIGRATING, true, false),
                new GridLayoutStore.Control(GridState.SWITCHED, true, false))).as("a state recorded is never moved from a stale one").isFalse();
    }
}
