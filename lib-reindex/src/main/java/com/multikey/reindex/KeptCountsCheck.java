package com.multikey.reindex;

import com.multikey.index.IndexEntry;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.ItemKey;
import com.multikey.index.SortKeyCodec;
import com.multikey.index.counts.CountLayout;
import com.multikey.index.counts.CounterRef;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.ValueSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Verify (and repair) of the kept counts ({@link CountLayout}), a page of the index table at a time: every count a
 * page's counter items name, and every count a page's counted index items count toward whose counter item of their
 * shard is absent, is recounted from the index items (one Query of the value's items, or of the group's member items,
 * bucketed by shard), between two reads of its counters that must agree (or it is recounted). A counter item whose count differs is <b>stale</b>; one that is absent while items count toward
 * it, <b>missing</b>. Repair sets the count (never adds), conditioned on the counter being as it was read before the
 * recount: an indexer write in between changes it, and the repair leaves it to the next verify.
 */
final class KeptCountsCheck {

    /** Counts recounted and found right remembered per verifier, so a value's many pages recount it once. */
    private static final int REMEMBERED = 10_000;
    /** Recounts of a count whose counters kept changing during its recount, before it is reported as it stands. */
    private static final int MAX_RECOUNTS = 3;

    /** One count: its counter partition and the sort key prefix its shards share. */
    private record Count(String index, String partition, String countKey) {
    }

    /** What the check found and did. */
    record Outcome(long missing, long stale, long repaired, List<SegmentVerifier.Discrepancy> wrong) {
    }

