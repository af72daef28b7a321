package com.multikey.dynamodb.table;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What CreateTable declares: the key, the attribute types, the indexes and the billing. {@code throughput} is
 * null for on-demand (PAY_PER_REQUEST) tables.
 */
public record TableDefinition(String name, KeySchema keySchema, Map<String, String> attributeTypes,
                              List<IndexDefinition> indexes, Throughput throughput) {

    public TableDefinition {
        attributeTypes = Collections.unmodifiableMap(new LinkedHashMap<>(attributeTypes));
        indexes = List.copyOf(indexes);
    }

    public boolean onDemand() {
        return throughput == null;
    }
}
