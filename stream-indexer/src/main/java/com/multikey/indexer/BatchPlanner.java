package com.multikey.indexer;

import com.multikey.common.ChangeKind;
import com.multikey.common.ChangeRecord;
import com.multikey.common.PartialBatch;
import com.multikey.index.IndexChange;
import com.multikey.index.IndexDiff;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.IndexProjector;
import com.multikey.index.ItemKey;
import com.multikey.index.Rejection;
import com.multikey.index.counts.CountLayout;
import com.multikey.index.counts.CounterRef;
import com.multikey.index.definition.Condition;
import com.multikey.index.definition.GridState;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.index.definition.KeySchema;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Turns a batch of change records into the net index writes of every declared index. Each record's change is
 * the diff of its old and new image over all indexes in one pass; the changes of all records are applied in
 * stream order and only the last change per index key is kept, so a replayed, partial or retried batch
 * converges on the index of the latest images.
 */
public final class BatchPlanner {

    /** The definitions of each batch: in the grid state the stack records (read with a short cache), or fixed. */
    private final Supplier<IndexDefinitions> definitions;
    private final Map<GridState, IndexProjector> projectors = new ConcurrentHashMap<>();
    private final IndexProjector projector;
    private final CountLayout counts;

    /** With the configuration's definitions as they are (their grid state fixed). */
    public BatchPlanner(IndexerConfig config) {
        this(config, config::definitions);
    }

    /** With the definitions {@code definitions} gives for each batch (a {@link com.multikey.index.GridLayoutStore}'s current ones). */
    public BatchPlanner(IndexerConfig config, Supplier<IndexDefinitions> definitions) {
        this.definitions = definitions;
        this.projector = new IndexProjector(config.definitions());
        this.counts = new CountLayout(config.definitions());
    }

    private IndexProjector projector() {
        IndexDefinitions now = definitions.get();
        return projectors.computeIfAbsent(now.gridState(), state -> new IndexProjector(now));
    }

    /** The source table's partition key attribute, whose value names a record's item in logs. */
    public String keyAttribute() {
        return projector.table().partitionKey().name();
    }

    /** The net writes of a batch's records (read, in stream order). */
    public BatchPlan plan(List<ChangeRecord> records) {
        IndexProjector projector = projector();
        Map<IndexKey, IndexChange> changes = new LinkedHashMap<>();
        Map<IndexKey, ItemKey> itemOfKey = new HashMap<>();
        Map<ItemKey, ChangeRecord> firstRecord = new LinkedHashMap<>();
        List<PartialBatch.Skipped> skipped = new ArrayList<>();
        List<BatchPlan.MissingImage> missingImages = new ArrayList<>();
        List<Rejection> rejections = new ArrayList<>();
        int ignored = 0;
        Map<IndexKey, CounterRef> counters = new HashMap<>();
        Set<IndexKey> touched = new HashSet<>();
        Set<IndexKey> existed = new HashSet<>();

        for (ChangeRecord record : records) {
            Optional<ItemKey> key = projector.keyOf(record.keys());
            if (key.isEmpty()) {
                skipped.add(new PartialBatch.Skipped(keyText(record), record.eventId(), record.sequenceNumber().orElse(""),
                        "record keys do not match the definitions' table key (" + expectedKey() + ")"));
                continue;
            }
            ItemKey item = key.get();
            Map<String, AttributeValue> oldImage = record.oldImage().orElse(null);
            Map<String, AttributeValue> newImage = record.newImage().orElse(null);
            Optional<String> missing = missingImage(record);
            if (missing.isPresent()) {
                if (mayBeCovered(projector, record)) {
                    missingImages.add(new BatchPlan.MissingImage(item, record, missing.get()));
                } else {
                    ignored++;
                }
                continue;
            }
            if (!projector.coversAny(oldImage) && !projector.coversAny(newImage)) {
                ignored++;
                continue;
            }
            IndexProjector.Changed versions = projector.changed(item, oldImage, newImage);
            rejections.addAll(versions.after().rejections());

            List<IndexChange> diff = IndexDiff.between(versions.before().items(), versions.after().items());
            if (counts.any() && !diff.isEmpty()) {
                noteCounted(diff, versions.before().items(), counters, touched, existed);
            }
            for (IndexChange change : diff) {
                changes.remove(change.key());
                changes.put(change.key(), change);
                itemOfKey.put(change.key(), item);
                firstRecord.putIfAbsent(item, record);
            }
        }
        return new BatchPlan(List.copyOf(changes.values()), itemOfKey, firstRecord, skipped, missingImages, rejections,
                records.size(), ignored, counters, existed);
    }

    /**
     * For each counted key of one record's diff: its counter, and, the first time the batch touches it, whether the
     * record's old version held it (where its conditional write's assumption starts).
     */
    private void noteCounted(List<IndexChange> diff, java.util.Collection<IndexItem> before, Map<IndexKey, CounterRef> counters,
                             Set<IndexKey> touched, Set<IndexKey> existed) {
        Map<IndexKey, IndexItem> old = new HashMap<>();
        before.forEach(item -> old.put(item.key(), item));
        for (IndexChange change : diff) {
            IndexItem item = switch (change) {
                case IndexChange.Put put -> put.item();
                case IndexChange.Delete delete -> old.get(delete.key());
            };
            if (item == null) {
                continue;
            }
            counts.counterOf(item).ifPresent(ref -> {
                counters.put(change.key(), ref);
                if (touched.add(change.key()) && old.containsKey(change.key())) {
                    existed.add(change.key());
                }
            });
        }
    }

    private String expectedKey() {
        return projector.table().attributes().stream().map(a -> a.name() + " (" + a.type() + ")").collect(Collectors.joining(", "));
    }

    /**
     * A record's keys as an item key is written in logs ({@code name=value}, binary in base64), whatever their
     * attributes, types and content: these keys did not make an item key.
     */
    private static String keyText(ChangeRecord record) {
        return new TreeMap<>(record.keys()).entrySet().stream().map(e -> e.getKey() + "=" + switch (e.getValue().type()) {
            case S -> e.getValue().s();
            case N -> e.getValue().n();
            case B -> Base64.getEncoder().encodeToString(e.getValue().b().asByteArrayUnsafe());
            default -> "(" + e.getValue().type() + ")";
        }).collect(Collectors.joining(" "));
    }

    /**
     * Whether an index may cover an item of whose images the record lacks at least one: with an image, when any
     * index covers what is there; without, unless every index has a condition on a key attribute that the keys fail.
     */
    private static boolean mayBeCovered(IndexProjector projector, ChangeRecord record) {
        if (projector.coversAny(record.oldImage().orElse(null)) || projector.coversAny(record.newImage().orElse(null))) {
            return true;
        }
        KeySchema table = projector.table();
        for (IndexDefinition index : projector.definitions().indexes()) {
            boolean keysRuleItOut = false;
            for (Condition condition : index.covers()) {
                if (table.isKeyAttribute(condition.path()) && !condition.test(record.keys())) {
                    keysRuleItOut = true;
                }
            }
            if (!keysRuleItOut) {
                return true;
            }
        }
        return false;
    }

    private static Optional<String> missingImage(ChangeRecord record) {
        boolean needsOld = record.kind() != ChangeKind.INSERT;
        boolean needsNew = record.kind() != ChangeKind.REMOVE;
        if (needsOld && record.oldImage().isEmpty()) {
            return Optional.of(record.kind() + " record has no OldImage");
        }
        if (needsNew && record.newImage().isEmpty()) {
            return Optional.of(record.kind() + " record has no NewImage");
        }
        return Optional.empty();
    }
}
