package com.multikey.router;

import com.multikey.common.Environment;
import com.multikey.index.definition.IndexDefinitions;

import java.util.Map;
import java.util.Objects;

/**
 * The router's settings, from the function's environment (set in {@code template.yaml}).
 *
 * @param eventBusName    {@code EVENT_BUS_NAME}: the app's bus
 * @param eventSource     {@code EVENT_SOURCE} (default {@code multikey.app-table}): the events' {@code Source}
 * @param tableArn        {@code TABLE_ARN}: the app table, the events' {@code Resources}
 * @param definitions     the index definitions ({@code INDEX_DEFINITIONS}, else the packaged file): the table's key and
 *                        how an item's entity type is told
 * @param includeImages   {@code INCLUDE_IMAGES} (default {@code true}): put old and new images in the detail
 * @param maxEntryBytes   {@code MAX_ENTRY_BYTES} (default 262144, the limit everywhere before 2026; regions with
 *                        the 1 MB limit may raise it): entries and calls stay strictly below it; an entry that
 *                        would not is sent without images
 * @throws IllegalArgumentException when a setting can never be accepted by PutEvents (checked at start-up, so a
 *                                  misconfigured function fails at once instead of refusing every event)
 */
public record RouterConfig(String eventBusName, String eventSource, String tableArn, IndexDefinitions definitions,
                           boolean includeImages, int maxEntryBytes) {

    public static final int DEFAULT_MAX_ENTRY_BYTES = 256 * 1024;

    public RouterConfig {
        Objects.requireNonNull(eventBusName, "eventBusName");
        Objects.requireNonNull(eventSource, "eventSource");
        Objects.requireNonNull(tableArn, "tableArn");
        Objects.requireNonNull(definitions, "definitions");
        if (maxEntryBytes < 1024 || maxEntryBytes > PutEventsLimits.MAX_ENTRY_BYTES_QUOTA) {
            throw new IllegalArgumentException("MAX_ENTRY_BYTES must be between 1024 and " + PutEventsLimits.MAX_ENTRY_BYTES_QUOTA
                    + " (the largest PutEvents quota), got " + maxEntryBytes);
        }
        int sourceChars = PutEventsLimits.characters(eventSource);
        if (sourceChars < 1 || sourceChars > PutEventsLimits.MAX_SOURCE_CHARS || eventSource.startsWith(PutEventsLimits.RESERVED_SOURCE_PREFIX)) {
            throw new IllegalArgumentException("EVENT_SOURCE must have 1 to " + PutEventsLimits.MAX_SOURCE_CHARS
                    + " characters and not start with '" + PutEventsLimits.RESERVED_SOURCE_PREFIX + "' (PutEvents Source), got "
                    + sourceChars + " characters");
        }
        if (eventBusName.length() > PutEventsLimits.MAX_EVENT_BUS_NAME_CHARS || !PutEventsLimits.EVENT_BUS_NAME.matcher(eventBusName).matches()) {
            throw new IllegalArgumentException("EVENT_BUS_NAME must be an event bus name or ARN of at most "
                    + PutEventsLimits.MAX_EVENT_BUS_NAME_CHARS + " characters (PutEvents EventBusName), got '" + eventBusName + "'");
        }
        if (tableArn.isEmpty() || PutEventsLimits.characters(tableArn) > PutEventsLimits.MAX_RESOURCE_CHARS) {
            throw new IllegalArgumentException("TABLE_ARN must have 1 to " + PutEventsLimits.MAX_RESOURCE_CHARS
                    + " characters (PutEvents Resources)");
        }
    }

    /** The table's partition key attribute, which names a record's item in logs. */
    public String keyAttribute() {
        return definitions.table().partitionKey().name();
    }

    public static RouterConfig fromEnvironment(Map<String, String> env) {
        return new RouterConfig(
                Environment.required(env, "EVENT_BUS_NAME"),
                env.getOrDefault("EVENT_SOURCE", "multikey.app-table"),
                Environment.required(env, "TABLE_ARN"),
                IndexDefinitions.fromEnvironment(env),
                Boolean.parseBoolean(env.getOrDefault("INCLUDE_IMAGES", "true")),
                Integer.parseInt(env.getOrDefault("MAX_ENTRY_BYTES", Integer.toString(DEFAULT_MAX_ENTRY_BYTES))));
    }
}
