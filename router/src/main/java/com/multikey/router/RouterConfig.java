package com.multikey.router;

import com.multikey.common.Environment;

import java.util.Map;
import java.util.Objects;

/**
 * The router's settings, from the function's environment (set in {@code template.yaml}).
 *
 * @param eventBusName    {@code EVENT_BUS_NAME}: the app's bus
 * @param eventSource     {@code EVENT_SOURCE} (default {@code multikey.app-table}): the events' {@code Source}
 * @param tableArn        {@code TABLE_ARN}: the app table, the events' {@code Resources}
 * @param keyAttribute    {@code KEY_ATTRIBUTE} (default {@code id}): its prefix before {@code #} is the entity type
 * @param includeImages   {@code INCLUDE_IMAGES} (default {@code true}): put old and new images in the detail
 * @param maxEntryBytes   {@code MAX_ENTRY_BYTES} (default 262144, the limit everywhere before 2026; regions with
 *                        the 1 MB limit may raise it): an entry above it is sent without images
 */
public record RouterConfig(String eventBusName, String eventSource, String tableArn, String keyAttribute,
                           boolean includeImages, int maxEntryBytes) {

    public static final int DEFAULT_MAX_ENTRY_BYTES = 256 * 1024;

    public RouterConfig {
        Objects.requireNonNull(eventBusName, "eventBusName");
        Objects.requireNonNull(eventSource, "eventSource");
        Objects.requireNonNull(tableArn, "tableArn");
        Objects.requireNonNull(keyAttribute, "keyAttribute");
        if (maxEntryBytes < 1024) {
            throw new IllegalArgumentException("MAX_ENTRY_BYTES must be at least 1024, got " + maxEntryBytes);
        }
    }

    public static RouterConfig fromEnvironment(Map<String, String> env) {
        return new RouterConfig(
                Environment.required(env, "EVENT_BUS_NAME"),
                env.getOrDefault("EVENT_SOURCE", "multikey.app-table"),
                Environment.required(env, "TABLE_ARN"),
                env.getOrDefault("KEY_ATTRIBUTE", "id"),
                Boolean.parseBoolean(env.getOrDefault("INCLUDE_IMAGES", "true")),
                Integer.parseInt(env.getOrDefault("MAX_ENTRY_BYTES", Integer.toString(DEFAULT_MAX_ENTRY_BYTES))));
    }
}
