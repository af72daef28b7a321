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
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Plans the index writes of a batch whose records may come twice and out of order: per item, the records newer than
 * the item's {@link ItemState} (by {@link ChangeOrder}) are folded in version order, and the writes are the diff from
 * the image the index holds to the newest image. An item without a state (never indexed this way) starts from its
 * first applied record's old image, as the in-order indexer does. Records no newer than the state write nothing.
 */
public final class VersionedBatchPlanner {

    private final Function<List<ChangeRecord>, IndexProjector> projectors;

    /** @param projectors the projector of a batch's definitions (the grid state the stack records) */
    public VersionedBatchPlanner(Function<List<ChangeRecord>, IndexProjector> projectors) {
        this.projectors = projectors;
    }

    /** What one item's records ask of the index. */
    public record ItemPlan(ItemKey item, List<ChangeRecord> records, List<IndexChange> changes,
                           Optional<ItemState> expected, Optional<ItemState> next) {
        public ItemPlan {
            records = List.copyOf(records);
            changes = List.copyOf(changes);
        }

        /** The record Lambda restarts from when this item's writes fail: its first in the batch. */
        public ChangeRecord firstRecord() {
            return records.getFirst();
        }
    }

    /**
     * @param items         one plan per item with readable records, in the order of their first record
     * @param skipped       records that can never be processed
     * @param missingImages records without the new image an index needs
     * @param stale         records no newer than what the index holds (duplicates and late records)
     */
    public record Plan(List<ItemPlan> items, List<PartialBatch.Skipped> skipped, List<BatchPlan.MissingImage> missingImages,
                       List<Rejection> rejections, int stale, IndexProjector projector) {
    }

    /** The items of a batch's readable records, each with its records (in arrival order), before any state is read. */
    public Grouped group(List<ChangeRecord> records) {
        IndexProjector projector = projectors.apply(records);
        Map<ItemKey, List<ChangeRecord>> byItem = new LinkedHashMap<>();
        List<PartialBatch.Skipped> skipped = new ArrayList<>();
        List<BatchPlan.MissingImage> missing = new ArrayList<>();
        for (ChangeRecord record : records) {
            Optional<ItemKey> key = projector.keyOf(record.keys());
            if (key.isEmpty()) {
                skipped.add(new PartialBatch.Skipped(keyText(record),
                        record.eventId(), record.sequenceNumber().orElse(""), "record keys do not match the definitions' table key"));
                continue;
            }
            if (ChangeOrder.version(record).isEmpty()) {
                skipped.add(new PartialBatch.Skipped(key.get().toString(), record.eventId(), record.sequenceNumber().orElse(""),
                        "record has no ApproximateCreationDateTime: its order among the item's changes cannot be known"));
                continue;
            }
            if (record.kind() != ChangeKind.REMOVE && record.newImage().isEmpty()) {
                missing.add(new BatchPlan.MissingImage(key.get(), record, record.kind() + " record has no NewImage"));
                continue;
            }
            byItem.computeIfAbsent(key.get(), k -> new ArrayList<>()).add(record);
        }
        return new Grouped(byItem, skipped, missing, projector);
    }

    /** A batch's records by item, with what was set aside. */
    public record Grouped(Map<ItemKey, List<ChangeRecord>> byItem, List<PartialBatch.Skipped> skipped,
                          List<BatchPlan.MissingImage> missingImages, IndexProjector projector) {
    }

