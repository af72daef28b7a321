package com.multikey.index;

import java.util.List;
import java.util.Set;

/** The index items one item version implies (across the indexes asked), and what of it could not be indexed. */
public record ItemProjection(Set<IndexItem> items, List<Rejection> rejections) {

    public static final ItemProjection EMPTY = new ItemProjection(Set.of(), List.of());

    public ItemProjection {
        items = Set.copyOf(items);
        rejections = List.copyOf(rejections);
    }
}