    private final DynamoDbClient dynamoDb;
    private final String indexTable;
    private final IndexScope scope;
    private final CountLayout counts;
    private final BatchReader reader;
    private final Set<Count> checked = Collections.synchronizedSet(Collections.newSetFromMap(new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Count, Boolean> eldest) {
            return size() > REMEMBERED;
        }
    }));

    KeptCountsCheck(DynamoDbClient dynamoDb, String indexTable, IndexScope scope) {
        this.dynamoDb = dynamoDb;
        this.indexTable = indexTable;
        this.scope = scope;
        this.counts = new CountLayout(scope.definitions());
        this.reader = new BatchReader(dynamoDb);
    }

    boolean any() {
        return counts.any();
    }

    /** Checks the counts a page of the index table names or counts toward. */
    Outcome check(List<Map<String, AttributeValue>> page, boolean repair, RateLimiter rate) throws InterruptedException {
        Set<Count> recount = new LinkedHashSet<>();
        Map<IndexKey, Count> counterOfItem = new LinkedHashMap<>();
        for (Map<String, AttributeValue> item : page) {
            AttributeValue index = item.get(IndexItem.INDEX);
            if (index == null || counts.index(index.s()).isEmpty() || !scope.owns(item)) {
                continue;
            }
            IndexKey key = IndexKey.of(item);
            if (CountLayout.isCounter(item)) {
                recount.add(new Count(index.s(), key.attribId(), CountLayout.countKey(key.sortKey())));
                continue;
            }
            Optional<ItemKey> source = IndexEntry.sourceOf(item, scope.table());
            Optional<CounterRef> counter = source.flatMap(s -> counts.counterOf(key, s));
            counter.ifPresent(ref -> counterOfItem.put(ref.counter(), new Count(index.s(), ref.counter().attribId(),
                    CountLayout.countKey(ref.counter().sortKey()))));
        }
        if (!counterOfItem.isEmpty()) {
            Set<IndexKey> present = new java.util.HashSet<>();
            for (Map<String, AttributeValue> found : reader.read(indexTable, counterOfItem.keySet().stream().map(IndexKey::toKey).toList())) {
                present.add(IndexKey.of(found));
            }
            counterOfItem.forEach((counter, count) -> {
                if (!present.contains(counter)) {
                    recount.add(count);
                }
            });
        }
        long missing = 0;
        long stale = 0;
        long repaired = 0;
        List<SegmentVerifier.Discrepancy> wrong = new ArrayList<>();
        for (Count count : recount) {
            if (checked.contains(count)) {
                continue;
            }
            IndexDefinition index = counts.index(count.index()).orElseThrow();
            // counters read before and after the recount: a stream write in between (it changes a counter with the
            // items it counts) makes them differ, and the count is read again rather than reported
            Map<Integer, Long> stored = storedShards(count);
            Recount recounted = recount(index, count);
            for (int again = 0; again < MAX_RECOUNTS; again++) {
                Map<Integer, Long> after = storedShards(count);
                if (after.equals(stored)) {
                    break;
                }
                stored = after;
                recounted = recount(index, count);
            }
            Map<Integer, Long> truth = recounted.shards();
            boolean right = true;
            for (int shard = 0; shard < index.counts().shards(); shard++) {
                long have = stored.getOrDefault(shard, 0L);
                long want = truth.getOrDefault(shard, 0L);
                if (have == want) {
                    continue;
                }
                right = false;
                IndexKey counter = new IndexKey(count.partition(), count.countKey() + shard);
                boolean absent = !stored.containsKey(shard);
                if (absent) {
                    missing++;
                } else {
                    stale++;
                }
                wrong.add(new SegmentVerifier.Discrepancy(absent ? SegmentVerifier.Kind.MISSING : SegmentVerifier.Kind.STALE, "", counter));
                if (repair) {
                    rate.acquire(WriteCost.units(1));
                    if (set(index, counter, absent ? null : have, want, recounted)) {
                        repaired++;
                    }
                }
            }
            if (right) {
                checked.add(count);
            }
        }
        return new Outcome(missing, stale, repaired, wrong);
    }

    /** The counts of a count's shards as stored, read consistently (absent shards absent). */
    private Map<Integer, Long> storedShards(Count count) {
        Map<Integer, Long> shards = new HashMap<>();
        for (Map<String, AttributeValue> counter : query(count.partition(), Optional.of(count.countKey()), key -> true)) {
            String sortKey = counter.get(IndexKey.SORT_KEY).s();
            shards.put(CountLayout.shardOfCounter(sortKey), new BigDecimal(counter.get(CountLayout.COUNT).n()).longValueExact());
        }
        return shards;
    }

    /** How many index items count toward each shard of a count, and the field and value they count under. */
    private record Recount(Map<Integer, Long> shards, Optional<String> field, Optional<AttributeValue> value) {
    }

    /** How many index items count toward each shard of a count, from the items themselves. */
    private Recount recount(IndexDefinition index, Count count) {
        String group = count.partition().substring(0, count.partition().length() - CountLayout.COUNTER_PARTITION.length() - 1);
        List<Map<String, AttributeValue>> items;
        Optional<String> counted = Optional.empty();
        if (count.countKey().equals(CountLayout.totalPrefix())) {
            items = query(CountLayout.memberPartition(group), Optional.empty(), key -> true);
        } else {
            String afterKind = count.countKey().substring(CountLayout.FACET.length() + 1);
            String escapedField = afterKind.substring(0, afterKind.indexOf('|'));
            String valuePart = CountLayout.valuePart(count.countKey() + "0");
            String field = fieldOf(index, escapedField);
            counted = Optional.of(field);
            String partition = index.values() instanceof ValueSource.MapEntries ? group + "|" + escapedField : group;
            items = CountLayout.isDigest(valuePart)
                    ? query(partition, Optional.empty(), sortKey -> CountLayout.valuePartOf(field, CountLayout.encodedValue(sortKey)).equals(valuePart))
                    : query(partition, Optional.of(valuePart + SortKeyCodec.SEPARATOR), sortKey -> true);
        }
        Map<Integer, Long> shards = new HashMap<>();
        Optional<AttributeValue> value = counted.isEmpty() ? Optional.empty()
                : items.stream().map(item -> item.get(IndexItem.VALUE)).filter(java.util.Objects::nonNull).findFirst();
        for (Map<String, AttributeValue> item : items) {
            IndexEntry.sourceOf(item, scope.table()).flatMap(source -> counts.counterOf(IndexKey.of(item), source))
                    .filter(ref -> CountLayout.countKey(ref.counter().sortKey()).equals(count.countKey()))
                    .ifPresent(ref -> shards.merge(CountLayout.shardOfCounter(ref.counter().sortKey()), 1L, Long::sum));
        }
        return new Recount(shards, counted, value);
    }

    /** The field a counter names: a declared facet whose prefix is this one (an escaped or digested name). */
    private static String fieldOf(IndexDefinition index, String escapedField) {
        for (String facet : index.counts().facets()) {
            if (CountLayout.facetPrefix(facet).equals(CountLayout.FACET + "|" + escapedField + "|")) {
                return facet;
            }
        }
        return escapedField;
    }

    private List<Map<String, AttributeValue>> query(String partition, Optional<String> prefix, Predicate<String> keep) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> values = new HashMap<>(Map.of(":p", AttributeValue.fromS(partition)));
            String condition = "#p = :p";
            if (prefix.isPresent()) {
                values.put(":s", AttributeValue.fromS(prefix.get()));
                condition += " AND begins_with(#s, :s)";
            }
            QueryRequest.Builder query = QueryRequest.builder().tableName(indexTable).consistentRead(true)
                    .keyConditionExpression(condition).expressionAttributeValues(values)
                    .expressionAttributeNames(prefix.isPresent() ? Map.of("#p", IndexKey.ATTRIB_ID, "#s", IndexKey.SORT_KEY)
                            : Map.of("#p", IndexKey.ATTRIB_ID));
            if (start != null) {
                query.exclusiveStartKey(start);
            }
            QueryResponse page = dynamoDb.query(query.build());
            page.items().stream().filter(item -> keep.test(item.get(IndexKey.SORT_KEY).s())).forEach(items::add);
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return items;
    }

    /** Sets a counter to the recount, if it still holds what was read before the recount (null: it was absent). */
    private boolean set(IndexDefinition index, IndexKey counter, Long read, long count, Recount recounted) {
        Map<String, String> names = new LinkedHashMap<>(Map.of("#c", CountLayout.COUNT, "#i", IndexItem.INDEX, "#k", CountLayout.KIND));
        Map<String, AttributeValue> values = new LinkedHashMap<>(Map.of(":n", AttributeValue.fromN(Long.toString(count)),
                ":i", AttributeValue.fromS(index.name()),
                ":k", AttributeValue.fromS(counter.sortKey().startsWith(CountLayout.totalPrefix()) ? CountLayout.TOTAL : CountLayout.FACET)));
        recounted.field().ifPresent(field -> {
            names.put("#f", CountLayout.FIELD);
            values.put(":f", AttributeValue.fromS(field));
        });
        recounted.value().filter(value -> com.multikey.index.DynamoDbLimits.itemBytes(Map.of("value", value)) <= 4096).ifPresent(value -> {
            names.put("#v", IndexItem.VALUE);
            values.put(":v", value);
        });
        String sets = "SET #c = :n, #i = if_not_exists(#i, :i), #k = if_not_exists(#k, :k)"
                + (names.containsKey("#f") ? ", #f = if_not_exists(#f, :f)" : "") + (names.containsKey("#v") ? ", #v = if_not_exists(#v, :v)" : "");
        String condition;
        if (read == null) {
            condition = "attribute_not_exists(#c)";
        } else {
            condition = "#c = :r";
            values.put(":r", AttributeValue.fromN(Long.toString(read)));
        }
        try {
            dynamoDb.updateItem(b -> b.tableName(indexTable).key(counter.toKey())
                    .updateExpression(sets)
                    .conditionExpression(condition).expressionAttributeNames(names).expressionAttributeValues(values));
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        }
    }
}
