package com.multikey.indexer;

import com.multikey.common.ChangeKind;
import com.multikey.common.ChangeRecord;
import com.multikey.common.PartialBatch;
import com.multikey.index.IndexChange;
import com.multikey.index.IndexDiff;
import com.multikey.index.IndexKey;
import com.multikey.index.IssueProjector;
import com.multikey.index.Rejection;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns a batch of change records into the net index writes. Each record's change is the diff of its old
 * and new image; the changes of all records are applied in stream order and only the last change per
 * index key is kept, so a replayed, partial or retried batch converges on the index of the latest images.
 */
public final class BatchPlanner {

    private final IndexerConfig config;
    private final IssueProjector issueIndexer;

    public BatchPlanner(IndexerConfig config) {
        this.config = config;
        this.issueIndexer = new IssueProjector(config.schema());
    }

    /** The app table's key attribute, whose value names a record's item. */
    public String keyAttribute() {
        return config.schema().keyAttribute();
    }

    /** The net writes of a batch's records (read, in stream order). */
    public BatchPlan plan(List<ChangeRecord> records) {
        Map<IndexKey, IndexChange> changes = new LinkedHashMap<>();
        Map<IndexKey, String> issueOfKey = new HashMap<>();
        Map<String, ChangeRecord> firstRecord = new LinkedHashMap<>();
        List<PartialBatch.Skipped> skipped = new ArrayList<>();
        List<Rejection> rejections = new ArrayList<>();
        int ignored = 0;

        for (ChangeRecord record : records) {
            Optional<String> id = record.stringKey(config.schema().keyAttribute());
            if (id.isEmpty() || !config.schema().isIssue(id.get())) {
                ignored++;
                continue;
            }
            String issueId = id.get();
            Optional<String> missing = missingImage(record);
            if (missing.isPresent()) {
                skipped.add(new PartialBatch.Skipped(issueId, record.eventId(), record.sequenceNumber().orElse(""), missing.get()));
                continue;
            }
            IssueProjector.ChangedProjections versions = issueIndexer.changed(issueId, record.oldImage().orElse(null),
                    record.newImage().orElse(null));
            rejections.addAll(versions.after().rejections());

            for (IndexChange change : IndexDiff.between(versions.before().items(), versions.after().items())) {
                changes.remove(change.key());
                changes.put(change.key(), change);
                issueOfKey.put(change.key(), issueId);
                firstRecord.putIfAbsent(issueId, record);
            }
        }
        return new BatchPlan(List.copyOf(changes.values()), issueOfKey, firstRecord, skipped, rejections,
                records.size(), ignored);
    }

    private static Optional<String> missingImage(ChangeRecord record) {
        boolean needsOld = record.kind() != ChangeKind.INSERT;
        boolean needsNew = record.kind() != ChangeKind.REMOVE;
        if (needsOld && record.oldImage().isEmpty()) {
            return Optional.of(record.kind() + " record has no OldImage; the stream view type must be NEW_AND_OLD_IMAGES");
        }
        if (needsNew && record.newImage().isEmpty()) {
            return Optional.of(record.kind() + " record has no NewImage; the stream view type must be NEW_AND_OLD_IMAGES");
        }
        return Optional.empty();
    }
}
