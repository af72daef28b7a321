package com.multikey.dynamodb.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.dynamodb.expression.ConditionExpression;
import com.multikey.dynamodb.expression.ProjectionExpression;
import com.multikey.dynamodb.value.Value;
import com.multikey.dynamodb.value.Values;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads one page of a Query or Scan as DynamoDB does: the Limit counts items read before the filter, a page
 * ends once it has read 1 MB, and LastEvaluatedKey is the key of the last item read when the page ended
 * for either reason.
 */
final class PageReader {

    static final long MAX_PAGE_BYTES = 1024 * 1024;

    private final ReadSource source;
    private final Optional<ConditionExpression> filter;
    private final Optional<ProjectionExpression> projection;
    private final Select select;
    private final Optional<Long> limit;
    private final List<Map<String, Value>> items = new ArrayList<>();
    private int count;
    private int scanned;
    private long bytes;
    private long fetchedBytes;
    private Map<String, Value> lastEvaluatedKey;

    PageReader(ReadSource source, Optional<ConditionExpression> filter, Optional<ProjectionExpression> projection,
               Select select, Optional<Long> limit) {
        this.source = source;
        this.filter = filter;
        this.projection = projection;
        this.select = select;
        this.limit = limit;
    }

    /** Reads one entry; false when the page is full (then it was the last one read). */
    boolean read(Map<String, Value> entry) {
        scanned++;
        bytes += Values.itemSize(entry);
        Map<String, Value> item = select == Select.ALL_ATTRIBUTES || select == Select.SPECIFIC_ATTRIBUTES
                ? source.fullItem(entry) : entry;
        if (item != null && item != entry) {
            fetchedBytes += Values.itemSize(item);
        }
        if (item != null && (filter.isEmpty() || filter.get().test(item))) {
            count++;
            if (select != Select.COUNT) {
                items.add(projection.map(p -> p.project(item)).orElse(item));
            }
        }
        if (limit.map(l -> scanned >= l).orElse(false) || bytes >= MAX_PAGE_BYTES) {
            lastEvaluatedKey = source.lastEvaluatedKey(entry);
            return false;
        }
        return true;
    }

    /** The size of the entries read (of the index's entries when reading an index), what a read is charged on. */
    long bytesRead() {
        return bytes;
    }

    /** The size of the items fetched from the table for the entries of a local index that does not project them. */
    long bytesFetched() {
        return fetchedBytes;
    }

    ObjectNode response() {
        ObjectNode json = Json.object();
        if (select != Select.COUNT) {
            json.set("Items", Json.items(items));
        }
        json.put("Count", count);
        json.put("ScannedCount", scanned);
        if (lastEvaluatedKey != null) {
            json.set("LastEvaluatedKey", Json.item(lastEvaluatedKey));
        }
        return json;
    }
}
