package com.multikey.query;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A page of items (whole items from the app table), the cursor of the next page, and the API calls it
 * took: in the common case two (a Query on the index and a BatchGetItem on the table), more when the
 * page needed further reads to fill itself or unprocessed keys were re-sent, one Query or more for items
 * lacking the field. A page holds the page size unless the result ends (an empty {@code nextCursor}) or it
 * reached {@link IndexQuery#MAX_READS_PER_PAGE}; the last page may be empty. The catalog's occasional read
 * of the project item, on first pages, is not counted.
 */
public final class Page {

    private final List<Map<String, AttributeValue>> items;
    private final List<AttributeValue> values;
    private final int indexed;
    private final String nextCursor;
    private final int apiCalls;
    private final int examined;
    private final boolean budgetSpent;
    private final Explain explain;
    /** The name of the index read; null when the page was made without it. */
    private final String index;
    /** How many items the request matches; null unless asked ({@link Counts#pageWithTotal}). */
    private final Total total;

    /** A page of items that all have the field. @param nextCursor null when the result ends here */
    public Page(List<Map<String, AttributeValue>> items, String nextCursor, int apiCalls) {
        this(items, items.size(), nextCursor, apiCalls);
    }

    /**
     * @param indexed    how many of the items, first in the page, came from the index; the rest lack the field (the
     *                   missing tail)
     * @param nextCursor null when the result ends here
     */
    public Page(List<Map<String, AttributeValue>> items, int indexed, String nextCursor, int apiCalls) {
        this(items, List.of(), indexed, nextCursor, apiCalls);
    }

    /**
     * @param values     the value each of the first {@code indexed} items was listed under (for a list or set, the
     *                   element the page sorted it by), in page order; empty when not known
     * @param indexed    how many of the items, first in the page, came from the index; the rest lack the field (the
     *                   missing tail)
     * @param nextCursor null when the result ends here
     */
    public Page(List<Map<String, AttributeValue>> items, List<AttributeValue> values, int indexed, String nextCursor, int apiCalls) {
        this(items, values, indexed, nextCursor, apiCalls, -1, false, null);
    }

    /**
     * @param examined    the items the page read (index items and items of the table); -1 when not counted
     * @param budgetSpent whether the page stopped short because it read its budget (or made its most calls)
     * @param explain     how it was read, when the request asked; else null
     */
    public Page(List<Map<String, AttributeValue>> items, List<AttributeValue> values, int indexed, String nextCursor, int apiCalls,
                int examined, boolean budgetSpent, Explain explain) {
        if (indexed < 0 || indexed > items.size()) {
            throw new IllegalArgumentException("indexed must be within 0.." + items.size() + ", got " + indexed);
        }
        if (!values.isEmpty() && values.size() != indexed) {
            throw new IllegalArgumentException("give the value of each of the " + indexed + " indexed items, or none; got " + values.size());
        }
        this.items = List.copyOf(items);
        this.values = List.copyOf(values);
        this.indexed = indexed;
        this.nextCursor = nextCursor;
        this.apiCalls = apiCalls;
        this.examined = examined;
        this.budgetSpent = budgetSpent;
        this.explain = explain;
        this.index = null;
        this.total = null;
    }

    private Page(Page page, String index) {
        this(page, java.util.Objects.requireNonNull(index, "index"), page.total);
    }

    private Page(Page page, String index, Total total) {
        this.items = page.items;
        this.values = page.values;
        this.indexed = page.indexed;
        this.nextCursor = page.nextCursor;
        this.apiCalls = page.apiCalls;
        this.examined = page.examined;
        this.budgetSpent = page.budgetSpent;
        this.explain = page.explain;
        this.index = index;
        this.total = total;
    }

    /** This page with how many items its request matches. */
    public Page withTotal(Total total) {
        return new Page(this, index, java.util.Objects.requireNonNull(total, "total"));
    }

    /**
     * How many items the page's request matches, all its pages together: exact, or a lower bound that says so; empty
     * unless the request asked for it ({@link Counts#pageWithTotal}). Its calls are not in {@link #apiCalls()}.
     */
    public Optional<Total> total() {
        return Optional.ofNullable(total);
    }

    /** This page, read from the index of this name. */
    public Page readFrom(String index) {
        return new Page(this, index);
    }

    /**
     * The name of the index the page was read from: for the issue grid, the layout the stack's grid state reads, whichever
     * of the grid's names the request gave; empty when the page was made without it.
     */
    public Optional<String> index() {
        return Optional.ofNullable(index);
    }

    /** The items the page read: index items and items of the table; -1 when not counted. */
    public int examined() {
        return examined;
    }

    /**
     * Whether the page came back short of its page size because it read its budget or made its most calls: the result
     * may continue from {@link #nextCursor()}, which is then present.
     */
    public boolean budgetSpent() {
        return budgetSpent;
    }

    /** How the page was read, when the request asked for it. */
    public Optional<Explain> explain() {
        return Optional.ofNullable(explain);
    }

    /** How many of {@link #items()}, first in the page, have the field; the others are of the missing tail. */
    public int indexed() {
        return indexed;
    }

    /**
     * The value the item at {@code position} was listed under: for a list or set field, the element the page sorted it
     * by, not the whole list; empty for an item of the missing tail, or when the page was made without its values.
     */
    public Optional<AttributeValue> listedValue(int position) {
        return position < values.size() ? Optional.of(values.get(position)) : Optional.empty();
    }

    /** The items of the page, whole items from the app table: first those from the index, then the missing tail. */
    public List<Map<String, AttributeValue>> items() {
        return items;
    }

    /**
     * The items of the page.
     *
     * @deprecated use {@link #items()}; removed in the next release
     */
    @Deprecated
    public List<Map<String, AttributeValue>> issues() {
        return items;
    }

    /** The cursor of the next page; empty when the result ends here. */
    public Optional<String> nextCursor() {
        return Optional.ofNullable(nextCursor);
    }

    public int apiCalls() {
        return apiCalls;
    }
}
