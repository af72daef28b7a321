package com.multikey.indexer;

import com.multikey.common.ChangeRecord;
import com.multikey.common.PartialBatch;
import com.multikey.index.IndexChange;
import com.multikey.index.IndexKey;
import com.multikey.index.ItemKey;
import com.multikey.index.Rejection;
import com.multikey.index.counts.CountedWrites;
import com.multikey.index.counts.CounterRef;

import java.util.List;
import java.util.Map;
import java.util.Set;

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
 * @param counters       the counter each counted planned key's item counts toward (keys of uncounted items: absent)
 * @param existed        the counted planned keys that held an item before the batch, as the first record touching
 *                       them says (the assumption its conditional write starts from)
 */
public record BatchPlan(
        List<IndexChange> changes,
        Map<IndexKey, ItemKey> itemOfKey,
        Map<ItemKey, ChangeRecord> firstRecord,
        List<PartialBatch.Skipped> skipped,
        List<MissingImage> missingImages,
        List<Rejection> rejections,
        int recordCount,
        int ignoredCount,
        Map<IndexKey, CounterRef> counters,
        Set<IndexKey> existed) {

    public BatchPlan(List<IndexChange> changes, Map<IndexKey, ItemKey> itemOfKey, Map<ItemKey, ChangeRecord> firstRecord,
                     List<PartialBatch.Skipped> skipped, List<MissingImage> missingImages, List<Rejection> rejections,
                     int recordCount, int ignoredCount) {
        this(changes, itemOfKey, firstRecord, skipped, missingImages, rejections, recordCount, ignoredCount, Map.of(), Set.of());
    }

    /** The planned changes split into plain writes and counted ones (each with the counter its item counts toward). */
    public Split split() {
        List<IndexChange> plain = new java.util.ArrayList<>();
        List<CountedWrites.Counted> counted = new java.util.ArrayList<>();
        for (IndexChange change : changes) {
            CounterRef counter = counters.get(change.key());
            if (counter == null) {
                plain.add(change);
            } else {
                counted.add(CountedWrites.of(change, counter, existed.contains(change.key())));
            }
        }
        return new Split(plain, counted);
    }

    /** Plain index writes, and writes of counted index items. */
    public record Split(List<IndexChange> plain, List<CountedWrites.Counted> counted) {
    }

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
