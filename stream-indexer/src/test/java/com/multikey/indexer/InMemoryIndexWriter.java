package com.multikey.indexer;

import com.multikey.common.Deadline;
import com.multikey.index.IndexChange;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.IndexOrder;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/** The index table in memory, in DynamoDB's key order; can be told to fail chosen writes. */
final class InMemoryIndexWriter implements IndexWriter {

    private final Map<IndexKey, IndexItem> items = new TreeMap<>((a, b) -> {
        int byAttrib = IndexOrder.compareKeys(a.attribId(), b.attribId());
        return byAttrib != 0 ? byAttrib : IndexOrder.compareKeys(a.sortKey(), b.sortKey());
    });
    private Predicate<IndexChange> failing = change -> false;
    private long writes;

    void failWhen(Predicate<IndexChange> failing) {
        this.failing = failing;
    }

    @Override
    public WriteResult write(List<IndexChange> changes, Deadline deadline) {
        Set<IndexKey> failed = new HashSet<>();
        for (IndexChange change : changes) {
            if (failing.test(change)) {
                failed.add(change.key());
                continue;
            }
            writes++;
            switch (change) {
                case IndexChange.Put put -> items.put(put.key(), put.item());
                case IndexChange.Delete delete -> items.remove(delete.key());
            }
        }
        return new WriteResult(failed, List.of());
    }

    Map<IndexKey, IndexItem> items() {
        return items;
    }

    long writes() {
        return writes;
    }
}
