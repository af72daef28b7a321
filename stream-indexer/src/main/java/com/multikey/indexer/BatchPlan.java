package com.multikey.indexer;

import com.multikey.common.ChangeRecord;
import com.multikey.common.PartialBatch;
import com.multikey.index.IndexChange;
import com.multikey.index.IndexKey;
import com.multikey.index.ItemKey;
import com.multikey.index.Rejection;

import java.util.List;
import java.util.Map;

/**
 * What one batch of stream records asks of the index: the net writes, in stream order per key, and what
 * was skipped or left out.
 *
 * @param changes        at most one change per index key: the last one the batch implies, across every declared index
 * @param itemOfKey      the source item each planned key belongs to
 * @param firstRecord    the first record of each item that has planned changes (where a replay must start)
 * @param skipped        records that can never be processed, with the reason
 * @param missingImages  records that lack an image an index needs (the stream's view type is wrong): never
 *                       skipped, they are delivered again until they reach the failure destination
 * @param rejections     parts of item images that cannot be indexed
 * @param recordCount    records in the batch
 * @param ignoredCount   records of items no index covers
 */
public record BatchPlan(
        List<IndexChange> changes,
        Map<IndexKey, ItemKey> itemOfKey,
        Map<ItemKey, ChangeRecord> firstRecord,
        List<PartialBatch.Skipped> skipped,
        List<MissingImage> missingImages,
        List<Rejection> rejections,
        int recordCount,
        int ignoredCount) {

    /** A record without the image an index needs. */
    public record MissingImage(ItemKey item, ChangeRecord record, String reason) {
    }

    public long puts() {
        return changes.stream().filter(c -> c instanceof IndexChange.Put).count();
    }

    public long deletes() {
        return changes.size() - puts();
    }
}
