package com.multikey.index.counts;

import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.IndexProjector;
import com.multikey.index.definition.IndexDefinition;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the counts the pipeline keeps ({@link CountLayout}): a group's total and one field's values with their counts,
 * most frequent first. However many items the group holds, the read is one Query of the field's counter items (its
 * distinct values times the shards; one more call per 1 MB of them) and one Query of the total's shards.
 */
public final class KeptCounts {

    public static final int DEFAULT_TOP = 10;
    public static final int MAX_TOP = 100;

    private final DynamoDbClient dynamoDb;
    private final String indexTable;

    public KeptCounts(DynamoDbClient dynamoDb, String indexTable) {
        this.dynamoDb = dynamoDb;
        this.indexTable = indexTable;
    }

    /** As {@link #read(IndexDefinition, List, Optional, int)} for one declared facet. */
    public Optional<GroupCounts> read(IndexDefinition index, List<AttributeValue> group, String field, int top) {
        return read(index, group, Optional.of(field), top);
    }

    /**
     * @param index the index (it must keep counts)
     * @param group the group's values, in the index's declared order
     * @param field the counted field (a declared facet), or empty for the total alone
     * @param top   how many values to list (1 to {@value #MAX_TOP})
     * @return empty when the index keeps neither the total nor counts of this field
     */
    public Optional<GroupCounts> read(IndexDefinition index, List<AttributeValue> group, Optional<String> field, int top) {
        if (top < 1 || top > MAX_TOP) {
            throw new IllegalArgumentException("top must be from 1 to " + MAX_TOP + ", got " + top);
        }
        boolean facet = field.isPresent() && index.counts().facets().contains(field.get());
        if (!facet && !index.counts().total()) {
            return Optional.empty();
        }
        String partition = CountLayout.counterPartition(IndexProjector.partition(index, group, null));
        int[] calls = {0};
        Optional<Long> total = Optional.empty();
        if (index.counts().total()) {
            long sum = 0;
            for (Map<String, AttributeValue> counter : query(partition, CountLayout.totalPrefix(), calls)) {
                sum += count(counter);
            }
            total = Optional.of(sum);
        }
        List<GroupCounts.ValueCount> values = new ArrayList<>();
        if (facet) {
            String prefix = CountLayout.facetPrefix(field.get());
            Map<String, long[]> sums = new LinkedHashMap<>();
            Map<String, AttributeValue> copies = new LinkedHashMap<>();
            for (Map<String, AttributeValue> counter : query(partition, prefix, calls)) {
                String sortKey = counter.get(IndexKey.SORT_KEY).s();
                String encoded = sortKey.substring(prefix.length(), sortKey.lastIndexOf('|'));
                sums.computeIfAbsent(encoded, k -> new long[1])[0] += count(counter);
                if (counter.containsKey(IndexItem.VALUE)) {
                    copies.putIfAbsent(encoded, counter.get(IndexItem.VALUE));
                }
            }
            sums.forEach((encoded, sum) -> {
                if (sum[0] > 0) {
                    values.add(new GroupCounts.ValueCount(Optional.ofNullable(copies.get(encoded)), encoded, sum[0]));
                }
            });
            // most frequent first; equal counts in the index's value order (the encoding sorts as the values do)
            values.sort(Comparator.comparingLong(GroupCounts.ValueCount::count).reversed()
                    .thenComparing(GroupCounts.ValueCount::encodedValue));
        }
        List<GroupCounts.ValueCount> shown = values.subList(0, Math.min(top, values.size()));
        long otherCount = values.subList(shown.size(), values.size()).stream().mapToLong(GroupCounts.ValueCount::count).sum();
        return Optional.of(new GroupCounts(total, shown, values.size() - shown.size(), otherCount, calls[0]));
    }

    private List<Map<String, AttributeValue>> query(String partition, String prefix, int[] calls) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            QueryRequest.Builder query = QueryRequest.builder().tableName(indexTable)
                    .keyConditionExpression("#p = :p AND begins_with(#s, :s)")
                    .expressionAttributeNames(Map.of("#p", IndexKey.ATTRIB_ID, "#s", IndexKey.SORT_KEY))
                    .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(partition), ":s", AttributeValue.fromS(prefix)));
            if (start != null) {
                query.exclusiveStartKey(start);
            }
            QueryResponse page = dynamoDb.query(query.build());
            calls[0]++;
            items.addAll(page.items());
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return items;
    }

    private static long count(Map<String, AttributeValue> counter) {
        AttributeValue count = counter.get(CountLayout.COUNT);
        return count == null || count.n() == null ? 0 : new BigDecimal(count.n()).longValueExact();
    }
}
