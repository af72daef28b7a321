package com.multikey.query;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Which attribute ids a project defines, to tell an unknown attribute from one nobody has set yet. */
public interface AttributeCatalog {

    /** The project's attribute ids; empty when the catalog cannot tell, and then every id is accepted. */
    Optional<Set<String>> attributesOf(String project);

    /** Accepts every attribute id. */
    AttributeCatalog ANY = project -> Optional.empty();

    /**
     * Reads the project's own item in the app table ({@code id} = the project id, its {@code attributes}
     * map keyed by attribute id, as in the design's sample), once per project.
     */
    static AttributeCatalog fromProjectItems(DynamoDbClient dynamoDb, String appTable) {
        Map<String, Optional<Set<String>>> cache = new ConcurrentHashMap<>();
        return project -> cache.computeIfAbsent(project, p -> {
            Map<String, AttributeValue> item = dynamoDb.getItem(b -> b.tableName(appTable)
                    .key(Map.of("id", AttributeValue.fromS(p)))).item();
            if (item == null || item.isEmpty() || item.get("attributes") == null || !item.get("attributes").hasM()) {
                return Optional.empty();
            }
            return Optional.of(Set.copyOf(item.get("attributes").m().keySet()));
        });
    }
}
