package com.multikey.indexer;

import com.multikey.common.ChangeRecord;
import com.multikey.common.PartialBatch;
import com.multikey.index.IndexChange;
import com.multikey.index.IndexKey;
import com.multikey.index.Rejection;

import java.util.List;
import java.util.Map;

/**
 * What one batch of stream records asks of the index: the net writes, in stream order per key, and what
 * was skipped or left out.
 *
 * @param changes       at most one change per index key: the last one the batch implies
 * @param issueOfKey    the issue each planned key belongs to
 * @param firstRecord   the first record of each issue that has planned changes (where a replay must start)
 * @param skipped       records that can never be processed, with the reason
 * @param rejections    parts of issue images that cannot be indexed
 * @param recordCount   records in the batch
 * @param ignoredCount  records of other entity types
 */
public record BatchPlan(
        List<IndexChange> changes,
        Map<IndexKey, String> issueOfKey,
        Map<String, ChangeRecord> firstRecord,
        List<PartialBatch.Skipped> skipped,
        List<Rejection> rejections,
        int recordCount,
        int ignoredCount) {

    public long puts() {
        return changes.stream().filter(c -> c instanceof IndexChange.Put).count();
    }

    public long deletes() {
        return changes.size() - puts();
    }
}
