package com.multikey.indexer;

import com.multikey.common.Deadline;
import com.multikey.index.ItemKey;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/** Keeps the {@link ItemState} of each source item the order-independent indexer has indexed. */
public interface ItemStates {

    /**
     * The states of these items (strongly consistent), absent for an item with none.
     *
     * @throws software.amazon.awssdk.core.exception.SdkException when the states cannot be read now
     */
    Map<ItemKey, ItemState> read(Collection<ItemKey> items, Deadline deadline);

    /**
     * Replaces an item's state if it is still {@code expected} (absent: the item has none).
     *
     * @return false when another state was written since {@code expected} was read
     * @throws software.amazon.awssdk.core.exception.SdkException when the write failed for a reason that may pass
     */
    boolean write(ItemState next, Optional<ItemState> expected, Deadline deadline);
}