    /** The writes of the grouped records, given the items' states (absent: none). */
    public Plan plan(Grouped grouped, Map<ItemKey, ItemState> states) {
        IndexProjector projector = grouped.projector();
        List<ItemPlan> plans = new ArrayList<>();
        List<Rejection> rejections = new ArrayList<>();
        int stale = 0;
        for (Map.Entry<ItemKey, List<ChangeRecord>> entry : grouped.byItem().entrySet()) {
            ItemKey item = entry.getKey();
            ItemState state = states.get(item);
            List<ChangeRecord> inVersionOrder = entry.getValue().stream()
                    .sorted(Comparator.comparingLong(r -> ChangeOrder.version(r).orElseThrow())).toList();
            ItemState current = state;
            // each applied record's diff, in version order, the last change per key kept: what a failed attempt may
            // have written of an intermediate image is cleared too
            Map<IndexKey, IndexChange> net = new LinkedHashMap<>();
            boolean applied = false;
            boolean anyCovered = state != null && projector.coversAny(state.image());
            for (ChangeRecord record : inVersionOrder) {
                long version = ChangeOrder.version(record).orElseThrow();
                if (!ChangeOrder.follows(record, version, current)) {
                    stale++;
                    continue;
                }
                Map<String, AttributeValue> before = current == null ? record.oldImage().orElse(null) : current.image();
                Map<String, AttributeValue> after = record.kind() == ChangeKind.REMOVE ? null : record.newImage().orElseThrow();
                if (projector.coversAny(before) || projector.coversAny(after)) {
                    anyCovered = true;
                    IndexProjector.Changed versions = projector.changed(item, before, after);
                    rejections.addAll(versions.after().rejections());
                    List<IndexChange> changes = new ArrayList<>(IndexDiff.between(versions.before().items(), versions.after().items()));
                    if (current == null && after != null) {
                        // no state: the record's old image is only a guess at what the index holds (a record of the
                        // item may be late), so every item of the new image is put, not only those the diff names
                        projector.project(item, after).items().forEach(put -> changes.add(new IndexChange.Put(put)));
                    } else if (current != null && !continues(projector, item, record, current)) {
                        // a gap: the changes between the image held and this record's old image are not applied (late,
                        // or lost with a range given up on, whose items redrive or verify --repair then wrote from the
                        // table): the index may hold either image, so the old image's items go too and the new
                        // image's are all put
                        Set<IndexItem> whole = after == null ? Set.of() : projector.project(item, after).items();
                        Set<IndexKey> kept = whole.stream().map(IndexItem::key).collect(Collectors.toSet());
                        IndexDiff.between(projector.project(item, record.oldImage().orElseThrow()).items(), List.of()).stream()
                                .filter(delete -> !kept.contains(delete.key())).forEach(changes::add);
                        whole.forEach(put -> changes.add(new IndexChange.Put(put)));
                    }
                    for (IndexChange change : changes) {
                        net.remove(change.key());
                        net.put(change.key(), change);
                    }
                }
                anyCovered |= projector.coversAny(record.oldImage().orElse(null));
                current = new ItemState(item, version, record.eventId(), after);
                applied = true;
            }
            if (!applied) {
                plans.add(new ItemPlan(item, entry.getValue(), List.of(), Optional.ofNullable(state), Optional.empty()));
                continue;
            }
            anyCovered |= entry.getValue().stream().anyMatch(r -> projector.coversAny(r.oldImage().orElse(null))
                    || projector.coversAny(r.newImage().orElse(null)));
            if (state == null && !anyCovered) {
                // an item no index ever covered needs no state: a late record of it, if covered, finds none and starts
                // from its own old image, and the record that left coverage (old image covered) always writes one
                plans.add(new ItemPlan(item, entry.getValue(), List.of(), Optional.empty(), Optional.empty()));
                continue;
            }
            List<IndexChange> changes = List.copyOf(net.values());
            plans.add(new ItemPlan(item, entry.getValue(), changes, Optional.ofNullable(state), Optional.of(current)));
        }
        return new Plan(plans, grouped.skipped(), grouped.missingImages(), rejections, stale, projector);
    }

    /**
     * Whether a record continues the image the index was written for: it has no old image to say otherwise, or its old
     * image indexes as the held one does.
     */
    private static boolean continues(IndexProjector projector, ItemKey item, ChangeRecord record, ItemState held) {
        if (record.oldImage().isEmpty()) {
            return true;
        }
        IndexProjector.Changed versions = projector.changed(item, held.image(), record.oldImage().get());
        return IndexDiff.between(versions.before().items(), versions.after().items()).isEmpty();
    }

    /** The writes that bring an item's index from the image ours wrote to the image another state holds. */
    public static List<IndexChange> repair(IndexProjector projector, ItemKey item, Map<String, AttributeValue> written,
                                           Map<String, AttributeValue> holder) {
        IndexProjector.Changed versions = projector.changed(item, written, holder);
        return IndexDiff.between(versions.before().items(), versions.after().items());
    }

    private static String keyText(ChangeRecord record) {
        StringBuilder text = new StringBuilder();
        new java.util.TreeMap<>(record.keys()).forEach((name, value) -> text.append(text.isEmpty() ? "" : " ").append(name)
                .append('=').append(value.s() != null ? value.s() : value.n() != null ? value.n() : "(" + value.type() + ")"));
        return text.toString();
    }
}
