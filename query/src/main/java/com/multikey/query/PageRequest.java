package com.multikey.query;

import java.util.Objects;
import java.util.Optional;

/**
 * One page of a project's issues sorted by a custom field.
 *
 * @param includeMissing after the issues that have the field, the project's issues that lack it, in num
 *                       order (not with a filter: an issue without the field matches no filter)
 * @param cursor         empty for the first page; then the previous page's {@code nextCursor}
 */
public record PageRequest(String project, String attribId, Order order, int pageSize, Optional<Filter> filter,
                          boolean includeMissing, Optional<String> cursor) {

    public static final int MAX_PAGE_SIZE = 100;

    public PageRequest {
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(attribId, "attribId");
        Objects.requireNonNull(order, "order");
        Objects.requireNonNull(filter, "filter");
        Objects.requireNonNull(cursor, "cursor");
        if (project.isBlank() || attribId.isBlank()) {
            throw new IllegalArgumentException("project and attribute id must not be empty");
        }
        if (pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
            throw new IllegalArgumentException("page size must be 1 to " + MAX_PAGE_SIZE + ", got " + pageSize);
        }
        if (includeMissing && filter.isPresent()) {
            throw new IllegalArgumentException("issues lacking the field match no filter: ask for them without one");
        }
    }

    public static PageRequest first(String project, String attribId, Order order, int pageSize) {
        return new PageRequest(project, attribId, order, pageSize, Optional.empty(), false, Optional.empty());
    }

    public PageRequest withFilter(Filter filter) {
        return new PageRequest(project, attribId, order, pageSize, Optional.of(filter), includeMissing, cursor);
    }

    public PageRequest withMissing() {
        return new PageRequest(project, attribId, order, pageSize, filter, true, cursor);
    }

    public PageRequest after(String nextCursor) {
        return new PageRequest(project, attribId, order, pageSize, filter, includeMissing, Optional.of(nextCursor));
    }

    /** What identifies the query a cursor belongs to: everything but the page size and the cursor. */
    String identity() {
        return String.join("\u0000", project, attribId, order.name(), filter.map(Object::toString).orElse(""),
                Boolean.toString(includeMissing));
    }
}
