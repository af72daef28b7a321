package com.multikey.deletelayer;

import com.multikey.common.Environment;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.index.definition.KeySchema;

import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * delete-layer's settings, from the function's environment (set in {@code template.yaml}).
 *
 * @param appTableName     {@code APP_TABLE_NAME}: where the tombstone is written
 * @param eventSource      {@code EVENT_SOURCE}: the only source whose events are acted on
 * @param allowedAccountId {@code ALLOWED_ACCOUNT_ID}: layers of other accounts are refused
 * @param layerNamePrefix  {@code LAYER_NAME_PREFIX}: layers whose name does not start with it are refused
 * @param definitions      the index definitions ({@code INDEX_DEFINITIONS}, else the packaged file): the table's key,
 *                         which a tombstone is written under, and the sparse indexes a tombstone leaves
 * @param arnAttribute     {@code ARN_ATTRIBUTE} (default {@code arn}): the layer version ARN in the record
 * @param ttlAttribute     {@code TTL_ATTRIBUTE} (default {@code expiresAt}): left out of the tombstone
 * @param dropAttributes   {@code TOMBSTONE_DROP_ATTRIBUTES} (comma-separated, default none): also left out of the
 *                         tombstone, besides what puts the record in a sparse index
 */
public record DeleteLayerConfig(String appTableName, String eventSource, String allowedAccountId, String layerNamePrefix,
                                IndexDefinitions definitions, String arnAttribute, String ttlAttribute, Set<String> dropAttributes) {

    /** With nothing dropped from the tombstone but the TTL attribute and what puts the record in a sparse index. */
    public DeleteLayerConfig(String appTableName, String eventSource, String allowedAccountId, String layerNamePrefix,
                             IndexDefinitions definitions, String arnAttribute, String ttlAttribute) {
        this(appTableName, eventSource, allowedAccountId, layerNamePrefix, definitions, arnAttribute, ttlAttribute, Set.of());
    }

    public DeleteLayerConfig {
        Objects.requireNonNull(appTableName, "appTableName");
        Objects.requireNonNull(eventSource, "eventSource");
        Objects.requireNonNull(allowedAccountId, "allowedAccountId");
        Objects.requireNonNull(layerNamePrefix, "layerNamePrefix");
        Objects.requireNonNull(definitions, "definitions");
        Objects.requireNonNull(arnAttribute, "arnAttribute");
        Objects.requireNonNull(ttlAttribute, "ttlAttribute");
        dropAttributes = Set.copyOf(dropAttributes);
    }

    /** The app table's key schema. */
    public KeySchema table() {
        return definitions.table();
    }

    /** @throws com.multikey.index.definition.DefinitionException when the definitions file cannot work (the cold start fails) */
    public static DeleteLayerConfig fromEnvironment(Map<String, String> env) {
        return new DeleteLayerConfig(
                Environment.required(env, "APP_TABLE_NAME"),
                env.getOrDefault("EVENT_SOURCE", "multikey.app-table"),
                Environment.required(env, "ALLOWED_ACCOUNT_ID"),
                env.getOrDefault("LAYER_NAME_PREFIX", ""),
                IndexDefinitions.fromEnvironment(env),
                env.getOrDefault("ARN_ATTRIBUTE", "arn"),
                env.getOrDefault("TTL_ATTRIBUTE", "expiresAt"),
                Arrays.stream(env.getOrDefault("TOMBSTONE_DROP_ATTRIBUTES", "").split(",")).map(String::trim)
                        .filter(name -> !name.isEmpty()).collect(Collectors.toSet()));
    }
}
