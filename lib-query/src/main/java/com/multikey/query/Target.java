package com.multikey.query;

import com.multikey.index.DynamoDbLimits;
import com.multikey.index.IndexProjector;
import com.multikey.index.UnindexableValueException;
import com.multikey.index.ValueBounds;
import com.multikey.index.definition.Condition;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.index.definition.KeySchema;
import com.multikey.index.definition.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Optional;

/**
 * What a request reads: its index, the index partition, the project a field-partitioned partition is filtered on,
 * the bounds of the index's values, and where the group's items lacking the field come from.
 */
record Target(IndexDefinition index, String partition, Optional<String> project, ValueBounds bounds, MissingSource missing) {

    /** Where the items of a group that have no index item for the field (the missing tail) are read from. */
    sealed interface MissingSource {

        /** The issue grid's: GSI {@code ByProject} of the app table (key project, num), in num order. */
        record ByProject(GridNames names, String project) implements MissingSource {
        }

        /**
         * A grouped index whose group is the source table's partition key: a Query on the group's partition of the
         * table, in the table's sort key order, narrowed by the index's {@code beginsWith} on the sort key, if any.
         */
        record TablePartition(KeySchema table, AttributeValue group, Optional<String> sortKeyPrefix) implements MissingSource {
        }

        /** None: nothing lists a group's items but the index itself; why. */
        record Unavailable(String reason) implements MissingSource {
        }
    }

    /**
     * @param current     the definitions in the stack's grid state (which of the grid's layouts is read)
     * @param definitions the definitions the reader was given (the source table's key schema)
     */
    static Target of(PageRequest request, IndexDefinitions current, IndexDefinitions definitions, IndexProjector projector) {
        IndexDefinition named = request.index()
                .map(name -> current.index(name).orElseThrow(() -> new QueryException(QueryException.Subject.INDEX, "no index named '" + name + "'")))
                .orElseGet(() -> current.grid()
                        .orElseThrow(() -> new QueryException(QueryException.Subject.INDEX, "name the index to read: no issue grid (field-partitioned) index is declared")));
        // either name of the issue grid reads the layout the stack's grid state reads
        IndexDefinition index = current.isGrid(named) ? current.grid().orElse(named) : named;
        ValueBounds bounds = projector.bounds(index.name());
        boolean entries = index.values() instanceof ValueSource.MapEntries;
        if (index.values() instanceof ValueSource.Words) {
            throw new QueryException(QueryException.Subject.INDEX, "index '" + index.name() + "' holds the words of " + index.values().path()
                    + ": it answers has and has prefix on a page of another index (e.g. where " + index.values().path()
                    + " has \"word\"), and lists no page of its own");
        }
        if (entries && request.attribId().isEmpty()) {
            throw new QueryException(QueryException.Subject.ENTRY, "index '" + index.name() + "' indexes the entries of " + index.values().path() + ": name the entry");
        }
        if (!entries && !request.attribId().isEmpty()) {
            throw new QueryException(QueryException.Subject.ENTRY, "index '" + index.name() + "' indexes " + index.values().path() + " itself: it has no entries to name");
        }
        if (current.isGrid(index)) {
            if (request.group().size() != 1 || request.group().get(0).s() == null) {
                throw new QueryException(QueryException.Subject.GROUP, "index '" + index.name() + "' runs within one project: give one string group value");
            }
            // the project keys the project's item (the catalog's GetItem) and the field keys the index partition: a value no
            // key holds is the caller's mistake, which DynamoDB would refuse with a ValidationException (a 503 to retry)
            String project = request.group().get(0).s();
            if (project.isEmpty() || DynamoDbLimits.utf8Bytes(project) > DynamoDbLimits.MAX_PARTITION_KEY_BYTES) {
                throw new QueryException(QueryException.Subject.GROUP, "index '" + index.name() + "' runs within one project: a group (project) value is 1 to "
                        + DynamoDbLimits.MAX_PARTITION_KEY_BYTES + " bytes long, as a key is");
            }
            if (DynamoDbLimits.utf8Bytes(request.attribId()) > DynamoDbLimits.MAX_PARTITION_KEY_BYTES) {
                throw new QueryException(QueryException.Subject.ENTRY, "index '" + index.name() + "' has no attribute id longer than "
                        + DynamoDbLimits.MAX_PARTITION_KEY_BYTES + " bytes (the longest key)");
            }
            MissingSource byProject = new MissingSource.ByProject(GridNames.of(index, current), project);
            if (index.layout() == IndexDefinition.Layout.FIELD_PARTITIONED) {
                return new Target(index, request.attribId(), Optional.of(project), bounds, byProject);
            }
            // the grouped grid: the project's own partition of the field, no filter
            return new Target(index, IndexProjector.partition(index, request.group(), request.attribId()), Optional.empty(), bounds,
                    byProject);
        }
        if (request.group().size() != index.group().size()) {
            throw new QueryException(QueryException.Subject.GROUP, "index '" + index.name() + "' runs within " + index.group() + ": give "
                    + index.group().size() + " group value(s), got " + request.group().size());
        }
        MissingSource missing = missingSource(index, request.group(), definitions);
        if (request.includeMissing() && missing instanceof MissingSource.Unavailable unavailable) {
            throw new QueryException(QueryException.Subject.MISSING, unavailable.reason());
        }
        String partition;
        try {
            partition = IndexProjector.partition(index, request.group(), entries ? request.attribId() : null);
        } catch (UnindexableValueException e) {
            throw new QueryException(QueryException.Subject.GROUP, "index '" + index.name() + "' has no group of that value: " + e.getMessage());
        }
        if (DynamoDbLimits.utf8Bytes(partition) > DynamoDbLimits.MAX_PARTITION_KEY_BYTES) {
            throw new QueryException(QueryException.Subject.GROUP, "index '" + index.name() + "': the group and entry make a partition key longer than "
                    + DynamoDbLimits.MAX_PARTITION_KEY_BYTES + " bytes, which no index item has");
        }
        return new Target(index, partition, Optional.empty(), bounds, missing);
    }

