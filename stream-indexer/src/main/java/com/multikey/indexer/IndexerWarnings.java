package com.multikey.indexer;

import com.multikey.common.StructuredLog;
import com.multikey.index.DynamoDbLimits;
import com.multikey.index.IndexChange;
import com.multikey.index.ItemKey;
import com.multikey.index.Rejection;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The warning lines {@link StreamIndexer} writes about a batch, each with its fields: what it could not index, write
 * or read. Keys, counts and reasons only, never an image.
 */
record IndexerWarnings(StructuredLog log) {

    /** The grid layout state could not be read, so the whole batch goes back. */
    void layoutStateNotRead(int records, Exception cause) {
        log.warn("grid layout state not read; records reported for redelivery", Map.of("records", records,
                "errorType", cause.getClass().getSimpleName()));
    }

    /** An item, or one of its fields, that an index leaves out. */
    void rejected(Rejection rejection) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("itemKey", rejection.itemKeyText());
        fields.put("index", rejection.index());
        String message = switch (rejection) {
            case Rejection.Image image -> "item not indexed";
            case Rejection.Field field -> {
                fields.put("attribId", field.attribId());
                yield "field not indexed";
            }
        };
        fields.put("reason", rejection.reason());
        log.warn(message, fields);
    }

    /** A field indexed without a copy of its value, which would not fit in the index item. */
    void valueNotCopied(IndexChange.Put put) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("itemKey", put.item().itemKeyText());
        fields.put("index", put.item().index());
        fields.put("attribId", put.item().attribId());
        fields.put("reason", "index item would exceed " + DynamoDbLimits.MAX_ITEM_BYTES + " bytes with the value");
        log.warn("field indexed without a copy of its value", fields);
    }

    /** An index write DynamoDB refused for good, of the item {@code item}. */
    void writeRefused(IndexWriter.Refused refused, ItemKey item) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("itemKey", String.valueOf(item));
        fields.put("attribId", refused.key().attribId());
        fields.put("errorCode", refused.errorCode());
        log.warn("index write refused by DynamoDB and skipped", fields);
    }

    /** Index writes that failed, so that their items' records go back from {@code lowestSequenceNumber} on. */
    void writesFailed(int failedWrites, int failedItems, String lowestSequenceNumber) {
        log.warn("index writes failed; records reported for redelivery", Map.of(
                "failedWrites", failedWrites, "failedItems", failedItems,
                "lowestSequenceNumber", lowestSequenceNumber));
    }

    /** A record of {@code table} without the images an index needs, reported as failed. */
    void missingImage(BatchPlan.MissingImage missing, String table) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("table", table);
        fields.put("itemKey", missing.item().toString());
        fields.put("sequenceNumber", missing.record().sequenceNumber().orElse(""));
        fields.put("reason", missing.reason());
        fields.put("action", "set the table's StreamViewType to " + StreamIndexer.NEEDED_VIEW_TYPE
                + "; the record goes to the on-failure destination after the retries");
        log.warn("stream record lacks the images an index needs; reported as failed", fields);
    }
}
