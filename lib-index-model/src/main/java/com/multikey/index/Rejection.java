package com.multikey.index;

import java.util.Objects;

/**
 * Why part of an item version gets no items in an index: the whole item, or one field (a map entry, or the
 * indexed attribute). The reason names types and rules, never values.
 */
public sealed interface Rejection {

    ItemKey item();

    /** The index that left it out. */
    String index();

    String reason();

    /** The item's key as text, for logs. */
    default String itemKeyText() {
        return item().toString();
    }

    /** The item gets no items in the index (no map, no group, a key too long, ...). */
    record Image(ItemKey item, String index, String reason) implements Rejection {
        public Image {
            Objects.requireNonNull(item, "item");
            Objects.requireNonNull(index, "index");
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** One field (a map entry, or the indexed attribute) gets no items; the item's other fields are indexed. */
    record Field(ItemKey item, String index, String attribId, String reason) implements Rejection {
        public Field {
            Objects.requireNonNull(item, "item");
            Objects.requireNonNull(index, "index");
            Objects.requireNonNull(attribId, "attribId");
            Objects.requireNonNull(reason, "reason");
        }
    }
}
