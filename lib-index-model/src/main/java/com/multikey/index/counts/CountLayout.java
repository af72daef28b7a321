package com.multikey.index.counts;

import com.multikey.index.DynamoDbLimits;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.ItemKey;
import com.multikey.index.SortKeyCodec;
import com.multikey.index.definition.CountsDeclaration;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.index.definition.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Where the counts a definitions file declares live in the index table, beside the index items they count.
 *
 * <p>For a group of a counted index (the partition prefix {@code <index>|<group>...}):
 * <ul>
 *   <li>its <b>counter partition</b> {@code <index>|<group>...|%C} holds counter items: {@code total|<shard>} for the
 *       group total, {@code facet|<field>|<encoded value>|<shard>} for a value of a field, each with {@code count};</li>
 *   <li>for a kept total, its <b>member partition</b> {@code <index>|<group>...|%M} holds one member item per indexed
 *       item (sort key: the item key), the index item the total counts.</li>
 * </ul>
 * {@code %C} and {@code %M} never end another partition: entry names and string group values have their {@code %}
 * escaped, and numbers, binary and booleans are {@code %N}, {@code %B}, {@code %T}. A counted index item adds one to
 * the counter of its shard ({@link #shardOf}: a hash of the item key) while it exists, so a popular value's count is
 * spread over {@link CountsDeclaration#shards()} counter items, summed on read.
 */
public final class CountLayout {

    public static final String COUNTER_PARTITION = "%C";
    public static final String MEMBER_PARTITION = "%M";
    /** Attributes of a counter item. */
    public static final String COUNT = "count";
    public static final String FIELD = "field";
    public static final String KIND = "counter";
    public static final String TOTAL = "total";
    public static final String FACET = "facet";
    /** A counted value's copy is kept in its counter items up to this size (bytes as DynamoDB counts them). */
    static final int MAX_VALUE_COPY_BYTES = 4096;
    private static final int MAX_FIELD_PART_BYTES = 256;

    private final Map<String, IndexDefinition> counted = new LinkedHashMap<>();

    public CountLayout(IndexDefinitions definitions) {
        for (IndexDefinition index : definitions.declared()) {
            if (index.counts().any() && index.layout() == IndexDefinition.Layout.GROUPED) {
                counted.put(index.name(), index);
            }
        }
    }

    /** Whether any declared index keeps counts. */
    public boolean any() {
        return !counted.isEmpty();
    }

    /** The counted index of this name, if it keeps counts. */
    public Optional<IndexDefinition> index(String name) {
        return Optional.ofNullable(counted.get(name));
    }

    /** The counter an index item counts toward, if it is counted (a member item, or a value of a declared facet). */
    public Optional<CounterRef> counterOf(IndexItem item) {
        if (!counted.containsKey(item.index())) {
            return Optional.empty();
        }
        AttributeValue value = item.value().toAttributeValue();
        Optional<AttributeValue> copy = item.isMember() || DynamoDbLimits.itemBytes(Map.of("value", value)) > MAX_VALUE_COPY_BYTES
                ? Optional.empty() : Optional.of(value);
        return counterOf(item.index(), item.key(), item.source(), copy);
    }

    /**
     * The counter the index item at {@code key} counts toward, from its key and its source item's alone (what a delete
     * knows): the index is the partition's first part, a member item's partition ends with {@code |%M}.
     */
    public Optional<CounterRef> counterOf(IndexKey key, ItemKey source) {
        String attribId = key.attribId();
        int first = attribId.indexOf('|');
        return first < 0 ? Optional.empty() : counterOf(attribId.substring(0, first), key, source, Optional.empty());
    }

    private Optional<CounterRef> counterOf(String indexName, IndexKey key, ItemKey source, Optional<AttributeValue> copy) {
        IndexDefinition index = counted.get(indexName);
        if (index == null) {
            return Optional.empty();
        }
        CountsDeclaration counts = index.counts();
        String attribId = key.attribId();
        int shard = shardOf(source.toString(), counts.shards());
        String memberSuffix = "|" + MEMBER_PARTITION;
        if (attribId.endsWith(memberSuffix)) {
            if (!counts.total()) {
                return Optional.empty();
            }
            String group = attribId.substring(0, attribId.length() - memberSuffix.length());
            return Optional.of(new CounterRef(new IndexKey(counterPartition(group), totalPrefix() + shard), index.name(),
                    Optional.empty(), Optional.empty()));
        }
        String group;
        String field;
        if (index.values() instanceof ValueSource.MapEntries) {
            int cut = attribId.lastIndexOf('|');
            if (cut < 0) {
                return Optional.empty();
            }
            group = attribId.substring(0, cut);
            field = unescape(attribId.substring(cut + 1));
        } else {
            group = attribId;
            field = index.values().path().toString();
        }
        if (!counts.facets().contains(field)) {
            return Optional.empty();
        }
        String prefix = facetPrefix(field);
        String counterKey = prefix + fitted(encodedValue(key.sortKey()), prefix) + "|" + shard;
        return Optional.of(new CounterRef(new IndexKey(counterPartition(group), counterKey), index.name(), Optional.of(field), copy));
    }

    /** The encoded value a grouped index item's sort key starts with (up to the first separator). */
    public static String encodedValue(String sortKey) {
        int valueEnd = sortKey.indexOf(SortKeyCodec.SEPARATOR);
        return valueEnd < 0 ? sortKey : sortKey.substring(0, valueEnd);
    }

    /** The shard a counter's sort key names (its last part). */
    public static int shardOfCounter(String counterSortKey) {
        return Integer.parseInt(counterSortKey.substring(counterSortKey.lastIndexOf('|') + 1));
    }

    /** The counter's sort key without its shard: what the shards of one count share. */
    public static String countKey(String counterSortKey) {
        return counterSortKey.substring(0, counterSortKey.lastIndexOf('|') + 1);
    }

    /** The encoded value part of a facet counter's sort key ({@code facet|<field>|<value>|<shard>}). */
    public static String valuePart(String counterSortKey) {
        int fieldEnd = counterSortKey.indexOf('|', FACET.length() + 1);
        return counterSortKey.substring(fieldEnd + 1, counterSortKey.lastIndexOf('|'));
    }

    /** Whether a counter's value part is a digest of the encoded value (a value too long for the counter's key). */
    public static boolean isDigest(String valuePart) {
        return valuePart.startsWith("%H");
    }

    /** The value part a counter gives an encoded value: itself, or its digest when the key would not fit. */
    public static String valuePartOf(String field, String encodedValue) {
        return fitted(encodedValue, facetPrefix(field));
    }

    /** The counter partition of a group's partition prefix ({@code <index>|<group>...}). */
    public static String counterPartition(String groupPartition) {
        return groupPartition + "|" + COUNTER_PARTITION;
    }

    /** The member partition of a group's partition prefix. */
    public static String memberPartition(String groupPartition) {
        return groupPartition + "|" + MEMBER_PARTITION;
    }

    /** The sort key prefix of every counter item of one field's values. */
    public static String facetPrefix(String field) {
        String escaped = escape(field);
        if (DynamoDbLimits.utf8Bytes(escaped) > MAX_FIELD_PART_BYTES) {
            escaped = "%H" + digest(field);
        }
        return FACET + "|" + escaped + "|";
    }

    /** The sort key prefix of the group total's counter items. */
    public static String totalPrefix() {
        return TOTAL + "|";
    }

    /** The encoded value as it is, or its digest when the counter's sort key would pass DynamoDB's 1,024 bytes. */
    private static String fitted(String encodedValue, String prefix) {
        if (DynamoDbLimits.utf8Bytes(prefix) + DynamoDbLimits.utf8Bytes(encodedValue) + 4 <= DynamoDbLimits.MAX_SORT_KEY_BYTES) {
            return encodedValue;
        }
        return "%H" + digest(encodedValue);
    }

    /** Which of {@code shards} counter items an item counts in: a mixed hash of its key, the same on every JVM. */
    public static int shardOf(String itemKey, int shards) {
        int h = itemKey.hashCode();
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return Math.floorMod(h, shards);
    }

    /** Whether a stored item of the index table is a counter item. */
    public static boolean isCounter(Map<String, AttributeValue> stored) {
        return stored.containsKey(KIND) && stored.containsKey(COUNT);
    }

    /** The counter item a counted write creates when it is the first to touch it (its count then added). */
    public static Map<String, AttributeValue> counterAttributes(CounterRef ref) {
        Map<String, AttributeValue> attributes = new LinkedHashMap<>();
        attributes.put(IndexItem.INDEX, AttributeValue.fromS(ref.index()));
        attributes.put(KIND, AttributeValue.fromS(ref.isTotal() ? TOTAL : FACET));
        ref.field().ifPresent(field -> attributes.put(FIELD, AttributeValue.fromS(field)));
        ref.value().ifPresent(value -> attributes.put(IndexItem.VALUE, value));
        return attributes;
    }

    static String escape(String text) {
        return text.replace("%", "%25").replace("|", "%7C");
    }

    static String unescape(String text) {
        return text.replace("%7C", "|").replace("%25", "%");
    }

    private static String digest(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
