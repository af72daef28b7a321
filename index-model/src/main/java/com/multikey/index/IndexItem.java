package com.multikey.index;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One entry of the multikey index: one (issue, custom field, distinct value). It carries what a grid
 * query needs without reading the issue: its id, project, num and the whole typed value.
 *
 * <p>The value is copied into the item only when the item then stays within DynamoDB's item size limit
 * ({@link DynamoDbLimits#MAX_ITEM_BYTES}); a value too large for that (a text of hundreds of kilobytes) is
 * still indexed by its key, and the stored item says {@code valueOmitted: true} instead of holding it.
 *
 * @param valueCopied whether the stored item holds {@code value}; decided by {@link #of} from the item's size
 */
public record IndexItem(String attribId, String sortKey, String issueId, String project, BigDecimal num, IndexValue value,
                        boolean valueCopied) {

    public static final String ISSUE_ID = "issueId";
    public static final String PROJECT = "project";
    public static final String NUM = "num";
    public static final String VALUE = "value";
    public static final String VALUE_OMITTED = "valueOmitted";

    public IndexItem {
        Objects.requireNonNull(attribId, "attribId");
        Objects.requireNonNull(sortKey, "sortKey");
        Objects.requireNonNull(issueId, "issueId");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(value, "value");
        num = IndexValue.Num.canonical(Objects.requireNonNull(num, "num"));
    }

    /**
     * The item for (field, value) of an issue, with its sort key, and with a copy of the value when the
     * item can hold it.
     *
     * @throws UnindexableValueException when the field id cannot be a partition key, or the item is too
     *                                   large for DynamoDB even without the value's copy
     */
    public static IndexItem of(String attribId, IndexValue value, String issueId, String project, BigDecimal num) {
        if (attribId.isEmpty() || DynamoDbLimits.utf8Bytes(attribId) > DynamoDbLimits.MAX_PARTITION_KEY_BYTES) {
            throw new UnindexableValueException("field id is empty or longer than "
                    + DynamoDbLimits.MAX_PARTITION_KEY_BYTES + " bytes; it cannot be a partition key");
        }
        String sortKey = SortKeyCodec.encode(value, num, issueId);
        IndexItem withValue = new IndexItem(attribId, sortKey, issueId, project, num, value, true);
        if (DynamoDbLimits.itemBytes(withValue.toItem()) <= DynamoDbLimits.MAX_ITEM_BYTES) {
            return withValue;
        }
        IndexItem withoutValue = new IndexItem(attribId, sortKey, issueId, project, num, value, false);
        if (DynamoDbLimits.itemBytes(withoutValue.toItem()) > DynamoDbLimits.MAX_ITEM_BYTES) {
            throw new UnindexableValueException("index item larger than "
                    + DynamoDbLimits.MAX_ITEM_BYTES + " bytes even without the value");
        }
        return withoutValue;
    }

    public IndexKey key() {
        return new IndexKey(attribId, sortKey);
    }

    /** The item as written to the index table. */
    public Map<String, AttributeValue> toItem() {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put(IndexKey.ATTRIB_ID, AttributeValue.fromS(attribId));
        item.put(IndexKey.SORT_KEY, AttributeValue.fromS(sortKey));
        item.put(ISSUE_ID, AttributeValue.fromS(issueId));
        item.put(PROJECT, AttributeValue.fromS(project));
        item.put(NUM, AttributeValue.fromN(num.toString()));
        if (valueCopied) {
            item.put(VALUE, value.toAttributeValue());
        } else {
            item.put(VALUE_OMITTED, AttributeValue.fromBool(true));
        }
        return Map.copyOf(item);
    }

    /**
     * Reads an item as stored in the index table.
     *
     * @throws IllegalArgumentException when the item holds no copy of its value ({@code valueOmitted}):
     *                                  read the issue for it, or compare stored items with {@link #toItem()}
     */
    public static IndexItem fromItem(Map<String, AttributeValue> item) {
        AttributeValue value = item.get(VALUE);
        if (value == null) {
            throw new IllegalArgumentException("index item holds no copy of its value");
        }
        IndexValue typed = switch (value.type()) {
            case S -> new IndexValue.Text(value.s());
            case N -> IndexValue.Num.parse(value.n());
            case BOOL -> new IndexValue.Bool(value.bool());
            default -> throw new IllegalArgumentException("index item value of type " + value.type());
        };
        return new IndexItem(item.get(IndexKey.ATTRIB_ID).s(), item.get(IndexKey.SORT_KEY).s(), item.get(ISSUE_ID).s(),
                item.get(PROJECT).s(), new BigDecimal(item.get(NUM).n()), typed, true);
    }

    /**
     * A stored index item with its numbers spelled as {@link #toItem()} spells them (DynamoDB answers
     * {@code 12345678901234567890} for {@code 1.234567890123456789E+19}), so stored and expected items
     * compare with {@code equals}.
     */
    public static Map<String, AttributeValue> normalized(Map<String, AttributeValue> stored) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        stored.forEach((name, value) -> item.put(name, value.type() == AttributeValue.Type.N
                ? AttributeValue.fromN(IndexValue.Num.canonical(new BigDecimal(value.n())).toString()) : value));
        return Map.copyOf(item);
    }

    /** The issue a stored index item belongs to, whether or not it holds its value. */
    public static String issueIdOf(Map<String, AttributeValue> item) {
        return item.get(ISSUE_ID).s();
    }
}
