package com.multikey.query;

import com.multikey.index.IndexKey;
import com.multikey.index.ItemKey;
import com.multikey.index.definition.KeySchema;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a page of several groups ({@link Plan.Merge}): each group's plan read by its own {@link PlanReader} from where the
 * group stands, within the group's share of the page's reads, and the groups' items merged in page order — a k-way merge
 * of sorted lists: an item is listed only once every group that may still hold an earlier one has shown an item at or after
 * it, so a group whose reads ran out before that stops the page short. Items with the sorted field come first, by the
 * sorted field's key (value, tie-breakers, item key) in the request's order; then the items lacking it (the missing tail),
 * each group's in turn in the order the request names the groups. An item listed by several groups (same key, listed under
 * the same value by the same rule) is listed once. Each group's position then moves past the last of its items the page
 * consumed.
 */
final class MergeRead {

    /** One group's part of the page: how it lists, its reads, where it stands. */
    record Group(Listing listing, PageReads reads, MergeCursor.Position position) {
    }

    /** The page's items in order, where each group stands after them, and how they were read. */
    record Result(List<Part.Listed> listed, MergeCursor next, Part.Explained explained) {
        Result {
            listed = List.copyOf(listed);
        }
    }

    private final List<Group> groups;
    private final KeySchema table;

    MergeRead(List<Group> groups, KeySchema table) {
        this.groups = List.copyOf(groups);
        this.table = table;
    }

