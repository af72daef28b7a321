package com.multikey.deletelayer;

import com.multikey.common.Environment;

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
 * @param keyAttribute     {@code KEY_ATTRIBUTE} (default {@code id}): the table's partition key ({@code pk} in a
 *                         single-table design), which a tombstone never overwrites an item of
 * @param arnAttribute     {@code ARN_ATTRIBUTE} (default {@code arn}): the layer version ARN in the record
 * @param ttlAttribute     {@code TTL_ATTRIBUTE} (default {@code expiresAt}): left out of the tombstone
 * @param dropAttributes   {@code TOMBSTONE_DROP_ATTRIBUTES} (comma-separated, default none): also left out of the
 *                         tombstone, e.g. a deploy status ({@code dplySts}) that sparse indexes of active versions key on
 */
public record DeleteLayerConfig(String appTableName, String eventSource, String allowedAccountId, String layerNamePrefix,
                                String keyAttribute, String arnAttribute, String ttlAttribute, Set<String> dropAttributes) {

    /** With nothing dropped from the tombstone but the TTL attribute. */
    public DeleteLayerConfig(String appTableName, String eventSource, String allowedAccountId, String layerNamePrefix,
                             String keyAttribute, String arnAttribute, String ttlAttribute) {
        this(appTableName, eventSource, allowedAccountId, layerNamePrefix, keyAttribute, arnAttribute, ttlAttribute, Set.of());
    }

    public DeleteLayerConfig {
        Objects.requireNonNull(appTableName, "appTableName");
        Objects.requireNonNull(eventSource, "eventSource");
        Objects.requireNonNull(allowedAccountId, "allowedAccountId");
        Objects.requireNonNull(layerNamePrefix, "layerNamePrefix");
        Objects.requireNonNull(keyAttribute, "keyAttribute");
        Objects.requireNonNull(arnAttribute, "arnAttribute");
        Objects.requireNonNull(ttlAttribute, "ttlAttribute");
        dropAttributes = Set.copyOf(dropAttributes);
    }

    public static DeleteLayerConfig fromEnvironment(Map<String, String> env) {
        return new DeleteLayerConfig(
                Environment.required(env, "APP_TABLE_NAME"),
                env.getOrDefault("EVENT_SOURCE", "multikey.app-table"),
                Environment.required(env, "ALLOWED_ACCOUNT_ID"),
                env.getOrDefault("LAYER_NAME_PREFIX", ""),
                env.getOrDefault("KEY_ATTRIBUTE", "id"),
                env.getOrDefault("ARN_ATTRIBUTE", "arn"),
                env.getOrDefault("TTL_ATTRIBUTE", "expiresAt"),
                Arrays.stream(env.getOrDefault("TOMBSTONE_DROP_ATTRIBUTES", "").split(",")).map(String::trim)
                        .filter(name -> !name.isEmpty()).collect(Collectors.toSet()));
    }
}
