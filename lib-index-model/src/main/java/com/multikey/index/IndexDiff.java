package com.multikey.index;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The minimal writes that turn the index items of one item version into those of another. */
public final class IndexDiff {

    private IndexDiff() {
    }

    /**
     * Deletes for keys only in {@code before}, puts for keys only in {@code after} and for keys whose item
     * changed (value spelling, project, num); nothing for items that are equal.
     */
    public static List<IndexChange> between(Collection<IndexItem> before, Collection<IndexItem> after) {
        Map<IndexKey, IndexItem> old = byKey(before);
        List<IndexChange> changes = new ArrayList<>();
        for (IndexItem item : after) {
            IndexItem previous = old.remove(item.key());
            if (!item.equals(previous)) {
                changes.add(new IndexChange.Put(item));
            }
        }
        for (IndexKey gone : old.keySet()) {
            changes.add(new IndexChange.Delete(gone));
        }
        return changes;
    }

    private static Map<IndexKey, IndexItem> byKey(Collection<IndexItem> items) {
        Map<IndexKey, IndexItem> map = new LinkedHashMap<>();
        for (IndexItem item : items) {
            map.put(item.key(), item);
        }
        return map;
    }
}
