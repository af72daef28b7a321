package com.multikey.index;

import com.multikey.index.definition.GridState;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * A stack's {@link GridState}, kept in one control item of the index table and read by every function with a short
 * cache (see {@code docs/decisions/0019-grid-layout-migration.md}).
 *
 * <p>The control item's key is the grouped grid's bare name as {@code attribId} (its own items' partitions always go on
 * with {@code |} and a project; the field-partitioned layout leaves out a field id that reads as a grouped index's
 * partition) and {@value #SORT_KEY} as {@code sortKey}; it carries {@value #CONTROL} so verify and removal pass it by.
 *
 * <p>A stack without the item has never recorded a state: a new stack (no field-partitioned item in its index table)
 * is {@link GridState#GROUPED}, a stack that had the grid before is {@link GridState#FIELD_PARTITIONED}. The first
 * function that finds out records it, so the question is asked once per stack.
 */
public final class GridLayoutStore {

    public static final String SORT_KEY = "#grid-layout";
    /** Marks the control item: not an index item of any index. */
    public static final String CONTROL = "control";
    static final String STATE = "state";
    static final String BACKFILLED = "backfilled";
    static final String OLD_ITEMS_REMOVED = "oldItemsRemoved";
    static final String UPDATED_AT = "updatedAt";
    /** How long a function uses a state it read before it reads it again, unless configured. */
    public static final Duration DEFAULT_CACHE = Duration.ofSeconds(10);
    /** Environment variable: seconds a function keeps the state it read (0: read it for every batch or page). */
    public static final String CACHE_SECONDS = "GRID_LAYOUT_CACHE_SECONDS";

    /** The recorded control item. */
    public record Control(GridState state, boolean backfilled, boolean oldItemsRemoved) {
    }

    private final DynamoDbClient dynamoDb;
    private final String indexTable;
    private final IndexDefinitions definitions;
    private final boolean records;
    private final Duration cache;
    private final LongSupplier nanoClock;
    private GridState cached;
    private long readAt;

    /**
     * @param records   whether a state found out (no control item yet) is recorded: the writers do; readers need not
     * @param cache     how long a state read is used
     * @param nanoClock monotonic clock of the cache
     */
    public GridLayoutStore(DynamoDbClient dynamoDb, String indexTable, IndexDefinitions definitions, boolean records,
                           Duration cache, LongSupplier nanoClock) {
        this.dynamoDb = dynamoDb;
        this.indexTable = indexTable;
        this.definitions = definitions;
        this.records = records;
        this.cache = cache;
        this.nanoClock = nanoClock;
    }

    /** From a function's environment ({@value #CACHE_SECONDS}). */
    public static GridLayoutStore fromEnvironment(DynamoDbClient dynamoDb, String indexTable, IndexDefinitions definitions,
                                                  boolean records, Map<String, String> env) {
        String seconds = env.get(CACHE_SECONDS);
        Duration cache = seconds == null || seconds.isBlank() ? DEFAULT_CACHE : Duration.ofSeconds(Long.parseLong(seconds.trim()));
        return new GridLayoutStore(dynamoDb, indexTable, definitions, records, cache, System::nanoTime);
    }

    /** Whether the definitions have a grid that can move (a grouped index replacing the field-partitioned one). */
    public boolean applies() {
        return definitions.groupedGrid().isPresent();
    }

    /** The definitions in the stack's current grid state (as declared when no grouped grid replaces another). */
    public IndexDefinitions current() {
        return current(null);
    }

    /**
     * As {@link #current()}, each call to DynamoDB it makes configured by {@code callTimeout} (a reader's page budget's
     * call timeout; null: the client's own).
     */
    public synchronized IndexDefinitions current(AwsRequestOverrideConfiguration callTimeout) {
        if (!applies()) {
            return definitions;
        }
        long now = nanoClock.getAsLong();
        if (cached == null || now - readAt >= cache.toNanos()) {
            cached = read(callTimeout).map(Control::state).orElseGet(() -> settle(callTimeout));
            readAt = now;
        }
        return definitions.withGridState(cached);
    }

    /** The control item, read strongly consistent; empty when the stack never recorded one. */
    public Optional<Control> read() {
        return read(null);
    }

    private Optional<Control> read(AwsRequestOverrideConfiguration callTimeout) {
        GetItemResponse response = dynamoDb.getItem(b -> b.tableName(indexTable).key(key()).consistentRead(true)
                .overrideConfiguration(callTimeout));
        if (!response.hasItem() || response.item().isEmpty()) {
            return Optional.empty();
        }
        Map<String, AttributeValue> item = response.item();
        return Optional.of(new Control(GridState.ofLabel(item.get(STATE).s()), flag(item, BACKFILLED), flag(item, OLD_ITEMS_REMOVED)));
    }

    /** The recorded control item, or the state found out (recorded when this store records). */
    public Control control() {
        return read().orElseGet(() -> new Control(settle(null), false, false));
    }

    private static boolean flag(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value != null && Boolean.TRUE.equals(value.bool());
    }

    /**
     * The state of a stack that never recorded one: field-partitioned when its index table holds an item of that
     * layout (it had the grid before), else grouped (a new stack). Recorded when this store records; a record made
     * meanwhile by another function wins.
     */
    private GridState settle(AwsRequestOverrideConfiguration callTimeout) {
        GridState found = hasFieldPartitionedItems(callTimeout) ? GridState.FIELD_PARTITIONED : GridState.GROUPED;
        if (!records) {
            return found;
        }
        try {
            dynamoDb.putItem(b -> b.tableName(indexTable).item(item(new Control(found, false, false)))
                    .conditionExpression("attribute_not_exists(#a)").expressionAttributeNames(Map.of("#a", IndexKey.ATTRIB_ID))
                    .overrideConfiguration(callTimeout));
            return found;
        } catch (ConditionalCheckFailedException recordedMeanwhile) {
            return read(callTimeout).map(Control::state).orElse(found);
        }
    }

    /** A scan for one item of the field-partitioned layout (it names an issue and no index), stopping at the first. */
    private boolean hasFieldPartitionedItems(AwsRequestOverrideConfiguration callTimeout) {
        Map<String, AttributeValue> start = null;
        do {
            ScanRequest.Builder scan = ScanRequest.builder().tableName(indexTable).limit(1000)
                    .filterExpression("attribute_exists(#i) AND attribute_not_exists(#x)")
                    .expressionAttributeNames(Map.of("#i", IndexItem.ITEM_ID, "#x", IndexItem.INDEX))
                    .projectionExpression("#i").overrideConfiguration(callTimeout);
            if (start != null) {
                scan.exclusiveStartKey(start);
            }
            ScanResponse page = dynamoDb.scan(scan.build());
            if (page.count() > 0) {
                return true;
            }
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return false;
    }

    /**
     * Moves the recorded state from {@code from} to {@code to} (and its flags), unless it is no longer {@code from}.
     *
     * @return whether it moved
     */
    public boolean transition(Control from, Control to) {
        try {
            dynamoDb.putItem(b -> b.tableName(indexTable).item(item(to))
                    .conditionExpression("#s = :from AND #b = :b AND #r = :r")
                    .expressionAttributeNames(Map.of("#s", STATE, "#b", BACKFILLED, "#r", OLD_ITEMS_REMOVED))
                    .expressionAttributeValues(Map.of(":from", AttributeValue.fromS(from.state().label()),
                            ":b", AttributeValue.fromBool(from.backfilled()), ":r", AttributeValue.fromBool(from.oldItemsRemoved()))));
            synchronized (this) {
                cached = null;
            }
            return true;
        } catch (ConditionalCheckFailedException moved) {
            return false;
        }
    }

    private Map<String, AttributeValue> key() {
        return Map.of(IndexKey.ATTRIB_ID, AttributeValue.fromS(gridName()), IndexKey.SORT_KEY, AttributeValue.fromS(SORT_KEY));
    }

    private String gridName() {
        return definitions.groupedGrid().map(IndexDefinition::name).orElseThrow(() -> new IllegalStateException(
                "the definitions declare no grouped index that replaces the field-partitioned one"));
    }

    private Map<String, AttributeValue> item(Control control) {
        Map<String, AttributeValue> item = new HashMap<>(key());
        item.put(CONTROL, AttributeValue.fromS("grid-layout"));
        item.put(STATE, AttributeValue.fromS(control.state().label()));
        item.put(BACKFILLED, AttributeValue.fromBool(control.backfilled()));
        item.put(OLD_ITEMS_REMOVED, AttributeValue.fromBool(control.oldItemsRemoved()));
        item.put(UPDATED_AT, AttributeValue.fromS(Instant.now().toString()));
        return item;
    }

    /** Whether a stored item of the index table is a control item, not an index item. */
    public static boolean isControl(Map<String, AttributeValue> stored) {
        return stored.containsKey(CONTROL);
    }
}
