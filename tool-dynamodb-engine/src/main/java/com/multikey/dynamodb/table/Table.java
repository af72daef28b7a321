package com.multikey.dynamodb.table;

import com.multikey.dynamodb.stream.ChangeDestination;
import com.multikey.dynamodb.stream.StreamLog;
import com.multikey.dynamodb.stream.StreamRecord;
import com.multikey.dynamodb.value.Value;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One table: its items, its secondary indexes, its stream and its TTL setting. Every read and write of its
 * state happens under {@link #lock()}; a write keeps the indexes in step and appends one stream record when it
 * changes the item (and none when it does not, as on AWS).
 */
public final class Table {

    private final String name;
    private final String arn;
    private final String id;
    private final Instant created;
    private final KeySchema keySchema;
    private final ReentrantLock lock = new ReentrantLock();
    private final SortedStore items = new SortedStore();
    private final Map<String, String> attributeTypes = new LinkedHashMap<>();
    private final Map<String, SecondaryIndex> indexes = new LinkedHashMap<>();
    private Throughput throughput;
    private StreamLog stream;
    private TimeToLive timeToLive = TimeToLive.DISABLED;
    private final List<ChangeDestination> destinations = new ArrayList<>();
    private final Map<String, String> tags = new LinkedHashMap<>();

    public Table(TableDefinition definition, String arn, String id, Instant created) {
        this.name = definition.name();
        this.arn = arn;
        this.id = id;
        this.created = created;
        this.keySchema = definition.keySchema();
        this.throughput = definition.throughput();
        this.attributeTypes.putAll(definition.attributeTypes());
        definition.indexes().forEach(this::addIndex);
    }

    /** The table's tags, key to value, in the order they were first given (read and written under the table's lock). */
    public Map<String, String> tags() {
        return tags;
    }

    public ReentrantLock lock() {
        return lock;
    }

    public String name() {
        return name;
    }

    public String arn() {
        return arn;
    }

    public String id() {
        return id;
    }

    public Instant created() {
        return created;
    }

    public KeySchema keySchema() {
        return keySchema;
    }

    public Map<String, String> attributeTypes() {
        return Collections.unmodifiableMap(attributeTypes);
    }

    public void defineAttribute(String attribute, String type) {
        attributeTypes.put(attribute, type);
    }

    /** Null for an on-demand table. */
    public Throughput throughput() {
        return throughput;
    }

    public void throughput(Throughput throughput) {
        this.throughput = throughput;
    }

    public SortedStore items() {
        return items;
    }

    public List<SecondaryIndex> indexes() {
        return List.copyOf(indexes.values());
    }

    public Optional<SecondaryIndex> index(String indexName) {
        return Optional.ofNullable(indexes.get(indexName));
    }

    /** Adds an index and fills it from the items already in the table (the backfill of a new GSI). */
    public void addIndex(IndexDefinition definition) {
        SecondaryIndex index = new SecondaryIndex(definition, keySchema);
        items.partitions().values().forEach(partition -> partition.values().forEach(item -> index.update(null, item)));
        indexes.put(definition.name(), index);
    }

    public void removeIndex(String indexName) {
        indexes.remove(indexName);
    }

    /** The stream that is enabled now or was the latest (DescribeTable's LatestStreamArn); null if none ever. */
    public StreamLog stream() {
        return stream;
    }

    public void stream(StreamLog stream) {
        this.stream = stream;
    }

    /** The table's Kinesis streaming destinations, active or not, oldest first (the caller holds the lock). */
    public List<ChangeDestination> destinations() {
        return destinations;
    }

    public TimeToLive timeToLive() {
        return timeToLive;
    }

    public void timeToLive(TimeToLive timeToLive) {
        this.timeToLive = timeToLive;
    }

    public Value partitionOf(Map<String, Value> item) {
        return item.get(keySchema.partition().name());
    }

    public List<Value> positionOf(Map<String, Value> item) {
        return keySchema.sort().map(s -> List.of(item.get(s.name()))).orElse(List.of());
    }

    /** The item with this key (key attributes checked before), or null. */
    public Map<String, Value> get(Map<String, Value> key) {
        return items.get(partitionOf(key), positionOf(key));
    }

    /** Stores the item (validated before) in place of the one with its key; returns that one or null. */
    public Map<String, Value> put(Map<String, Value> item, Instant now) {
        // an immutable copy: compact, and safe to share with the indexes and the stream records
        Map<String, Value> stored = Map.copyOf(item);
        Map<String, Value> old = items.put(partitionOf(stored), positionOf(stored), stored);
        changed(old, stored, false, now);
        return old;
    }

    /** Deletes the item with this key; returns it, or null when there was none (and then records nothing). */
    public Map<String, Value> delete(Map<String, Value> key, Instant now, boolean byTimeToLive) {
        Map<String, Value> old = items.remove(partitionOf(key), positionOf(key));
        if (old != null) {
            changed(old, null, byTimeToLive, now);
        }
        return old;
    }

    private void changed(Map<String, Value> old, Map<String, Value> current, boolean byTimeToLive, Instant now) {
        if (old != null && old.equals(current)) {
            // AWS neither re-indexes nor streams a write that leaves the item as it was
            return;
        }
        indexes.values().forEach(index -> index.update(old, current));
        if (stream != null && stream.enabled()) {
            Map<String, Value> keys = keySchema.keyOf(current != null ? current : old);
            StreamRecord.EventName event = old == null ? StreamRecord.EventName.INSERT
                    : current == null ? StreamRecord.EventName.REMOVE : StreamRecord.EventName.MODIFY;
            stream.append(event, keys, old, current, byTimeToLive, now);
        }
        if (!destinations.isEmpty()) {
            Map<String, Value> keys = keySchema.keyOf(current != null ? current : old);
            StreamRecord.EventName event = old == null ? StreamRecord.EventName.INSERT
                    : current == null ? StreamRecord.EventName.REMOVE : StreamRecord.EventName.MODIFY;
            for (ChangeDestination destination : destinations) {
                if (destination.active()) {
                    destination.changed(event, keys, old, current, byTimeToLive, now);
                }
            }
        }
    }

    /**
     * The keys of the items whose TTL attribute is a number of epoch seconds before {@code now}. As on AWS,
     * a value more than five years in the past is not an expiry time (it is likely milliseconds or a mistake).
     */
    public List<Map<String, Value>> expiredKeys(Instant now) {
        List<Map<String, Value>> keys = new ArrayList<>();
        if (!timeToLive.enabled()) {
            return keys;
        }
        BigDecimal nowSeconds = BigDecimal.valueOf(now.getEpochSecond());
        BigDecimal oldest = BigDecimal.valueOf(now.minusSeconds(5L * 366 * 24 * 3600).getEpochSecond());
        items.partitions().values().forEach(partition -> partition.values().forEach(item -> {
            if (item.get(timeToLive.attributeName()) instanceof Value.N(BigDecimal expiry)
                    && expiry.compareTo(nowSeconds) < 0 && expiry.compareTo(oldest) >= 0) {
                keys.add(keySchema.keyOf(item));
            }
        }));
        return keys;
    }
}
