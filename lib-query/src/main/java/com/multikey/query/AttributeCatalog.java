package com.multikey.query;

import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** Which attribute ids a project defines, to tell an unknown attribute from one nobody has set yet. */
public interface AttributeCatalog {

    /** Whether the project defines the attribute; {@code true} when the catalog cannot tell. */
    boolean defines(String project, String attribId);

    /**
     * As {@link #defines(String, String)}, a read it makes bounded by {@code call} (the page's time budget): a catalog that
     * reads DynamoDB applies it; others answer as they always do.
     */
    default boolean defines(String project, String attribId, AwsRequestOverrideConfiguration call) {
        return defines(project, attribId);
    }

    /**
     * Reads the project's own item in the app table (key attribute = the project id, its {@code attributes}
     * map keyed by attribute id, as in the design's sample), kept for {@link ProjectItemCatalog#DEFAULT_TTL}.
     */
    static AttributeCatalog fromProjectItems(DynamoDbClient dynamoDb, String appTable, String keyAttribute) {
        return new ProjectItemCatalog(dynamoDb, appTable, keyAttribute, ProjectItemCatalog.DEFAULT_TTL, System::nanoTime);
    }
}
