package com.multikey.indexer;

import com.multikey.common.Environment;

import java.util.Map;
import java.util.Objects;

/**
 * The indexer's settings, from the function's environment (set in {@code template.yaml}).
 *
 * @param indexTableName        {@code INDEX_TABLE_NAME}: the attribute-index table
 * @param keyAttribute          {@code KEY_ATTRIBUTE} (default {@code id}): the app table's partition key
 * @param issueEntityType       {@code ISSUE_ENTITY_TYPE} (default {@code issue}): id prefix of issues
 * @param customFieldsAttribute {@code CUSTOM_FIELDS_ATTRIBUTE} (default {@code custom_fields})
 * @param numAttribute          {@code NUM_ATTRIBUTE} (default {@code num})
 * @param projectAttribute      {@code PROJECT_ATTRIBUTE} (default {@code project})
 */
public record IndexerConfig(
        String indexTableName,
        String keyAttribute,
        String issueEntityType,
        String customFieldsAttribute,
        String numAttribute,
        String projectAttribute) {

    public IndexerConfig {
        Objects.requireNonNull(indexTableName, "indexTableName");
        Objects.requireNonNull(keyAttribute, "keyAttribute");
        Objects.requireNonNull(issueEntityType, "issueEntityType");
        Objects.requireNonNull(customFieldsAttribute, "customFieldsAttribute");
        Objects.requireNonNull(numAttribute, "numAttribute");
        Objects.requireNonNull(projectAttribute, "projectAttribute");
    }

    public static IndexerConfig withDefaults(String indexTableName) {
        return new IndexerConfig(indexTableName, "id", "issue", "custom_fields", "num", "project");
    }

    public static IndexerConfig fromEnvironment(Map<String, String> env) {
        return new IndexerConfig(
                Environment.required(env, "INDEX_TABLE_NAME"),
                env.getOrDefault("KEY_ATTRIBUTE", "id"),
                env.getOrDefault("ISSUE_ENTITY_TYPE", "issue"),
                env.getOrDefault("CUSTOM_FIELDS_ATTRIBUTE", "custom_fields"),
                env.getOrDefault("NUM_ATTRIBUTE", "num"),
                env.getOrDefault("PROJECT_ATTRIBUTE", "project"));
    }
}
