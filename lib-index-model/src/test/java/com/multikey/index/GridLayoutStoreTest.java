package com.multikey.index;

import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.GridState;
import com.multikey.index.definition.IndexDefinitions;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GridLayoutStoreTest {

    private static final IndexDefinitions GRID = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: id, type: S}}
            indexes:
              - {name: issue-grid, replaces: custom_fields, covers: [{attribute: id, beginsWith: "issue#"}], group: project,
                 values: {entriesOf: custom_fields}, orderBy: num}
              - {name: custom_fields, layout: field-partitioned, covers: [{attribute: id, beginsWith: "issue#"}], group: project,
                 values: {entriesOf: custom_fields}, orderBy: num}
            """);
    private static final IndexDefinitions NO_GRID = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: id, type: S}}
            indexes:
              - {name: by-owner, values: {attribute: owner}}
            """);
    private static final Duration CACHE = Duration.ofSeconds(10);

    private final InMemoryIndexTable table = new InMemoryIndexTable(2);
    private final AtomicLong nanos = new AtomicLong(5_000_000_000L);

    private GridLayoutStore store(IndexDefinitions definitions, boolean records) {
        return new GridLayoutStore(table, "index-table", definitions, records, CACHE, nanos::get);
    }

    private void record(String state, boolean backfilled, Boolean oldItemsRemoved) {
        Map<String, AttributeValue> control = new java.util.HashMap<>(Map.of(
                IndexKey.ATTRIB_ID, AttributeValue.fromS("issue-grid"), IndexKey.SORT_KEY, AttributeValue.fromS(GridLayoutStore.SORT_KEY),
                GridLayoutStore.CONTROL, AttributeValue.fromS("grid-layout"), "state", AttributeValue.fromS(state),
                "backfilled", AttributeValue.fromBool(backfilled)));
        if (oldItemsRemoved != null) {
            control.put("oldItemsRemoved", AttributeValue.fromBool(oldItemsRemoved));
        }
        table.put(control);
    }

    /** Index items of the grouped grid (they name their index), spread over a few scan pages. */
    private void groupedItems(int count) {
        for (int i = 0; i < count; i++) {
            table.put(Map.of(IndexKey.ATTRIB_ID, AttributeValue.fromS("issue-grid|p1"), IndexKey.SORT_KEY, AttributeValue.fromS("v" + i),
                    IndexItem.ITEM_ID, AttributeValue.fromS("issue#" + i), IndexItem.INDEX, AttributeValue.fromS("issue-grid")));
        }
    }

    /** An item of the field-partitioned layout (an issue and no index), sorting after the grouped items: on the last page. */
    private void fieldPartitionedItem() {
        table.put(Map.of(IndexKey.ATTRIB_ID, AttributeValue.fromS("priority"), IndexKey.SORT_KEY, AttributeValue.fromS("v"),
                IndexItem.ITEM_ID, AttributeValue.fromS("issue#9")));
    }

    @Test
    void current_whenNoGroupedIndexReplacesAnother_isTheDeclaredDefinitions_andReadsNothing() {
        // given
        GridLayoutStore store = store(NO_GRID, true);

        // when
        IndexDefinitions current = store.current();

        // then
        assertThat(store.applies()).isFalse();
        assertThat(current).isSameAs(NO_GRID);
        assertThat(table.gets + table.puts + table.scans).isZero();
    }

    @Test
    void current_whenANewStack_isGrouped_andRecordsIt() {
        // given: index items of other indexes only, over several pages
        groupedItems(5);
        GridLayoutStore store = store(GRID, true);

        // when
        IndexDefinitions current = store.current();

        // then
        assertThat(store.applies()).isTrue();
        assertThat(current.gridState()).isEqualTo(GridState.GROUPED);
        assertThat(table.scans).isEqualTo(3);
        Map<String, AttributeValue> control = table.get("issue-grid", GridLayoutStore.SORT_KEY);
        assertThat(control).containsEntry("state", AttributeValue.fromS("grouped"))
                .containsEntry("backfilled", AttributeValue.fromBool(false))
                .containsEntry("oldItemsRemoved", AttributeValue.fromBool(false))
                .containsEntry(GridLayoutStore.CONTROL, AttributeValue.fromS("grid-layout"))
                .containsKey("updatedAt");
        assertThat(GridLayoutStore.isControl(control)).isTrue();
    }

    @Test
    void current_whenTheIndexTableHasAFieldPartitionedItemOnItsLastPage_isFieldPartitioned() {
        // given
        groupedItems(5);
        fieldPartitionedItem();

        // when
        IndexDefinitions current = store(GRID, true).current();

        // then
        assertThat(current.gridState()).isEqualTo(GridState.FIELD_PARTITIONED);
        assertThat(table.get("issue-grid", GridLayoutStore.SORT_KEY)).containsEntry("state", AttributeValue.fromS("field-partitioned"));
    }

    @Test
    void current_whenTheStoreDoesNotRecord_findsTheStateOut_andWritesNothing() {
        // given
        fieldPartitionedItem();

        // when
        IndexDefinitions current = store(GRID, false).current();

        // then
        assertThat(current.gridState()).isEqualTo(GridState.FIELD_PARTITIONED);
        assertThat(table.puts).isZero();
        assertThat(table.get("issue-grid", GridLayoutStore.SORT_KEY)).isNull();
    }

    @Test
    void current_whenAnotherFunctionRecordsAStateMeanwhile_takesThatState() {
        // given: a new stack, but another function records 'migrating' between this one's read and its write
        table.beforeNextPut = () -> record("migrating", false, false);

        // when
        IndexDefinitions current = store(GRID, true).current();

        // then
        assertThat(current.gridState()).isEqualTo(GridState.MIGRATING);
        assertThat(table.get("issue-grid", GridLayoutStore.SORT_KEY)).containsEntry("state", AttributeValue.fromS("migrating"));
    }

    @Test
    void current_keepsTheStateItReadForTheCacheTime_andReadsItAgainAfter() {
        // given
        record("switched", true, false);
        GridLayoutStore store = store(GRID, true);
        assertThat(store.current().gridState()).isEqualTo(GridState.SWITCHED);
        record("grouped", true, false);

        // when: just before the cache time, then at it
        nanos.addAndGet(CACHE.toNanos() - 1);
        GridState cached = store.current().gridState();
        nanos.addAndGet(1);
        GridState reread = store.current().gridState();

        // then
        assertThat(cached).isEqualTo(GridState.SWITCHED);
        assertThat(reread).isEqualTo(GridState.GROUPED);
        assertThat(table.gets).isEqualTo(2);
        assertThat(table.scans).isZero();
    }

    @Test
    void read_whenRecorded_isTheStateAndItsFlags_aMissingFlagFalse() {
        // given
        record("switched", true, null);

        // when
        var control = store(GRID, false).read();

        // then
        assertThat(control).contains(new GridLayoutStore.Control(GridState.SWITCHED, true, false));
    }

    @Test
    void read_whenNeverRecorded_isEmpty() {
        assertThat(store(GRID, true).read()).isEmpty();
        assertThat(table.puts).isZero();
    }

    @Test
    void read_whenTheDefinitionsHaveNoGroupedGrid_refuses() {
        assertThatThrownBy(() -> store(NO_GRID, true).read()).isInstanceOf(IllegalStateException.class)
                .hasMessage("the definitions declare no grouped index that replaces the field-partitioned one");
    }

    @Test
    void control_whenNeverRecorded_isTheStateFoundOut_andRecordsIt() {
        // when
        GridLayoutStore.Control control = store(GRID, true).control();

        // then
        assertThat(control).isEqualTo(new GridLayoutStore.Control(GridState.GROUPED, false, false));
        assertThat(table.get("issue-grid", GridLayoutStore.SORT_KEY)).containsEntry("state", AttributeValue.fromS("grouped"));
    }

    @Test
    void control_whenRecorded_isTheRecord() {
        // given
        record("migrating", true, true);

        // then
        assertThat(store(GRID, true).control()).isEqualTo(new GridLayoutStore.Control(GridState.MIGRATING, true, true));
        assertThat(table.scans).isZero();
    }

    @Test
    void transition_whenTheRecordIsStillFrom_movesIt_andTheNextCurrentReadsIt() {
        // given
        record("switched", true, false);
        GridLayoutStore store = store(GRID, true);
        assertThat(store.current().gridState()).isEqualTo(GridState.SWITCHED);

        // when
        boolean moved = store.transition(new GridLayoutStore.Control(GridState.SWITCHED, true, false),
                new GridLayoutStore.Control(GridState.GROUPED, true, true));

        // then: within the cache time, the store reads the state it wrote
        assertThat(moved).isTrue();
        assertThat(store.read()).contains(new GridLayoutStore.Control(GridState.GROUPED, true, true));
        assertThat(store.current().gridState()).isEqualTo(GridState.GROUPED);
    }

    @Test
    void transition_whenTheRecordMovedMeanwhile_leavesIt_andSaysSo() {
        // given: recorded backfilled already, the caller thinks it is not
        record("migrating", true, false);
        GridLayoutStore store = store(GRID, true);

        // when
        boolean moved = store.transition(new GridLayoutStore.Control(GridState.MIGRATING, false, false),
                new GridLayoutStore.Control(GridState.SWITCHED, true, false));

        // then
        assertThat(moved).isFalse();
        assertThat(store.read()).contains(new GridLayoutStore.Control(GridState.MIGRATING, true, false));
    }

    @Test
    void fromEnvironment_whenNoCacheIsConfigured_keepsTheStateItRead() {
        // given
        record("grouped", false, false);

        // when
        GridLayoutStore unset = GridLayoutStore.fromEnvironment(table, "index-table", GRID, true, Map.of());
        GridLayoutStore blank = GridLayoutStore.fromEnvironment(table, "index-table", GRID, true, Map.of(GridLayoutStore.CACHE_SECONDS, " "));
        unset.current();
        unset.current();
        blank.current();
        blank.current();

        // then
        assertThat(table.gets).isEqualTo(2);
    }

    @Test
    void fromEnvironment_whenTheCacheIsZero_readsTheStateEveryTime() {
        // given
        record("grouped", false, false);
        GridLayoutStore store = GridLayoutStore.fromEnvironment(table, "index-table", GRID, true, Map.of(GridLayoutStore.CACHE_SECONDS, " 0 "));

        // when
        IndexDefinitions current = store.current();
        store.current();

        // then
        assertThat(current.gridState()).isEqualTo(GridState.GROUPED);
        assertThat(table.gets).isEqualTo(2);
    }

    @Test
    void isControl_whenAnIndexItem_isFalse() {
        assertThat(GridLayoutStore.isControl(Map.of(IndexKey.ATTRIB_ID, AttributeValue.fromS("issue-grid|p1"),
                IndexItem.INDEX, AttributeValue.fromS("issue-grid")))).isFalse();
    }
}
