package com.multikey.query;

import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The issue grid's fields a project defines (its custom fields, by attribute id), to tell an unknown field from one
 * no issue has set yet: the grid refuses the first and answers the second with its missing tail. Only the grid asks;
 * a query of any other declared index has no catalog ({@link GridSettings}).
 */
public interface GridFieldCatalog {

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
     * map keyed by attribute id, as in the design's sample), kept for {@link ProjectItemFieldCatalog#DEFAULT_TTL}.
     */
    static GridFieldCatalog fromProjectItems(DynamoDbClient dynamoDb, String appTable, String keyAttribute) {
        return new ProjectItemFieldCatalog(dynamoDb, appTable, keyAttribute, ProjectItemFieldCatalog.DEFAULT_TTL, System::nanoTime);
    }
}
