package com.multikey.query;

/**
 * The items a page may read, index items and items of the table together: a request's own budget
 * ({@link PageRequest#withReadBudget}) up to {@code max}, else {@code standard}. A page with predicates stops reading when
 * it has read its budget, or made {@link #maxCalls} calls, and comes back short with a cursor; a page without
 * predicates reads as it always has (at most {@value IndexQuery#MAX_READS_PER_PAGE} reads) unless its request names a
 * budget.
 *
 * @param standard the budget of a request that names none
 * @param max      the largest budget a request may name
 */
public record ReadBudget(int standard, int max) {

    /** 2,000 items by default, up to 20,000. */
    public static final ReadBudget DEFAULT = new ReadBudget(2_000, 20_000);

    public ReadBudget {
        if (standard < 2 || max < standard) {
            throw new IllegalArgumentException("a read budget needs 2 <= standard <= max, got " + standard + " and " + max);
        }
    }

    /**
     * The budget of a request.
     *
     * @throws FilterParameters.InvalidParameterException naming {@code budget} when the request asks for more than {@code max}
     */
    int of(PageRequest request) {
        if (request.readBudget() > max) {
            throw new FilterParameters.InvalidParameterException(PageParameters.Parameter.BUDGET, "at most " + max + " items a page, got " + request.readBudget());
        }
        return request.readBudget() > 0 ? request.readBudget() : standard;
    }

    /** The most calls (Queries and BatchGetItems) a page of this budget makes, re-sent unprocessed keys aside. */
    static int maxCalls(int budget) {
        return IndexQuery.MAX_READS_PER_PAGE + budget / 50;
    }
}
