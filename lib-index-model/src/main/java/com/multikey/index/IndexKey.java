package com.multikey.index;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;
import java.util.Objects;

/** The primary key of an index item. */
public record IndexKey(String attribId, String sortKey) {

    public static final String ATTRIB_ID = "attribId";
    public static final String SORT_KEY = "sortKey";

    public IndexKey {
        Objects.requireNonNull(attribId, "attribId");
        Objects.requireNonNull(sortKey, "sortKey");
    }

    public Map<String, AttributeValue> toKey() {
        return Map.of(ATTRIB_ID, AttributeValue.fromS(attribId), SORT_KEY, AttributeValue.fromS(sortKey));
    }

    /** The key of a stored index item, or of a key map. */
    public static IndexKey of(Map<String, AttributeValue> item) {
        return new IndexKey(item.get(ATTRIB_ID).s(), item.get(SORT_KEY).s());
    }
}
