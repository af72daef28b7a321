package com.multikey.reindex;

import com.multikey.index.DynamoDbLimits;
import com.multikey.index.IndexChange;
import com.multikey.index.ItemKey;
import com.multikey.index.counts.CountLayout;
import com.multikey.index.counts.CountedWrites;
import com.multikey.index.counts.CounterRef;
import com.multikey.index.definition.KeySchema;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Writes the index changes of one source item only while the item is still the version they were derived from:
 * each TransactWriteItems call carries a condition check on the item by its full key (every key attribute present and
 * every attribute the indexes in scope derive their items from unchanged; or, for an item read as absent, every key
 * attribute still absent) and up to 99 index writes, within a transaction's 4 MB. So a
 * backfill or a repair that read an item before the stream indexer handled a later change of it can never write
 * the older version's index items after the newer ones: it finds the item changed, and reads it again.
 */
public final class ConditionalIndexWriter {

    /** What became of the writes. */
    public enum Outcome { WRITTEN, ITEM_CHANGED }

    static final int MAX_WRITES_PER_TRANSACTION = 99;
    /** A transaction's 4 MB of items, less room for what the request carries besides them. */
    static final long MAX_TRANSACTION_BYTES = 4L * 1024 * 1024 - 64 * 1024;

    private final DynamoDbClient dynamoDb;
    private final String appTable;
    private final String indexTable;
    private final IndexScope scope;
    private final CountLayout counts;

    public ConditionalIndexWriter(DynamoDbClient dynamoDb, String appTable, String indexTable, IndexScope scope) {
        this.dynamoDb = dynamoDb;
        this.appTable = appTable;
        this.indexTable = indexTable;
        this.scope = scope;
        this.counts = new CountLayout(scope.definitions());
    }

    /** Assumptions of one counted transaction corrected before it gives up (another writer racing it on every call). */
    static final int MAX_CORRECTIONS = 10;

    /**
     * The item as it is now, read consistently: the version {@link #write} conditions on. Null when the
     * item does not exist.
     */
    public Map<String, AttributeValue> currentVersion(ItemKey key) {
        Map<String, AttributeValue> item = dynamoDb.getItem(b -> b.tableName(appTable).consistentRead(true)
                .key(key.toKey())).item();
        return item == null || item.isEmpty() ? null : item;
    }

    /**
     * @param key     the source item's key
     * @param version the item as read (consistently), or null when it was absent
     */
    public Outcome write(ItemKey key, Map<String, AttributeValue> version, List<IndexChange> changes) {
        ConditionCheck check = condition(key, version);
        List<IndexChange> plain = new ArrayList<>();
        List<CountedWrites.Counted> counted = new ArrayList<>();
        for (IndexChange change : changes) {
            Optional<CounterRef> counter = switch (change) {
                case IndexChange.Put put -> counts.counterOf(put.item());
                case IndexChange.Delete delete -> counts.counterOf(delete.key(), key);
            };
            if (counter.isPresent()) {
                // a put is first assumed new; a put over an existing item is corrected by its failed condition
                counted.add(CountedWrites.of(change, counter.get(), false));
            } else {
                plain.add(change);
            }
        }
        for (List<CountedWrites.Counted> call : CountedWrites.transactions(counted, CountedWrites.MAX_ITEMS, checkBytes(check))) {
            if (writeCounted(check, call) == Outcome.ITEM_CHANGED) {
                return Outcome.ITEM_CHANGED;
            }
        }
        for (List<IndexChange> chunk : transactions(plain, checkBytes(check))) {
            List<TransactWriteItem> items = new ArrayList<>();
            items.add(TransactWriteItem.builder().conditionCheck(check).build());
            for (IndexChange change : chunk) {
                items.add(switch (change) {
                    case IndexChange.Put put -> TransactWriteItem.builder()
                            .put(Put.builder().tableName(indexTable).item(put.item().toItem()).build()).build();
                    case IndexChange.Delete delete -> TransactWriteItem.builder()
                            .delete(Delete.builder().tableName(indexTable).key(delete.key().toKey()).build()).build();
                });
            }
            try {
                dynamoDb.transactWriteItems(b -> b.transactItems(items));
            } catch (TransactionCanceledException e) {
                if (conditionFailed(e)) {
                    return Outcome.ITEM_CHANGED;
                }
                throw e;
            }
        }
        return Outcome.WRITTEN;
    }

