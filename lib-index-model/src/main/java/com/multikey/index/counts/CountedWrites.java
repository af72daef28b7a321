package com.multikey.index.counts;

import com.multikey.index.DynamoDbLimits;
import com.multikey.index.IndexChange;
import com.multikey.index.IndexKey;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Index writes that keep the counts exact: each write of a counted index item is conditioned on whether its key
 * exists, and goes in one TransactWriteItems with an {@code ADD} of what it changes to its counter. A put assumed new
 * ({@code attribute_not_exists}) adds one; a delete assumed to find its item ({@code attribute_exists}) takes one away;
 * a put over an existing item ({@code attribute_exists}) changes no count. When an assumption is wrong (a replay finds
 * its put already there, its delete already done), DynamoDB cancels the transaction naming that write, the writer
 * {@link Counted#flipped() flips} the assumption and sends it again. So a counter changes only in the transaction that
 * makes an index item appear or disappear, whatever the history: a count equals the index items it counts.
 */
public final class CountedWrites {

    /** Items of a transaction (DynamoDB's limit is 100; one is left for a caller's condition check). */
    public static final int MAX_ITEMS = 99;
    /** A transaction's 4 MB, less room for the rest of the request. */
    public static final long MAX_BYTES = 4L * 1024 * 1024 - 64 * 1024;

    private CountedWrites() {
    }

    /**
     * One write of a counted index item and what it assumes of its key.
     *
     * @param change  the put or delete
     * @param counter the counter its item counts toward
     * @param exists  whether the key is assumed to hold an item before the write
     */
    public record Counted(IndexChange change, CounterRef counter, boolean exists) {
        public Counted {
            Objects.requireNonNull(change, "change");
            Objects.requireNonNull(counter, "counter");
        }

        public IndexKey key() {
            return change.key();
        }

        /** What it adds to its counter when its condition holds. */
        public int delta() {
            return switch (change) {
                case IndexChange.Put put -> exists ? 0 : 1;
                case IndexChange.Delete delete -> exists ? -1 : 0;
            };
        }

        /** Whether it writes anything: a delete of a key assumed empty has nothing to do. */
        public boolean writes() {
            return change instanceof IndexChange.Put || exists;
        }

        /** The same write with the other assumption. */
        public Counted flipped() {
            return new Counted(change, counter, !exists);
        }

        long bytes() {
            return switch (change) {
                case IndexChange.Put put -> DynamoDbLimits.itemBytes(put.item().toItem());
                case IndexChange.Delete delete -> DynamoDbLimits.itemBytes(delete.key().toKey());
            };
        }
    }

    /**
     * The writes in transactions of at most {@code maxItems} items (each write, and one counter update per counter it
     * touches) within {@link #MAX_BYTES}, ordered by counter so that each counter is in as few of them as possible.
     */
    public static List<List<Counted>> transactions(List<Counted> writes, int maxItems, long reservedBytes) {
        List<Counted> sorted = writes.stream().filter(Counted::writes)
                .sorted(Comparator.comparing((Counted c) -> c.counter().counter().attribId())
                        .thenComparing(c -> c.counter().counter().sortKey())).toList();
        List<List<Counted>> calls = new ArrayList<>();
        List<Counted> call = new ArrayList<>();
        long bytes = reservedBytes;
        IndexKey lastCounter = null;
        int items = 0;
        for (Counted write : sorted) {
            int added = 1 + (write.counter().counter().equals(lastCounter) ? 0 : 1);
            long size = write.bytes() + 256;
            if (!call.isEmpty() && (items + added > maxItems || bytes + size > MAX_BYTES)) {
                calls.add(call);
                call = new ArrayList<>();
                bytes = reservedBytes;
                items = 0;
                added = 2;
            }
            call.add(write);
            items += added;
            bytes += size;
            lastCounter = write.counter().counter();
        }
        if (!call.isEmpty()) {
            calls.add(call);
        }
        return calls;
    }

    /**
     * The transaction items of one call: the writes, in order, then one counter update per counter whose net change
     * is not zero.
     */
    public static List<TransactWriteItem> items(String indexTable, List<Counted> call) {
        List<TransactWriteItem> items = new ArrayList<>();
        Map<IndexKey, CounterRef> counters = new LinkedHashMap<>();
        Map<IndexKey, Long> net = new LinkedHashMap<>();
        for (Counted write : call) {
            String condition = write.exists() ? "attribute_exists(#k)" : "attribute_not_exists(#k)";
            Map<String, String> names = Map.of("#k", IndexKey.ATTRIB_ID);
            items.add(switch (write.change()) {
                case IndexChange.Put put -> TransactWriteItem.builder().put(Put.builder().tableName(indexTable)
                        .item(put.item().toItem()).conditionExpression(condition).expressionAttributeNames(names).build()).build();
                case IndexChange.Delete delete -> TransactWriteItem.builder().delete(Delete.builder().tableName(indexTable)
                        .key(delete.key().toKey()).conditionExpression(condition).expressionAttributeNames(names).build()).build();
            });
            IndexKey counter = write.counter().counter();
            counters.putIfAbsent(counter, write.counter());
            net.merge(counter, (long) write.delta(), Long::sum);
        }
        net.forEach((counter, delta) -> {
            if (delta != 0) {
                items.add(TransactWriteItem.builder().update(update(indexTable, counters.get(counter), delta)).build());
            }
        });
        return items;
    }

    /** {@code ADD count :delta}, and what the counter item says of itself if this is its first write. */
    static Update update(String indexTable, CounterRef ref, long delta) {
        Map<String, String> names = new LinkedHashMap<>();
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        names.put("#c", CountLayout.COUNT);
        values.put(":d", AttributeValue.fromN(Long.toString(delta)));
        List<String> sets = new ArrayList<>();
        int i = 0;
        for (Map.Entry<String, AttributeValue> attribute : CountLayout.counterAttributes(ref).entrySet()) {
            names.put("#a" + i, attribute.getKey());
            values.put(":a" + i, attribute.getValue());
            sets.add("#a" + i + " = if_not_exists(#a" + i + ", :a" + i + ")");
            i++;
        }
        return Update.builder().tableName(indexTable).key(ref.counter().toKey())
                .updateExpression("SET " + String.join(", ", sets) + " ADD #c :d")
                .expressionAttributeNames(names).expressionAttributeValues(values).build();
    }

    /**
     * The positions (in the call's writes) whose condition failed: their assumption was wrong. Empty when the
     * cancellation was for another reason (a conflict, throttling, a refusal) or names none of the writes.
     */
    public static List<Integer> failedAssumptions(TransactionCanceledException e, int offset, int writes) {
        List<Integer> failed = new ArrayList<>();
        if (!e.hasCancellationReasons()) {
            return failed;
        }
        List<CancellationReason> reasons = e.cancellationReasons();
        for (int i = 0; i < writes && offset + i < reasons.size(); i++) {
            if ("ConditionalCheckFailed".equals(reasons.get(offset + i).code())) {
                failed.add(i);
            }
        }
        return failed;
    }

    /** The cancellation reason codes other than {@code None}, for logs and to tell refusals from transient causes. */
    public static List<String> codes(TransactionCanceledException e) {
        if (!e.hasCancellationReasons()) {
            return List.of();
        }
        return e.cancellationReasons().stream().map(CancellationReason::code)
                .filter(code -> code != null && !"None".equals(code)).toList();
    }

    /** Whether a cancellation refused an item's content ({@code ValidationError}): the same call will be refused again. */
    public static boolean refused(TransactionCanceledException e) {
        return codes(e).contains("ValidationError");
    }

    /** A counted write with its assumption as the index's previous item says ({@code existed}). */
    public static Counted of(IndexChange change, CounterRef counter, boolean existed) {
        return new Counted(change, counter, change instanceof IndexChange.Delete || existed);
    }
}
