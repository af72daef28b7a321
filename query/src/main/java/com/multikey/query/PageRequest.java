package com.multikey.query;

import java.util.Objects;
import java.util.Optional;

/**
 * One page of a project's issues sorted by a custom field: the project, the field's attribute id, the
 * order, the page size (1 to {@value #MAX_PAGE_SIZE}), an optional filter on the value, whether the
 * project's issues lacking the field follow (in num order; not with a filter: an issue without the field
 * matches no filter), and the cursor (none for the first page; then the previous page's {@code nextCursor}).
 */
public final class PageRequest {

    public static final int MAX_PAGE_SIZE = 100;

    private final String project;
    private final String attribId;
    private final Order order;
    private final int pageSize;
    private final Filter filter;
    private final boolean includeMissing;
    private final String cursor;

    /** @param filter null for none; @param cursor null for the first page */
    public PageRequest(String project, String attribId, Order order, int pageSize, Filter filter, boolean includeMissing,
                       String cursor) {
        this.project = Objects.requireNonNull(project, "project");
        this.attribId = Objects.requireNonNull(attribId, "attribId");
        this.order = Objects.requireNonNull(order, "order");
        if (project.isBlank() || attribId.isBlank()) {
            throw new IllegalArgumentException("project and attribute id must not be empty");
        }
        if (pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
            throw new IllegalArgumentException("page size must be 1 to " + MAX_PAGE_SIZE + ", got " + pageSize);
        }
        if (includeMissing && filter != null) {
            throw new IllegalArgumentException("issues lacking the field match no filter: ask for them without one");
        }
        this.pageSize = pageSize;
        this.filter = filter;
        this.includeMissing = includeMissing;
        this.cursor = cursor;
    }

    public String project() {
        return project;
    }

    public String attribId() {
        return attribId;
    }

    public Order order() {
        return order;
    }

    public int pageSize() {
        return pageSize;
    }

    public Optional<Filter> filter() {
        return Optional.ofNullable(filter);
    }

    public boolean includeMissing() {
        return includeMissing;
    }

    public Optional<String> cursor() {
        return Optional.ofNullable(cursor);
    }

    public static PageRequest first(String project, String attribId, Order order, int pageSize) {
        return new PageRequest(project, attribId, order, pageSize, null, false, null);
    }

    public PageRequest withFilter(Filter filter) {
        return new PageRequest(project, attribId, order, pageSize, Objects.requireNonNull(filter, "filter"), includeMissing, cursor);
    }

    public PageRequest withMissing() {
        return new PageRequest(project, attribId, order, pageSize, filter, true, cursor);
    }

    public PageRequest after(String nextCursor) {
        return new PageRequest(project, attribId, order, pageSize, filter, includeMissing, Objects.requireNonNull(nextCursor, "nextCursor"));
    }

    /** What identifies the query a cursor belongs to: everything but the page size and the cursor. */
    String identity() {
        return String.join("\u0000", project, attribId, order.name(), filter == null ? "" : filter.toString(),
                Boolean.toString(includeMissing));
    }
}