    /**
     * One transaction of counted writes behind the item's condition check (see {@link CountedWrites}): a write whose
     * assumption of its key's existence was wrong is flipped and the call sent again.
     */
    private Outcome writeCounted(ConditionCheck check, List<CountedWrites.Counted> call) {
        List<CountedWrites.Counted> pending = new ArrayList<>(call);
        for (int attempt = 0; ; attempt++) {
            pending.removeIf(write -> !write.writes());
            if (pending.isEmpty()) {
                return Outcome.WRITTEN;
            }
            List<TransactWriteItem> items = new ArrayList<>();
            items.add(TransactWriteItem.builder().conditionCheck(check).build());
            items.addAll(CountedWrites.items(indexTable, pending));
            try {
                dynamoDb.transactWriteItems(b -> b.transactItems(items));
                return Outcome.WRITTEN;
            } catch (TransactionCanceledException e) {
                if (e.hasCancellationReasons() && !e.cancellationReasons().isEmpty()
                        && "ConditionalCheckFailed".equals(e.cancellationReasons().get(0).code())) {
                    return Outcome.ITEM_CHANGED;
                }
                List<Integer> wrong = CountedWrites.failedAssumptions(e, 1, pending.size());
                if (wrong.isEmpty() || attempt >= MAX_CORRECTIONS) {
                    throw e;
                }
                for (int i : wrong) {
                    pending.set(i, pending.get(i).flipped());
                }
            }
        }
    }

    /**
     * The changes in calls of at most {@value #MAX_WRITES_PER_TRANSACTION} writes whose items, with the check, stay
     * within a transaction's 4 MB (index items that each carry a copy of a large projected attribute pass it long
     * before the count does).
     */
    static List<List<IndexChange>> transactions(List<IndexChange> changes, long checkBytes) {
        List<List<IndexChange>> calls = new ArrayList<>();
        List<IndexChange> call = new ArrayList<>();
        long bytes = checkBytes;
        for (IndexChange change : changes) {
            long size = switch (change) {
                case IndexChange.Put put -> DynamoDbLimits.itemBytes(put.item().toItem());
                case IndexChange.Delete delete -> DynamoDbLimits.itemBytes(delete.key().toKey());
            };
            if (!call.isEmpty() && (call.size() == MAX_WRITES_PER_TRANSACTION || bytes + size > MAX_TRANSACTION_BYTES)) {
                calls.add(call);
                call = new ArrayList<>();
                bytes = checkBytes;
            }
            call.add(change);
            bytes += size;
        }
        if (!call.isEmpty()) {
            calls.add(call);
        }
        return calls;
    }

    /** What the condition check adds to each transaction: its key and the values it compares. */
    private static long checkBytes(ConditionCheck check) {
        return DynamoDbLimits.itemBytes(check.key())
                + (check.hasExpressionAttributeValues() ? DynamoDbLimits.itemBytes(check.expressionAttributeValues()) : 0);
    }

    /**
     * The check that the item is still the version read: every key attribute present (or, for an item read as absent,
     * every one absent) and every attribute the scope's indexes derive from as read.
     */
    ConditionCheck condition(ItemKey itemKey, Map<String, AttributeValue> version) {
        Map<String, AttributeValue> key = itemKey.toKey();
        Map<String, String> names = new HashMap<>();
        List<String> terms = new ArrayList<>();
        int k = 0;
        for (KeySchema.KeyAttribute attribute : scope.table().attributes()) {
            names.put("#k" + k, attribute.name());
            terms.add((version == null ? "attribute_not_exists(#k" : "attribute_exists(#k") + k + ")");
            k++;
        }
        if (version == null) {
            return ConditionCheck.builder().tableName(appTable).key(key).conditionExpression(String.join(" AND ", terms))
                    .expressionAttributeNames(names).build();
        }
        Map<String, AttributeValue> values = new HashMap<>();
        int n = 0;
        for (String attribute : scope.dependsOn()) {
            String name = "#a" + n;
            names.put(name, attribute);
            AttributeValue value = version.get(attribute);
            if (value == null) {
                terms.add("attribute_not_exists(" + name + ")");
            } else {
                terms.add(name + " = :v" + n);
                values.put(":v" + n, value);
            }
            n++;
        }
        ConditionCheck.Builder check = ConditionCheck.builder().tableName(appTable).key(key)
                .conditionExpression(String.join(" AND ", terms)).expressionAttributeNames(names);
        if (!values.isEmpty()) {
            check.expressionAttributeValues(values);
        }
        return check.build();
    }

    private static boolean conditionFailed(TransactionCanceledException e) {
        if (!e.hasCancellationReasons()) {
            return false;
        }
        for (CancellationReason reason : e.cancellationReasons()) {
            if ("ConditionalCheckFailed".equals(reason.code())) {
                return true;
            }
        }
        return false;
    }
}
