package com.multikey.indexer;

import com.multikey.common.Environment;
import com.multikey.index.IssueSchema;

import java.util.Map;
import java.util.Objects;

/**
 * The indexer's settings, from the function's environment (set in {@code template.yaml}).
 *
 * @param indexTableName {@code INDEX_TABLE_NAME}: the attribute-index table
 * @param schema         where issues keep what the index is built from ({@link IssueSchema#fromEnvironment})
 */
public record IndexerConfig(String indexTableName, IssueSchema schema) {

    public IndexerConfig {
        Objects.requireNonNull(indexTableName, "indexTableName");
        Objects.requireNonNull(schema, "schema");
    }

    public static IndexerConfig fromEnvironment(Map<String, String> env) {
        return new IndexerConfig(Environment.required(env, "INDEX_TABLE_NAME"), IssueSchema.fromEnvironment(env));
    }
}
