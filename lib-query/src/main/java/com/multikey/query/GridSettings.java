package com.multikey.query;

import com.multikey.index.definition.IndexDefinitions;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The issue grid's own settings, which a query of any other declared index never uses: the source table's GSI the
 * grid's missing tail reads (key project, num: a project's issues in num order), and the catalog of the fields each
 * project defines, which tells an unknown field from one no issue has set yet. {@link #NONE} for a table whose
 * definitions declare no issue grid.
 *
 * @param byProjectIndex the source table's GSI of the grid's missing tail; null in {@link #NONE} only
 * @param catalog        the fields each project defines; null in {@link #NONE} only
 */
public record GridSettings(String byProjectIndex, GridFieldCatalog catalog) {

    /** The GSI the stack's template gives the app table for the grid's missing tail. */
    public static final String BY_PROJECT_INDEX = "ByProject";

    /** For a table with no issue grid: a query refuses definitions that declare one. */
    public static final GridSettings NONE = new GridSettings(null, null);

    public GridSettings {
        if ((byProjectIndex == null) != (catalog == null)) {
            throw new IllegalArgumentException("the issue grid needs both its ByProject index and its field catalog"
                    + " (GridSettings.NONE for a table with no issue grid)");
        }
    }

    /**
     * The stack's: the missing tail from GSI {@value #BY_PROJECT_INDEX}, the fields from each project's own item in the
     * app table, keyed by the definitions' partition key ({@link GridFieldCatalog#fromProjectItems}).
     */
    public static GridSettings defaults(DynamoDbClient dynamoDb, String appTable, IndexDefinitions definitions) {
        return new GridSettings(BY_PROJECT_INDEX,
                GridFieldCatalog.fromProjectItems(dynamoDb, appTable, definitions.table().partitionKey().name()));
    }

    /** Whether these are the settings of an issue grid, not {@link #NONE}. */
    boolean present() {
        return !equals(NONE);
    }

    /** These settings, refused as {@link #NONE} when the definitions declare the issue grid. */
    GridSettings requireFor(IndexDefinitions definitions) {
        if (!present() && (definitions.fieldPartitionedGrid().isPresent() || definitions.groupedGrid().isPresent())) {
            throw new IllegalArgumentException("the definitions declare the issue grid: give its settings, not GridSettings.NONE");
        }
        return this;
    }
}
