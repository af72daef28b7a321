package com.multikey.dynamodb.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.dynamodb.table.SecondaryIndex;
import com.multikey.dynamodb.table.Table;
import com.multikey.dynamodb.value.Value;
import com.multikey.dynamodb.value.Values;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The capacity units an operation consumed, returned when the request's ReturnConsumedCapacity is TOTAL (the total
 * per table) or INDEXES (also the table's own share and each index's), as AWS "Read/write capacity mode"
 * documents them: a read takes one unit per 4 KB of what it reads (rounded up; a Query or Scan rounds the sum of the
 * items it read, a GetItem or a batch each item), half of that when eventually consistent; a write one unit per 1 KB
 * of the larger of the item before and after (rounded up); never less than one unit (half for an eventually
 * consistent read); a transaction twice as much. A write also writes the indexes it changes: an entry put or removed
 * costs its projected size, an entry moved to another index key both.
 */
final class ConsumedCapacity {

    /** ReturnConsumedCapacity's values, in the order of DynamoDB's enum constraint message. */
    enum Mode { INDEXES, TOTAL, NONE }

    private static final long READ_UNIT_BYTES = 4 * 1024;
    private static final long WRITE_UNIT_BYTES = 1024;

    private final Mode mode;
    private final Map<String, Usage> tables = new LinkedHashMap<>();

    /** What one table's share and its indexes' shares came to. */
    private static final class Usage {
        double table;
        final Map<String, Double> global = new TreeMap<>();
        final Map<String, Double> local = new TreeMap<>();

        double total() {
            return table + global.values().stream().mapToDouble(Double::doubleValue).sum()
                    + local.values().stream().mapToDouble(Double::doubleValue).sum();
        }
    }

    ConsumedCapacity(Mode mode) {
        this.mode = mode;
    }

    static ConsumedCapacity of(Request request) {
        return new ConsumedCapacity(request.enumeration("ReturnConsumedCapacity", Mode.class).orElse(Mode.NONE));
    }

    boolean wanted() {
        return mode != Mode.NONE;
    }

    static double readUnits(long bytes, boolean consistent) {
        long units = Math.max(1, ceilDiv(bytes, READ_UNIT_BYTES));
        return consistent ? units : units / 2.0;
    }

    static double writeUnits(long bytes) {
        return Math.max(1, ceilDiv(bytes, WRITE_UNIT_BYTES));
    }

    private static long ceilDiv(long bytes, long unit) {
        return (bytes + unit - 1) / unit;
    }

    private Usage usage(Table table) {
        return tables.computeIfAbsent(table.name(), name -> new Usage());
    }

    /** Units read from the table itself (not through an index). */
    void readTable(Table table, double units) {
        usage(table).table += units;
    }

    /** Units read from an index. */
    void readIndex(Table table, SecondaryIndex index, double units) {
        Usage usage = usage(table);
        (index.definition().global() ? usage.global : usage.local).merge(index.definition().name(), units, Double::sum);
    }

    /**
     * A write that turned {@code before} into {@code after} (either null: no item), {@code times} over (2 in a
     * transaction): the table's units and those of each index whose entry it put, changed or removed.
     */
    void write(Table table, Map<String, Value> before, Map<String, Value> after, int times) {
        Usage usage = usage(table);
        long size = Math.max(before == null ? 0 : Values.itemSize(before), after == null ? 0 : Values.itemSize(after));
        usage.table += writeUnits(size) * times;
        for (SecondaryIndex index : table.indexes()) {
            Map<String, Value> old = entry(index, before);
            Map<String, Value> now = entry(index, after);
            double units;
            if (old != null && now != null && index.keySchema().keyOf(old).equals(index.keySchema().keyOf(now))) {
                units = Objects.equals(old, now) ? 0 : writeUnits(Math.max(Values.itemSize(old), Values.itemSize(now)));
            } else {
                units = (old == null ? 0 : writeUnits(Values.itemSize(old))) + (now == null ? 0 : writeUnits(Values.itemSize(now)));
            }
            if (units > 0) {
                (index.definition().global() ? usage.global : usage.local).merge(index.definition().name(), units * times, Double::sum);
            }
        }
    }

    /** An item's entry in an index (its projection), or null when the item is not in it. */
    private static Map<String, Value> entry(SecondaryIndex index, Map<String, Value> item) {
        if (item == null || !index.keySchema().covers(item)) {
            return null;
        }
        return index.definition().projection().project(item, index.keyAttributes());
    }

    /** Sets {@code ConsumedCapacity} on a single-table response (when asked for). */
    void writeTo(ObjectNode response, Table table) {
        if (wanted()) {
            usage(table);
            response.set("ConsumedCapacity", json(table.name(), tables.get(table.name())));
        }
    }

    /** Sets {@code ConsumedCapacity} on a batch or transaction response: one element per table (when asked for). */
    void writeListTo(ObjectNode response) {
        if (wanted()) {
            ArrayNode list = response.putArray("ConsumedCapacity");
            tables.forEach((name, usage) -> list.add(json(name, usage)));
        }
    }

    private ObjectNode json(String tableName, Usage usage) {
        ObjectNode json = Json.object();
        json.put("TableName", tableName);
        json.put("CapacityUnits", number(usage.total()));
        if (mode == Mode.INDEXES) {
            json.putObject("Table").put("CapacityUnits", number(usage.table));
            if (!usage.global.isEmpty()) {
                ObjectNode indexes = json.putObject("GlobalSecondaryIndexes");
                usage.global.forEach((name, units) -> indexes.putObject(name).put("CapacityUnits", number(units)));
            }
            if (!usage.local.isEmpty()) {
                ObjectNode indexes = json.putObject("LocalSecondaryIndexes");
                usage.local.forEach((name, units) -> indexes.putObject(name).put("CapacityUnits", number(units)));
            }
        }
        return json;
    }

    /** Units are whole or halves: 1 and 0.5, never 1.0. */
    private static BigDecimal number(double units) {
        BigDecimal value = BigDecimal.valueOf(units).stripTrailingZeros();
        return value.scale() < 0 ? value.setScale(0) : value;
    }
}
