package com.multikey.dynamodb.table;

import com.multikey.dynamodb.value.Value;
import com.multikey.dynamodb.value.Values;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The entries of a table or an index: a sorted map of partitions, each a sorted map from an entry's position
 * (see {@link KeyOrder}) to the item. Not thread-safe: its table's lock guards it.
 */
public final class SortedStore {

    private final NavigableMap<Value, NavigableMap<List<Value>, Map<String, Value>>> partitions = new TreeMap<>(KeyOrder.VALUES);
    private long itemCount;
    private long sizeBytes;

    Map<String, Value> get(Value partition, List<Value> position) {
        NavigableMap<List<Value>, Map<String, Value>> entries = partitions.get(partition);
        return entries == null ? null : entries.get(position);
    }

    Map<String, Value> put(Value partition, List<Value> position, Map<String, Value> item) {
        Map<String, Value> previous = partitions.computeIfAbsent(partition, p -> new TreeMap<>(KeyOrder.POSITIONS)).put(position, item);
        account(previous, -1);
        account(item, 1);
        return previous;
    }

    Map<String, Value> remove(Value partition, List<Value> position) {
        NavigableMap<List<Value>, Map<String, Value>> entries = partitions.get(partition);
        if (entries == null) {
            return null;
        }
        Map<String, Value> previous = entries.remove(position);
        if (entries.isEmpty()) {
            partitions.remove(partition);
        }
        account(previous, -1);
        return previous;
    }

    private void account(Map<String, Value> item, int sign) {
        if (item != null) {
            itemCount += sign;
            sizeBytes += sign * Values.itemSize(item);
        }
    }

    /**
     * One partition's entries in position order; empty when it holds none (an empty map of the positions' order, so that a
     * key condition's range of it is taken as of any other partition).
     */
    public NavigableMap<List<Value>, Map<String, Value>> partition(Value partition) {
        NavigableMap<List<Value>, Map<String, Value>> entries = partitions.get(partition);
        return Collections.unmodifiableNavigableMap(entries == null ? new TreeMap<>(KeyOrder.POSITIONS) : entries);
    }

    /** Every partition in key order (a Scan's order). */
    public NavigableMap<Value, NavigableMap<List<Value>, Map<String, Value>>> partitions() {
        return Collections.unmodifiableNavigableMap(partitions);
    }

    public long itemCount() {
        return itemCount;
    }

    public long sizeBytes() {
        return sizeBytes;
    }
}
