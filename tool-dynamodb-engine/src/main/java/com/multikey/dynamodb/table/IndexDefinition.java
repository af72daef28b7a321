package com.multikey.dynamodb.table;

/** A global or local secondary index as declared: its key, its projection and (global, provisioned) capacity. */
public record IndexDefinition(String name, boolean global, KeySchema keySchema, Projection projection, Throughput throughput) {
}