    /**
     * At most {@code need} items of the groups of {@code plan}, merged. A group is read (at most once a page, for what the
     * page still needs) when its head is unknown or comes first; one whose head comes after the page's last item is not
     * read at all.
     */
    Result read(Plan.Merge plan, int need) {
        int count = groups.size();
        List<Part> parts = new ArrayList<>(java.util.Collections.nCopies(count, (Part) null));
        List<List<Candidate>> candidates = new ArrayList<>(java.util.Collections.nCopies(count, List.<Candidate>of()));
        int[] consumed = new int[count];
        List<Part.Listed> listed = new ArrayList<>();
        merging:
        while (listed.size() < need) {
            int best = -1;
            Candidate first = null;
            for (int i = 0; i < count; i++) {
                MergeCursor.Position position = groups.get(i).position();
                if (position instanceof MergeCursor.Position.Done) {
                    continue;
                }
                Candidate next;
                if (parts.get(i) == null) {
                    if (position.head().isEmpty()) {
                        // where the group stands tells nothing of its next item: it is read before anything is listed
                        best = i;
                        first = null;
                        break;
                    }
                    next = new Candidate(null, null, position.head().get().sortKey());
                } else if (consumed[i] == candidates.get(i).size()) {
                    if (parts.get(i).next().isPresent()) {
                        // the group may still hold an item before every head, and was read once this page: the page ends here
                        break merging;
                    }
                    continue;
                } else {
                    next = candidates.get(i).get(consumed[i]);
                }
                if (best < 0 || before(next, i, first, best)) {
                    best = i;
                    first = next;
                }
            }
            if (best < 0) {
                break;
            }
            if (parts.get(best) == null) {
                read(plan, best, need - listed.size(), parts, candidates);
                continue;
            }
            listed.add(first.listed());
            consumed[best]++;
            for (int i = 0; i < count; i++) {
                // the same item in another group: listed once, consumed there too
                if (i != best && parts.get(i) != null && consumed[i] < candidates.get(i).size()
                        && candidates.get(i).get(consumed[i]).sameItem(first)) {
                    consumed[i]++;
                }
            }
        }
        List<MergeCursor.Position> positions = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            positions.add(parts.get(i) == null ? groups.get(i).position() : position(i, parts.get(i), candidates.get(i), consumed[i]));
        }
        return new Result(listed, new MergeCursor(positions), explained(plan, parts));
    }

    private void read(Plan.Merge plan, int i, int need, List<Part> parts, List<List<Candidate>> candidates) {
        Group group = groups.get(i);
        PlanReader reader = new PlanReader(group.listing(), group.reads(), table);
        Part part = switch (group.position()) {
            case MergeCursor.Position.Done done -> throw new IllegalStateException("a group that is done is not read");
            case MergeCursor.Position.Start start -> reader.read(plan.groups().get(i), Map.of(), Knowledge.NONE, need);
            case MergeCursor.Position.At at -> reader.read(plan.groups().get(i), at.cursor().startKey(), at.cursor().knowledge(), need);
        };
        parts.set(i, part);
        candidates.set(i, part.listed().stream().map(listed -> candidate(group.listing(), listed)).toList());
    }

    /**
     * Whether {@code a} (of group {@code i}) comes before {@code b} (of group {@code j}) in the merged page. Of one sort key,
     * the head of a group not read yet comes first, so that the group is read before an item it may also list is listed.
     */
    private boolean before(Candidate a, int i, Candidate b, int j) {
        if (a.sortKey() != null && b.sortKey() != null) {
            int order = groups.get(i).listing().keyOrder().compare(a.sortKey(), b.sortKey());
            if (order != 0) {
                return order < 0;
            }
            if (a.unread() != b.unread()) {
                return a.unread();
            }
            return i < j;
        }
        if (a.sortKey() != null || b.sortKey() != null) {
            // the items with the field come before those lacking it
            return a.sortKey() != null;
        }
        return i < j;
    }

    /** Where a group that was read stands after the page, and its head when the page read past it. */
    private MergeCursor.Position position(int i, Part part, List<Candidate> candidates, int consumed) {
        if (consumed == candidates.size()) {
            return part.next().<MergeCursor.Position>map(cursor -> new MergeCursor.Position.At(cursor.with(part.learned()), Optional.empty()))
                    .orElseGet(MergeCursor.Position.Done::new);
        }
        Optional<MergeCursor.Head> head = Optional.of(new MergeCursor.Head(candidates.get(consumed).sortKey()));
        if (consumed == 0) {
            // nothing of the group listed: it stands where it stood, its next item now known
            return switch (groups.get(i).position()) {
                case MergeCursor.Position.Start start -> new MergeCursor.Position.Start(head);
                case MergeCursor.Position.At at -> new MergeCursor.Position.At(at.cursor(), head);
                case MergeCursor.Position.Done done -> done;
            };
        }
        return new MergeCursor.Position.At(after(groups.get(i).listing(), candidates.get(consumed - 1)).with(part.learned()), head);
    }

    /** The cursor just after an item the group listed: its index item's key, or in the missing tail its key there. */
    private static Cursor after(Listing listing, Candidate candidate) {
        if (candidate.sortKey() != null) {
            return new Cursor(Cursor.Part.INDEX, Map.of(IndexKey.ATTRIB_ID, AttributeValue.fromS(listing.target().partition()),
                    IndexKey.SORT_KEY, AttributeValue.fromS(candidate.sortKey())));
        }
        Map<String, AttributeValue> item = candidate.listed().item();
        if (listing.target().missing() instanceof Target.MissingSource.ByProject grid) {
            Target.GridNames names = grid.names();
            return new Cursor(Cursor.Part.MISSING, Map.of(names.key(), item.get(names.key()), names.project(), item.get(names.project()),
                    names.num(), item.get(names.num())));
        }
        return new Cursor(Cursor.Part.MISSING, candidate.key().toKey());
    }

    private static Candidate candidate(Listing listing, Part.Listed listed) {
        ItemKey key = listing.projector().keyOf(listed.item()).orElseThrow();
        String sortKey = listed.value() == null ? null
                : listing.listing(key, listed.item()).orElseThrow(() -> new IllegalStateException("a listed item has no listing")).sortKey();
        return new Candidate(listed, key, sortKey);
    }

    private static Part.Explained explained(Plan.Merge plan, List<Part> parts) {
        long read = parts.stream().filter(java.util.Objects::nonNull).count();
        Set<String> reads = new LinkedHashSet<>();
        for (Part part : parts) {
            if (part != null) {
                reads.add(part.explained().plan().describe() + ": " + part.explained().reason());
            }
        }
        return new Part.Explained(plan, plan.groups().size() + " groups, each read by its plan and merged in page order, each item once; "
                + read + " read on this page (the others' next items come after it)"
                + (reads.isEmpty() ? "" : " (" + String.join("; ", reads) + ")"), List.of());
    }

    /**
     * An item a group listed, its key, and the sort key it is listed under (null in the missing tail); or the head of a group
     * not read yet (no item, no key).
     */
    private record Candidate(Part.Listed listed, ItemKey key, String sortKey) {
        boolean unread() {
            return listed == null;
        }

        boolean sameItem(Candidate other) {
            return key.equals(other.key) && java.util.Objects.equals(sortKey, other.sortKey);
        }
    }
}
