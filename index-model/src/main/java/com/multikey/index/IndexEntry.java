package com.multikey.index;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;
import java.util.Objects;

/**
 * What a reader of the index table needs of a stored item to find its issue: the key and the issue id.
 * Read from any stored item, including one that holds no copy of its value ({@code valueOmitted}).
 */
public record IndexEntry(IndexKey key, String issueId) {

    public IndexEntry {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(issueId, "issueId");
    }

    public static IndexEntry of(Map<String, AttributeValue> stored) {
        return new IndexEntry(IndexKey.of(stored), IndexItem.issueIdOf(stored));
    }

    public String attribId() {
        return key.attribId();
    }

    public String sortKey() {
        return key.sortKey();
    }
}
