package com.multikey.query;

import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The issue grid's fields of a project, from the project's own item in the app table: a string key attribute
 * holding the project id and an {@code attributes} map keyed by attribute id. A project without such an item (or
 * without the map) defines every id.
 *
 * <p>A read is kept for a short time, so a grid's pages do not each read the project; an id the kept copy
 * does not know is looked up again at once before it is refused, so a field added to a project is
 * queryable at once, and a removed one is refused within the time a copy is kept.
 */
public final class ProjectItemFieldCatalog implements GridFieldCatalog {

    /** How long a project's attribute ids are kept. */
    public static final Duration DEFAULT_TTL = Duration.ofSeconds(60);

    private final DynamoDbClient dynamoDb;
    private final String appTable;
    private final String keyAttribute;
    private final long ttlNanos;
    private final LongSupplier nanoClock;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    /**
     * The project's attribute ids (null when its item does not say: every id is accepted) and when they were
     * read, on {@code nanoClock}.
     */
    private record Entry(Set<String> attributes, long readAt) {
    }

    public ProjectItemFieldCatalog(DynamoDbClient dynamoDb, String appTable, String keyAttribute, Duration ttl,
                              LongSupplier nanoClock) {
        if (ttl.isNegative()) {
            throw new IllegalArgumentException("ttl must not be negative, got " + ttl);
        }
        this.dynamoDb = dynamoDb;
        this.appTable = appTable;
        this.keyAttribute = keyAttribute;
        this.ttlNanos = ttl.toNanos();
        this.nanoClock = nanoClock;
    }

    @Override
    public boolean defines(String project, String attribId) {
        return defines(project, attribId, AwsRequestOverrideConfiguration.builder().build());
    }

    @Override
    public boolean defines(String project, String attribId, AwsRequestOverrideConfiguration call) {
        long now = nanoClock.getAsLong();
        Entry kept = entries.get(project);
        if (kept != null && now - kept.readAt() < ttlNanos && accepts(kept, attribId)) {
            return true;
        }
        Entry fresh = read(project, now, call);
        entries.put(project, fresh);
        return accepts(fresh, attribId);
    }

    private static boolean accepts(Entry entry, String attribId) {
        return entry.attributes() == null || entry.attributes().contains(attribId);
    }

    private Entry read(String project, long now, AwsRequestOverrideConfiguration call) {
        Map<String, AttributeValue> item = dynamoDb.getItem(b -> b.tableName(appTable)
                .key(Map.of(keyAttribute, AttributeValue.fromS(project))).overrideConfiguration(call)).item();
        AttributeValue attributes = item == null ? null : item.get("attributes");
        if (attributes == null || !attributes.hasM()) {
            return new Entry(null, now);
        }
        return new Entry(Set.copyOf(attributes.m().keySet()), now);
    }
}
