package com.multikey.index;

import java.util.List;
import java.util.Set;

/** The index items one issue version implies, and what of it could not be indexed. */
public record IssueProjection(Set<IndexItem> items, List<Rejection> rejections) {

    public static final IssueProjection EMPTY = new IssueProjection(Set.of(), List.of());

    public IssueProjection {
        items = Set.copyOf(items);
        rejections = List.copyOf(rejections);
    }
}
