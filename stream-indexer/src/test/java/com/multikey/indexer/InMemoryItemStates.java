package com.multikey.indexer;

import com.multikey.common.Deadline;
import com.multikey.index.ItemKey;
import software.amazon.awssdk.core.exception.SdkClientException;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/** Item states in memory; can be told to fail chosen writes (as a throttled PutItem does). */
final class InMemoryItemStates implements ItemStates {

    private final Map<ItemKey, ItemState> states = new HashMap<>();
    private Predicate<ItemState> failing = state -> false;
    private long writes;

    void failWhen(Predicate<ItemState> failing) {
        this.failing = failing;
    }

    @Override
    public Map<ItemKey, ItemState> read(Collection<ItemKey> items, Deadline deadline) {
        Map<ItemKey, ItemState> found = new HashMap<>();
        items.forEach(item -> {
            if (states.containsKey(item)) {
                found.put(item, states.get(item));
            }
        });
        return found;
    }

    @Override
    public boolean write(ItemState next, Optional<ItemState> expected, Deadline deadline) {
        if (failing.test(next)) {
            throw SdkClientException.create("state write failed (injected)");
        }
        if (!Objects.equals(states.get(next.item()), expected.orElse(null))) {
            return false;
        }
        writes++;
        states.put(next.item(), next);
        return true;
    }

    /** Replaces a state behind the indexer's back (another writer). */
    void put(ItemState state) {
        states.put(state.item(), state);
    }

    Map<ItemKey, ItemState> states() {
        return states;
    }

    long writes() {
        return writes;
    }
}
