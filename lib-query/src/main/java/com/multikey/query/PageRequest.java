package com.multikey.query;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One page of an index: which index (none: the grid, the field-partitioned index of the default
 * definitions), the group it runs within (a project for the grid; the values of a grouped index's group
 * attributes, in their declared order), the map entry (the grid's attribute id; empty for an index of list
 * elements or of one attribute), the order, the page size (1 to {@value #MAX_PAGE_SIZE}), an optional filter
 * on the value, whether the group's items lacking the field follow (not with a filter: an item without the field
 * matches no filter; for the grid in num order, for a grouped index whose group is the table's partition key in
 * the table's sort key order, for other indexes not available), and the cursor (none for the first page; then the
 * previous page's {@code nextCursor}); and any number of predicates ({@link #where}), on any field, that every listed
 * item satisfies, a read budget ({@link #withReadBudget}) and whether the page explains its plan. A request may name
 * several groups ({@link #withGroups}, at most {@value #MAX_GROUPS}): its pages are those of each group merged in the
 * request's order, each item once, under one cursor.
 */
public final class PageRequest {

    public static final int MAX_PAGE_SIZE = 100;
    /** The most groups one request names ({@link #withGroups}). */
    public static final int MAX_GROUPS = 50;

    private final String index;
    private final List<AttributeValue> group;
    /** Every group the request reads, the first being {@link #group}; one for a request of one group. */
    private final List<List<AttributeValue>> groups;
    private final String attribId;
    private final Order order;
    private final int pageSize;
    private final Filter filter;
    private final boolean includeMissing;
    private final String cursor;
    private final List<Predicate> predicates;
    /** The where's, by position: a predicate, or an expression of them ({@link ExpressionText}). */
    private final List<Expression> expressions;
    private final int readBudget;
    private final boolean explain;

    /** A page of a project in the grid. @param filter null for none; @param cursor null for the first page */
    public PageRequest(String project, String attribId, Order order, int pageSize, Filter filter, boolean includeMissing,
                       String cursor) {
        this(null, List.of(AttributeValue.fromS(Objects.requireNonNull(project, "project"))), attribId, order, pageSize, filter,
                includeMissing, cursor);
        if (project.isBlank() || attribId.isBlank()) {
            throw new IllegalArgumentException("project and attribute id must not be empty");
        }
    }

    /**
     * A page of any declared index.
     *
     * @param index    the index name; null for the grid
     * @param group    the group's values, one per group attribute of the index, in order (empty for an index without a group)
     * @param attribId the map entry of a map-entries index; empty for other indexes
     */
    public PageRequest(String index, List<AttributeValue> group, String attribId, Order order, int pageSize, Filter filter,
                       boolean includeMissing, String cursor) {
        this(index, List.of(Objects.requireNonNull(group, "group")), attribId, order, pageSize, filter, includeMissing, cursor, List.of(),
                0, false);
    }

    private PageRequest(String index, List<List<AttributeValue>> groups, String attribId, Order order, int pageSize, Filter filter,
                        boolean includeMissing, String cursor, List<? extends Expression> expressions, int readBudget, boolean explain) {
        this.groups = groups(groups);
        List<AttributeValue> group = this.groups.get(0);
        this.expressions = List.copyOf(expressions);
        this.predicates = this.expressions.stream().filter(e -> e instanceof Predicate).map(e -> (Predicate) e).toList();
        ExpressionText.validate(this.expressions, java.util.function.Function.identity());
        if (readBudget < 0) {
            throw new FilterParameters.InvalidParameterException(PageParameters.Parameter.BUDGET, "at least 2 items a page (an index item and its item), got " + readBudget);
        }
        this.readBudget = readBudget;
        this.explain = explain;
        this.index = index;
        this.group = List.copyOf(Objects.requireNonNull(group, "group"));
        this.attribId = Objects.requireNonNull(attribId, "attribId");
        this.order = Objects.requireNonNull(order, "order");
        if (pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
            throw new IllegalArgumentException("page size must be 1 to " + MAX_PAGE_SIZE + ", got " + pageSize);
        }
        if (includeMissing && filter != null) {
            throw new QueryException(QueryException.Subject.MISSING, "items lacking the field match no filter: ask for them without one");
        }
        this.pageSize = pageSize;
        this.filter = filter;
        this.includeMissing = includeMissing;
        this.cursor = cursor;
    }

    /** The first page of an index's group (and entry). */
    public static PageRequest onIndex(String index, List<AttributeValue> group, String attribId, Order order, int pageSize) {
        return new PageRequest(Objects.requireNonNull(index, "index"), group, attribId, order, pageSize, null, false, null);
    }

    public Optional<String> index() {
        return Optional.ofNullable(index);
    }

    /** The group's values; of a request of several groups ({@link #groups}), the first group's. */
    public List<AttributeValue> group() {
        return group;
    }

    /** Every group the request reads, in the order named, each once; one for a request of one group. */
    public List<List<AttributeValue>> groups() {
        return groups;
    }

    /** This request, of its one group {@code group} (a page of a request of several groups reads each so). */
    PageRequest ofGroup(List<AttributeValue> group) {
        return new PageRequest(index, List.of(group), attribId, order, pageSize, filter, includeMissing, null, expressions, readBudget,
                explain);
    }

    /** The project of a grid request: its one string group value. */
    public String project() {
        if (group.size() != 1 || group.get(0).s() == null) {
            throw new IllegalStateException("not a request of one string group");
        }
        return group.get(0).s();
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

    /**
     * The {@code where}s that are one predicate each, in order (all of them hold); empty: none but the filter. The others,
     * expressions of {@code and}, {@code or} and {@code not}, are in {@link #expressions()}.
     */
    public List<Predicate> predicates() {
        return predicates;
    }

    /** Every {@code where}, by its position: a predicate or an expression; all of them hold for a listed item. */
    public List<Expression> expressions() {
        return expressions;
    }

    /** The items the page may read (index items and items of the table); 0: the reader's default. */
    public int readBudget() {
        return readBudget;
    }

    /** Whether the page reports its plan ({@link Page#explain()}). */
    public boolean explain() {
        return explain;
    }

    public static PageRequest first(String project, String attribId, Order order, int pageSize) {
        return new PageRequest(project, attribId, order, pageSize, null, false, null);
    }

    public PageRequest withFilter(Filter filter) {
        return new PageRequest(index, groups, attribId, order, pageSize, Objects.requireNonNull(filter, "filter"), includeMissing, cursor,
                expressions, readBudget, explain);
    }

    public PageRequest withMissing() {
        return new PageRequest(index, groups, attribId, order, pageSize, filter, true, cursor, expressions, readBudget, explain);
    }

    public PageRequest after(String nextCursor) {
        return new PageRequest(index, groups, attribId, order, pageSize, filter, includeMissing,
                Objects.requireNonNull(nextCursor, "nextCursor"), expressions, readBudget, explain);
    }

    /**
     * The same request with these predicates, or expressions of them ({@link Expression}, {@link ExpressionText}), each on
     * any fields, all of which a listed item satisfies; each is a {@code where}, named by its position.
     *
     * @throws InvalidPredicateException when they hold more than {@value PredicateText#MAX_PREDICATES} predicates, or two
     *                                   ranges on a field leave no value
     */
    public PageRequest where(List<? extends Expression> predicates) {
        return new PageRequest(index, groups, attribId, order, pageSize, filter, includeMissing, cursor, predicates, readBudget, explain);
    }

    /**
     * The same request of several groups, each the values of the index's group attributes, in order: its pages list the items
     * of every group, merged in the request's order, each item once (a group named twice is read once, equal numbers however spelled), under one cursor.
     *
     * @throws QueryException naming the group when there is none or more than {@value #MAX_GROUPS}
     */
    public PageRequest withGroups(List<List<AttributeValue>> groups) {
        return new PageRequest(index, groups, attribId, order, pageSize, filter, includeMissing, cursor, expressions, readBudget, explain);
    }

    /** The same request with at most this many items read for the page (index items and items of the table). */
    public PageRequest withReadBudget(int items) {
        if (items < 2) {
            throw new FilterParameters.InvalidParameterException(PageParameters.Parameter.BUDGET, "at least 2 items a page (an index item and its item), got "
                    + items);
        }
        return new PageRequest(index, groups, attribId, order, pageSize, filter, includeMissing, cursor, expressions, items, explain);
    }

    /** The same request, its page reporting its plan. */
    public PageRequest withExplain() {
        return new PageRequest(index, groups, attribId, order, pageSize, filter, includeMissing, cursor, expressions, readBudget, true);
    }

    /**
     * The same request from its first page: every part of it kept but the cursor (a count walks a request's pages so,
     * {@link Counts}).
     */
    public PageRequest fromStart() {
        return new PageRequest(index, groups, attribId, order, pageSize, filter, includeMissing, null, expressions, readBudget, explain);
    }

    /** The same request with pages of this many items (1 to {@value #MAX_PAGE_SIZE}). */
    public PageRequest withPageSize(int pageSize) {
        return new PageRequest(index, groups, attribId, order, pageSize, filter, includeMissing, cursor, expressions, readBudget, explain);
    }

    private static List<List<AttributeValue>> groups(List<List<AttributeValue>> groups) {
        List<List<AttributeValue>> distinct = GroupValue.distinct(Objects.requireNonNull(groups, "groups").stream()
                .map(group -> List.copyOf(Objects.requireNonNull(group, "group"))).toList());
        if (distinct.isEmpty()) {
            throw new QueryException(QueryException.Subject.GROUP, "name at least one group");
        }
        if (distinct.size() > MAX_GROUPS) {
            throw new QueryException(QueryException.Subject.GROUP, "at most " + MAX_GROUPS + " groups a request, got " + distinct.size());
        }
        return distinct;
    }

    /**
     * What identifies the query a cursor belongs to: everything but the page size and the cursor, each part written with
     * its length first, so that no two requests give one text whatever their parts hold. A request of several groups names
     * them all, in their order. A group's number is written canonically: {@code N:100} and {@code N:1E+2} are one group.
     */
    String identity() {
        return identity(true);
    }

    /**
     * The identity as it was before groups' numbers were canonical in it ({@code N:1E+2} as given, not {@code N:100}): a
     * cursor made then still opens for the request spelled as it was made. Equal to {@link #identity()} for every request
     * whose numbers are spelled canonically.
     */
    String identityAsSpelled() {
        return identity(false);
    }

    // a group's number is canonical (equal numbers, however spelled, are one group: GroupValue.distinct)
    private String identity(boolean canonical) {
        if (groups.size() > 1) {
            List<String> named = new ArrayList<>(List.of("groups"));
            for (List<AttributeValue> each : groups) {
                named.add(ofGroup(each).identity(canonical));
            }
            return lengthPrefixed(named);
        }
        List<String> parts = new ArrayList<>();
        parts.add(index == null ? "" : index);
        for (AttributeValue value : group) {
            parts.add(value.type() + ":" + switch (value.type()) {
                case S -> value.s();
                case N -> canonical ? com.multikey.common.CanonicalNumbers.canonical(value.n()) : value.n();
                case B -> Base64.getEncoder().encodeToString(value.b().asByteArrayUnsafe());
                default -> String.valueOf(value);
            });
        }
        parts.add(attribId);
        parts.add(order.name());
        parts.add(filter == null ? "" : identity(filter));
        parts.add(Boolean.toString(includeMissing));
        if (!expressions.isEmpty()) {
            parts.add(lengthPrefixed(expressions.stream().map(PredicateText::format).toList()));
        }
        return lengthPrefixed(parts);
    }

    private static String identity(Filter filter) {
        return switch (filter) {
            case Filter.Equals equals -> lengthPrefixed(List.of("equals", identity(equals.value())));
            case Filter.BeginsWith beginsWith -> lengthPrefixed(List.of("beginsWith", beginsWith.prefix()));
            case Filter.Range range -> lengthPrefixed(List.of("range", identity(range.low()), Boolean.toString(range.lowInclusive()),
                    identity(range.high()), Boolean.toString(range.highInclusive())));
        };
    }

    private static String identity(com.multikey.index.IndexValue value) {
        return switch (value) {
            case null -> "";
            case com.multikey.index.IndexValue.Num num -> "N:" + num.value();
            case com.multikey.index.IndexValue.Text text -> "S:" + text.value();
            case com.multikey.index.IndexValue.Bool bool -> "B:" + bool.value();
        };
    }

    private static String lengthPrefixed(List<String> parts) {
        StringBuilder text = new StringBuilder();
        for (String part : parts) {
            text.append(part.length()).append(':').append(part);
        }
        return text.toString();
    }
}