    /**
     * The missing tail of a grouped index: a Query on the source table when the group is the table's partition key
     * (a partition of the table holds exactly the group's items), else none, since finding the items of a group
     * that the index leaves out would take a scan of the table.
     */
    private static MissingSource missingSource(IndexDefinition index, List<AttributeValue> group, IndexDefinitions definitions) {
        KeySchema table = definitions.table();
        KeySchema.KeyAttribute partitionKey = table.partitionKey();
        if (index.group().size() != 1 || !index.group().get(0).isTopLevel()
                || !index.group().get(0).names().get(0).equals(partitionKey.name())) {
            return new MissingSource.Unavailable("the items lacking the field are listed for the issue grid (from its ByProject "
                    + "index) and for an index grouped by the table's partition key (" + partitionKey.name() + "); index '"
                    + index.name() + "' is grouped by " + index.group() + ": no source lists its group's items but the index itself");
        }
        if (group.get(0).type() != partitionKey.type().attributeType()) {
            throw new QueryException(QueryException.Subject.GROUP, "index '" + index.name() + "' is grouped by " + partitionKey.name()
                    + ", the table's partition key of type " + partitionKey.type() + ": give a group value of that type");
        }
        Optional<String> prefix = table.sortKey().filter(sortKey -> sortKey.type() == KeySchema.KeyType.S)
                .flatMap(sortKey -> index.covers().stream()
                        .filter(condition -> condition instanceof Condition.BeginsWith && condition.path().isTopLevel()
                                && condition.path().names().get(0).equals(sortKey.name()))
                        .map(condition -> ((Condition.BeginsWith) condition).prefix())
                        .filter(text -> !text.isEmpty())
                        .findFirst());
        return new MissingSource.TablePartition(table, group.get(0), prefix);
    }

    /** The issue grid's attribute names, from its field-partitioned definition, for its missing tail. */
    record GridNames(String key, String project, String num, String fields) {
        static GridNames of(IndexDefinition index, IndexDefinitions definitions) {
            return new GridNames(definitions.table().partitionKey().name(), index.group().get(0).toString(),
                    index.orderBy().get(0).path().toString(), index.values().path().toString());
        }
    }
}
