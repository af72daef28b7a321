package com.multikey.index;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One entry of a multikey index: one (index, item, field, distinct value), as written to the index table.
 *
 * <p>The value is copied into the item only when the item then stays within DynamoDB's item size limit
 * ({@link DynamoDbLimits#MAX_ITEM_BYTES}); a value too large for that (a text of hundreds of kilobytes) is
 * still indexed by its key, and the stored item says {@code valueOmitted: true} instead of holding it.
 *
 * <p>Two layouts write these attributes (see {@code IndexDefinition.Layout}): the grouped layout stores
 * {@value #INDEX} (the index name), {@value #ITEM_KEY} (the source item's key as a map), {@code value} and
 * {@value #ATTRS} (the projection); the field-partitioned layout of the original grid stores
 * {@value #ITEM_ID} (the source item's one string key), {@value #PROJECT}, {@value #NUM} and {@code value}.
 *
 * @param index  the declared index it belongs to
 * @param key    its key in the index table
 * @param source the key of the item it indexes
 * @param value  the indexed value (whole, even when the stored item holds no copy of it)
 * @param item   the item as stored
 */
public record IndexItem(String index, IndexKey key, ItemKey source, IndexValue value, Map<String, AttributeValue> item) {

    public static final String INDEX = "index";
    public static final String ITEM_KEY = "itemKey";
    public static final String ATTRS = "attrs";
    public static final String ITEM_ID = "issueId";
    public static final String PROJECT = "project";
    public static final String NUM = "num";
    public static final String VALUE = "value";
    public static final String VALUE_OMITTED = "valueOmitted";
    /** Marks a member item: the one index item per indexed item that a kept group total counts. */
    public static final String MEMBER = "member";

    public IndexItem {
        Objects.requireNonNull(index, "index");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(value, "value");
        item = Map.copyOf(item);
    }

    /** The default name of the field-partitioned index of the original grid. */
    public static final String FIELD_PARTITIONED_INDEX = "custom_fields";

    /**
     * The field-partitioned item for (field, value) of an item keyed by a string {@code id}, in the index named
     * {@value #FIELD_PARTITIONED_INDEX}: the items the index held before definitions existed.
     *
     * @throws UnindexableValueException when the field id cannot be a partition key, or the item is too large
     *                                   for DynamoDB even without the value's copy
     */
    public static IndexItem of(String attribId, IndexValue value, String itemId, String project, BigDecimal num) {
        return fieldPartitioned(FIELD_PARTITIONED_INDEX, ItemKey.ofString("id", itemId), attribId, value, project, num);
    }

    /** As {@link #of}, for an index of any name over a table keyed by one string attribute. */
    public static IndexItem fieldPartitioned(String index, ItemKey source, String attribId, IndexValue value, String project,
                                             BigDecimal num) {
        String itemId = source.singleString().orElseThrow(() -> new IllegalArgumentException("not a one-string key"));
        if (attribId.isEmpty() || DynamoDbLimits.utf8Bytes(attribId) > DynamoDbLimits.MAX_PARTITION_KEY_BYTES) {
            throw new UnindexableValueException("field id is empty or longer than "
                    + DynamoDbLimits.MAX_PARTITION_KEY_BYTES + " bytes; it cannot be a partition key");
        }
        BigDecimal canonicalNum = IndexValue.Num.canonical(num);
        String sortKey = SortKeyCodec.encode(value, canonicalNum, itemId);
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put(IndexKey.ATTRIB_ID, AttributeValue.fromS(attribId));
        item.put(IndexKey.SORT_KEY, AttributeValue.fromS(sortKey));
        item.put(ITEM_ID, AttributeValue.fromS(itemId));
        item.put(PROJECT, AttributeValue.fromS(project));
        item.put(NUM, AttributeValue.fromN(canonicalNum.toString()));
        return sized(new IndexItem(index, new IndexKey(attribId, sortKey), source, value, item));
    }

    /**
     * This item with a copy of its value when it then fits DynamoDB's item size, otherwise marked {@code valueOmitted}.
     *
     * @param withoutValue an item that holds neither {@code value} nor {@code valueOmitted}
     * @throws UnindexableValueException when even the item without the value is too large
     */
    static IndexItem sized(IndexItem withoutValue) {
        Map<String, AttributeValue> withValue = new LinkedHashMap<>(withoutValue.item);
        withValue.put(VALUE, withoutValue.value.toAttributeValue());
        if (DynamoDbLimits.itemBytes(withValue) <= DynamoDbLimits.MAX_ITEM_BYTES) {
            return withoutValue.with(withValue);
        }
        Map<String, AttributeValue> omitted = new LinkedHashMap<>(withoutValue.item);
        omitted.put(VALUE_OMITTED, AttributeValue.fromBool(true));
        if (DynamoDbLimits.itemBytes(omitted) > DynamoDbLimits.MAX_ITEM_BYTES) {
            throw new UnindexableValueException("index item larger than "
                    + DynamoDbLimits.MAX_ITEM_BYTES + " bytes even without the value");
        }
        return withoutValue.with(omitted);
    }

    private IndexItem with(Map<String, AttributeValue> stored) {
        return new IndexItem(index, key, source, value, stored);
    }

    public String attribId() {
        return key.attribId();
    }

    public String sortKey() {
        return key.sortKey();
    }

    /** Whether it is a member item (a kept group total's marker of one indexed item), not an item of a value. */
    public boolean isMember() {
        return item.containsKey(MEMBER);
    }

    /** Whether the stored item holds a copy of the value. */
    public boolean valueCopied() {
        return item.containsKey(VALUE);
    }

    /** The source item's key as text, for logs and reports. */
    public String itemKeyText() {
        return source.toString();
    }

    /** The item as written to the index table. */
    public Map<String, AttributeValue> toItem() {
        return item;
    }

    /**
     * A stored item with its numbers spelled as {@link #toItem()} spells them, at any depth (DynamoDB answers
     * {@code 12345678901234567890} for {@code 1.234567890123456789E+19}), so stored and expected items compare
     * with {@code equals}.
     */
    public static Map<String, AttributeValue> normalized(Map<String, AttributeValue> stored) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        stored.forEach((name, value) -> item.put(name, normalized(value)));
        return Map.copyOf(item);
    }

    private static AttributeValue normalized(AttributeValue value) {
        return switch (value.type()) {
            case N -> AttributeValue.fromN(IndexValue.Num.canonical(new BigDecimal(value.n())).toString());
            case M -> AttributeValue.fromM(normalized(value.m()));
            case L -> {
                List<AttributeValue> list = new ArrayList<>();
                value.l().forEach(element -> list.add(normalized(element)));
                yield AttributeValue.fromL(list);
            }
            default -> value;
        };
    }
}
