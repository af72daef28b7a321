package com.multikey.query;

import com.multikey.index.SortKeyCodec;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The missing tail of a page: the group's items that have no index item for the sorted field, after the index part —
 * for the grid from GSI {@code ByProject} in num order, for an index grouped by the source table's partition key
 * from that partition of the table in its sort key order — each tested against the request's predicates.
 */
final class TailRead {

    private final Listing listing;
    private final PageReads reads;
    /** What earlier pages (and this one's index part) learned: sizes the reads. */
    private final Knowledge known;
    /** The items the page still needs. */
    private final int need;
    /** The items this read listed, in page order. */
    private final List<Part.Listed> listed = new ArrayList<>();
    /** Items of the tail the page evaluated: those its reads evaluated, up to the last one it consumed. */
    private long evaluated;

    TailRead(Listing listing, PageReads reads, Knowledge known, int need) {
        this.listing = listing;
        this.reads = reads;
        this.known = known;
        this.need = need;
    }

    private boolean isFull() {
        return listed.size() >= need;
    }

    /** From {@code position}: the items listed, and where the next page resumes (empty when the tail ended). Used once. */
    Part read(Map<String, AttributeValue> position, Part.Explained explained) {
        Optional<Cursor> next = from(position);
        Knowledge learned = evaluated > 0 ? known.withLastTailRead(evaluated, listed.size()) : known;
        return new Part(listed, next, learned, explained);
    }

    private Optional<Cursor> from(Map<String, AttributeValue> position) {
        ReadLimits limits = new ReadLimits(known, !listing.tests().isEmpty(), () -> need - listed.size(), reads, false);
        while (!isFull() && reads.mayRead()) {
            QueryResponse response = switch (listing.target().missing()) {
                case Target.MissingSource.ByProject grid -> queryByProject(grid.names(), position, limits.limit());
                case Target.MissingSource.TablePartition table -> queryTablePartition(table, position, limits.limit());
                case Target.MissingSource.Unavailable unavailable -> throw new QueryException(QueryException.Subject.MISSING, unavailable.reason());
            };
            List<Map<String, AttributeValue>> items = response.items();
            int before = listed.size();
            for (int i = 0; i < items.size(); i++) {
                Map<String, AttributeValue> item = items.get(i);
                if (lacksField(item) && (listing.tests().isEmpty()
                        || listing.projector().keyOf(item).map(key -> listing.tests().allMatch(key, item)).orElse(false))) {
                    if (isFull()) {
                        // of what the read evaluated, about the share before this item
                        evaluated += (long) Math.ceil((double) response.scannedCount() * i / items.size());
                        return Optional.of(new Cursor(Cursor.Part.MISSING, i == 0 ? position : missingKey(items.get(i - 1))));
                    }
                    listed.add(new Part.Listed(item, null));
                }
            }
            evaluated += response.scannedCount();
            if (!response.hasLastEvaluatedKey() || response.lastEvaluatedKey().isEmpty()) {
                return Optional.empty();
            }
            position = response.lastEvaluatedKey();
            limits.record(response.scannedCount(), listed.size() - before);
        }
        return Optional.of(new Cursor(Cursor.Part.MISSING, position));
    }

    /**
     * The definition of "missing" is the indexer's: the item (in a table partition: one the index covers) has no
     * index item in the request's partition (the field's, or the group's and entry's).
     */
    private boolean lacksField(Map<String, AttributeValue> item) {
        Target target = listing.target();
        if (target.missing() instanceof Target.MissingSource.TablePartition && !target.index().covers(item)) {
            return false;
        }
        return listing.projector().keyOf(item).map(key -> listing.projector().projectEntry(target.index().name(), key, item,
                        listing.request().attribId())
                .items().stream().noneMatch(indexItem -> indexItem.attribId().equals(target.partition()))).orElse(false);
    }

    /** The key a missing part's Query resumes after this item: its GSI key and table key, or its table key. */
    private Map<String, AttributeValue> missingKey(Map<String, AttributeValue> item) {
        if (listing.target().missing() instanceof Target.MissingSource.ByProject grid) {
            Target.GridNames names = grid.names();
            return Map.of(names.key(), item.get(names.key()), names.project(), item.get(names.project()),
                    names.num(), item.get(names.num()));
        }
        return listing.projector().keyOf(item).orElseThrow().toKey();
    }

    /**
     * A read of the project's issues in num order. The filter only narrows what comes back: it drops
     * issues whose field is a string, number, boolean or set — values that always get an index item —
     * unless the issue's id may be too long for a sort key; {@link #lacksField} decides.
     */
    private QueryResponse queryByProject(Target.GridNames grid, Map<String, AttributeValue> position, int limit) {
        PageRequest request = listing.request();
        QueryRequest.Builder query = QueryRequest.builder().tableName(reads.tables().appTable()).indexName(reads.tables().grid().byProjectIndex())
                .keyConditionExpression("#p = :p")
                .filterExpression("NOT (attribute_type(#cf.#f, :s) OR attribute_type(#cf.#f, :n) OR attribute_type(#cf.#f, :bool)"
                        + " OR attribute_type(#cf.#f, :ss) OR attribute_type(#cf.#f, :ns)) OR size(#id) > :idChars")
                .expressionAttributeNames(Map.of("#p", grid.project(), "#cf", grid.fields(),
                        "#f", request.attribId(), "#id", grid.key()))
                .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(request.project()),
                        ":s", AttributeValue.fromS("S"), ":n", AttributeValue.fromS("N"), ":bool", AttributeValue.fromS("BOOL"),
                        ":ss", AttributeValue.fromS("SS"), ":ns", AttributeValue.fromS("NS"),
                        // a character is at most four UTF-8 bytes, whether size() counts characters or bytes
                        ":idChars", AttributeValue.fromN(Integer.toString(SortKeyCodec.MAX_ISSUE_ID_BYTES / 4))))
                .scanIndexForward(listing.ascending()).limit(limit);
        return reads.table(query, position);
    }

    /**
     * A read of the group's partition of the source table, in its sort key order, narrowed to the keys the index's
     * {@code beginsWith} on the sort key allows; which of the items lack the field {@link #lacksField} decides.
     */
    private QueryResponse queryTablePartition(Target.MissingSource.TablePartition table, Map<String, AttributeValue> position, int limit) {
        Map<String, String> names = new HashMap<>(Map.of("#pk", table.table().partitionKey().name()));
        Map<String, AttributeValue> values = new HashMap<>(Map.of(":pk", table.group()));
        String keyCondition = "#pk = :pk";
        if (table.sortKeyPrefix().isPresent()) {
            keyCondition += " AND begins_with(#sk, :prefix)";
            names.put("#sk", table.table().sortKey().orElseThrow().name());
            values.put(":prefix", AttributeValue.fromS(table.sortKeyPrefix().get()));
        }
        return reads.table(QueryRequest.builder().tableName(reads.tables().appTable()).keyConditionExpression(keyCondition)
                .expressionAttributeNames(names).expressionAttributeValues(values)
                .scanIndexForward(listing.ascending()).limit(limit), position);
    }
}
