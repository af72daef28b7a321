package com.multikey.cli;

import com.multikey.index.DynamoDbLimits;
import com.multikey.index.IndexChange;
import com.multikey.index.IndexDiff;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexProjector;
import com.multikey.index.ItemKey;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Map;

/**
 * What one declared index does with a sample, by the indexer's own projection and diff: the items it covers, the
 * index items each implies and their size, and the index writes of a {@link TypicalChanges typical change}.
 *
 * @param sampled          items in the sample
 * @param covered          sampled items the index covers
 * @param indexItems       index items the covered items imply
 * @param indexItemBytes   mean size of an index item (names and values; DynamoDB stores {@value #ITEM_OVERHEAD_BYTES} bytes more)
 * @param changes          typical changes made (one per covered item that has a value to change)
 * @param writes           index writes those changes cost (puts and deletes)
 * @param writeUnits       write request units of those writes (1 per KB of each index item, rounded up)
 */
record IndexMeasurement(String index, int sampled, int covered, long indexItems, double indexItemBytes, int changes, long writes,
                        long writeUnits) {

    /** DynamoDB counts 100 bytes of overhead per item in its storage (and in an index's). */
    static final int ITEM_OVERHEAD_BYTES = 100;

    double indexItemsPerCoveredItem() {
        return covered == 0 ? 0 : (double) indexItems / covered;
    }

    double coveredShare() {
        return sampled == 0 ? 0 : (double) covered / sampled;
    }

    double writesPerChange() {
        return changes == 0 ? 0 : (double) writes / changes;
    }

    double writeUnitsPerChange() {
        return changes == 0 ? 0 : (double) writeUnits / changes;
    }

    static IndexMeasurement of(IndexDefinitions definitions, IndexDefinition index, List<Map<String, AttributeValue>> sample) {
        IndexProjector projector = new IndexProjector(definitions);
        int covered = 0;
        long items = 0;
        double bytes = 0;
        for (Map<String, AttributeValue> item : sample) {
            if (!index.covers(item)) {
                continue;
            }
            covered++;
            ItemKey key = projector.keyOf(item).orElse(null);
            if (key == null) {
                continue;
            }
            for (IndexItem indexItem : projector.project(index.name(), key, item).items()) {
                items++;
                bytes += size(indexItem);
            }
        }
        List<TypicalChanges.Change> changes = TypicalChanges.of(index, definitions.table(), sample);
        long writes = 0;
        long units = 0;
        for (TypicalChanges.Change change : changes) {
            IndexProjector.Changed versions = projector.changed(index.name(), change.key(), change.before(), change.after());
            for (IndexChange write : IndexDiff.between(versions.before().items(), versions.after().items())) {
                writes++;
                units += switch (write) {
                    case IndexChange.Put put -> units(size(put.item()));
                    case IndexChange.Delete delete -> units(deletedSize(versions.before().items(), delete));
                };
            }
        }
        return new IndexMeasurement(index.name(), sample.size(), covered, items, items == 0 ? 0 : bytes / items, changes.size(), writes, units);
    }

    private static long size(IndexItem item) {
        return DynamoDbLimits.itemBytes(item.toItem());
    }

    /** A delete bills the size of the item it deletes. */
    private static long deletedSize(java.util.Collection<IndexItem> before, IndexChange.Delete delete) {
        return before.stream().filter(item -> item.key().equals(delete.key())).mapToLong(IndexMeasurement::size).findFirst().orElse(1);
    }

    private static long units(long bytes) {
        return Math.max(1, (bytes + 1023) / 1024);
    }
}
