package com.multikey.indexer;

import com.multikey.common.Environment;
import com.multikey.index.definition.IndexDefinitions;

import java.util.Map;
import java.util.Objects;

/**
 * The indexer's settings, from the function's environment (set in {@code template.yaml}).
 *
 * @param indexTableName {@code INDEX_TABLE_NAME}: the attribute-index table
 * @param appTableName   {@code APP_TABLE_NAME}: the source table, named in log lines only (empty when not set)
 * @param definitions    the declared indexes: the file {@code INDEX_DEFINITIONS} names, else the packaged one; a file
 *                       that cannot work fails the cold start
 */
public record IndexerConfig(String indexTableName, String appTableName, IndexDefinitions definitions) {

    public IndexerConfig {
        Objects.requireNonNull(indexTableName, "indexTableName");
        Objects.requireNonNull(appTableName, "appTableName");
        Objects.requireNonNull(definitions, "definitions");
    }

    /** With the packaged definitions and no table name for the logs. */
    public IndexerConfig(String indexTableName) {
        this(indexTableName, "", IndexDefinitions.packaged());
    }

    public static IndexerConfig fromEnvironment(Map<String, String> env) {
        return new IndexerConfig(Environment.required(env, "INDEX_TABLE_NAME"), env.getOrDefault("APP_TABLE_NAME", ""),
                IndexDefinitions.fromEnvironment(env));
    }
}
