package com.multikey.indexer;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Objects;

/**
 * One entry of the multikey index: one (issue, custom field, distinct value). It carries what a grid
 * query needs without reading the issue: its id, project, num and the whole typed value.
 */
public record IndexItem(String attribId, String sortKey, String issueId, String project, BigDecimal num, IndexValue value) {

    public static final String ISSUE_ID = "issueId";
    public static final String PROJECT = "project";
    public static final String NUM = "num";
    public static final String VALUE = "value";

    public IndexItem {
        Objects.requireNonNull(attribId, "attribId");
        Objects.requireNonNull(sortKey, "sortKey");
        Objects.requireNonNull(issueId, "issueId");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(value, "value");
        num = IndexValue.Num.canonical(Objects.requireNonNull(num, "num"));
    }

    /** The item for (field, value) of an issue, with its sort key. */
    public static IndexItem of(String attribId, IndexValue value, String issueId, String project, BigDecimal num) {
        return new IndexItem(attribId, SortKeyCodec.encode(value, num, issueId), issueId, project, num, value);
    }

    public IndexKey key() {
        return new IndexKey(attribId, sortKey);
    }

    public Map<String, AttributeValue> toItem() {
        return Map.of(
                IndexKey.ATTRIB_ID, AttributeValue.fromS(attribId),
                IndexKey.SORT_KEY, AttributeValue.fromS(sortKey),
                ISSUE_ID, AttributeValue.fromS(issueId),
                PROJECT, AttributeValue.fromS(project),
                NUM, AttributeValue.fromN(num.toString()),
                VALUE, value.toAttributeValue());
    }

    /** Reads an item as stored in the index table. */
    public static IndexItem fromItem(Map<String, AttributeValue> item) {
        AttributeValue value = item.get(VALUE);
        IndexValue typed = switch (value.type()) {
            case S -> new IndexValue.Text(value.s());
            case N -> IndexValue.Num.parse(value.n());
            case BOOL -> new IndexValue.Bool(value.bool());
            default -> throw new IllegalArgumentException("index item value of type " + value.type());
        };
        return new IndexItem(item.get(IndexKey.ATTRIB_ID).s(), item.get(IndexKey.SORT_KEY).s(), item.get(ISSUE_ID).s(),
                item.get(PROJECT).s(), new BigDecimal(item.get(NUM).n()), typed);
    }
}
