package com.multikey.query;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A page's parameters as a caller writes them — the read API's query parameters, the operator CLI's options — read by this
 * one parser, so that both accept and refuse alike. Each refusal is typed: a {@link FilterParameters.InvalidParameterException} naming the
 * {@link Parameter} at fault (the API names it as its query parameter, the CLI as its option), or, for a predicate, an
 * {@link InvalidPredicateException} naming its position among the {@code where}s.
 *
 * @param order      asc or desc
 * @param pageSize   1 to {@value PageRequest#MAX_PAGE_SIZE}
 * @param cursor     the previous page's cursor; empty for the first page
 * @param missing    whether the items lacking the field follow
 * @param filter     the filter on the sorted field ({@link FilterParameters})
 * @param predicates the {@code where}s, in the order given: each a predicate or an expression of them ({@link ExpressionText})
 * @param budget     the items the page may read; empty: the reader's default
 * @param explain    whether the page says how it was read
 */
public record PageParameters(Order order, int pageSize, Optional<String> cursor, boolean missing, Optional<Filter> filter,
                             List<Expression> predicates, Optional<Integer> budget, boolean explain) {

    /** The page size when none is given. */
    public static final int DEFAULT_PAGE_SIZE = 25;

    /** A page parameter, by the name the read API gives it. */
    public enum Parameter {
        ORDER("order"), PAGE_SIZE("pageSize"), CURSOR("cursor"), MISSING("missing"), TYPE("type"), EQUALS("equals"),
        BEGINS_WITH("beginsWith"), LT("lt"), LE("le"), GT("gt"), GE("ge"), WHERE("where"), BUDGET("budget"), EXPLAIN("explain");

        private final String apiName;

        Parameter(String apiName) {
            this.apiName = apiName;
        }

        /** The read API's query parameter. */
        public String apiName() {
            return apiName;
        }

        /** The parameter the read API names so; empty for another name. */
        public static Optional<Parameter> ofApiName(String name) {
            for (Parameter parameter : values()) {
                if (parameter.apiName.equals(name)) {
                    return Optional.of(parameter);
                }
            }
            return Optional.empty();
        }
    }

    public PageParameters {
        Objects.requireNonNull(order, "order");
        cursor = Objects.requireNonNull(cursor, "cursor");
        filter = Objects.requireNonNull(filter, "filter");
        predicates = List.copyOf(predicates);
        budget = Objects.requireNonNull(budget, "budget");
    }

    /**
     * The parameters a caller gave, as text.
     *
     * @param given each parameter given once, by its name; absent: not given ({@link Parameter#WHERE} is {@code where})
     * @param where the {@code where}s, one text each, in order: a predicate, or predicates combined with and, or, not and
     *              parentheses ({@link ExpressionText})
     * @throws FilterParameters.InvalidParameterException naming the parameter at fault: an order not asc or desc, a page size not a whole
     *                                   number from 1 to {@value PageRequest#MAX_PAGE_SIZE}, missing or explain not true or
     *                                   false, a filter {@link FilterParameters} refuses, the missing tail with a filter, a
     *                                   budget not a whole number of at least 2
     * @throws InvalidPredicateException naming the predicate at fault by its position
     */
    public static PageParameters parse(Map<Parameter, String> given, List<String> where) {
        Order order = switch (given.getOrDefault(Parameter.ORDER, "asc")) {
            case "asc" -> Order.ASC;
            case "desc" -> Order.DESC;
            default -> throw new FilterParameters.InvalidParameterException(Parameter.ORDER, "must be asc or desc");
        };
        int pageSize = Optional.ofNullable(given.get(Parameter.PAGE_SIZE)).map(text -> {
            if (!text.matches("[0-9]{1,4}") || Integer.parseInt(text) < 1 || Integer.parseInt(text) > PageRequest.MAX_PAGE_SIZE) {
                throw new FilterParameters.InvalidParameterException(Parameter.PAGE_SIZE, "must be a whole number from 1 to " + PageRequest.MAX_PAGE_SIZE);
            }
            return Integer.parseInt(text);
        }).orElse(DEFAULT_PAGE_SIZE);
        boolean missing = bool(given, Parameter.MISSING);
        Optional<Filter> filter = new FilterParameters(given.get(Parameter.TYPE), given.get(Parameter.EQUALS),
                given.get(Parameter.BEGINS_WITH), given.get(Parameter.LT), given.get(Parameter.LE), given.get(Parameter.GT),
                given.get(Parameter.GE)).filter();
        if (missing && filter.isPresent()) {
            throw new FilterParameters.InvalidParameterException(Parameter.MISSING, "the items lacking the field match no filter: ask for them without one");
        }
        Optional<Integer> budget = Optional.ofNullable(given.get(Parameter.BUDGET)).map(text -> {
            if (!text.matches("-?[0-9]{1,9}")) {
                throw new FilterParameters.InvalidParameterException(Parameter.BUDGET, "must be a whole number of items, from 2 (an index item and its "
                        + "item) to the deployment's maximum");
            }
            int items = Integer.parseInt(text);
            if (items < 2) {
                throw new FilterParameters.InvalidParameterException(Parameter.BUDGET, "at least 2 items a page (an index item and its item), got " + items);
            }
            return items;
        });
        boolean explain = bool(given, Parameter.EXPLAIN);
        List<Expression> predicates = ExpressionText.parseAll(where);
        // the predicates together: how many, and ranges on one field that leave no value
        ExpressionText.validate(predicates, java.util.function.Function.identity());
        return new PageParameters(order, pageSize, Optional.ofNullable(given.get(Parameter.CURSOR)), missing, filter, predicates,
                budget, explain);
    }

    private static boolean bool(Map<Parameter, String> given, Parameter parameter) {
        return switch (given.getOrDefault(parameter, "false")) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new FilterParameters.InvalidParameterException(parameter, "must be true or false");
        };
    }

    /**
     * The request of these parameters on an index.
     *
     * @param index the index's name; null for the grid (in the layout the stack reads)
     * @param group the group's values, in the order of the index's group attributes
     * @param entry the map entry of a map-entries index; empty for other indexes
     */
    public PageRequest request(String index, List<AttributeValue> group, String entry) {
        return complete(new PageRequest(index, group, entry, order, pageSize, filter.orElse(null), missing, cursor.orElse(null)));
    }

    /**
     * The request of these parameters on several groups of an index ({@link PageRequest#withGroups}): their pages merged.
     *
     * @param index  the index's name; null for the grid (in the layout the stack reads)
     * @param groups each group's values, in the order of the index's group attributes; at most {@value PageRequest#MAX_GROUPS}
     * @param entry  the map entry of a map-entries index; empty for other indexes
     */
    public PageRequest requestOfGroups(String index, List<List<AttributeValue>> groups, String entry) {
        return complete(new PageRequest(index, groups.get(0), entry, order, pageSize, filter.orElse(null), missing, cursor.orElse(null))
                .withGroups(groups));
    }

    /** The request of these parameters on a project of the grid, sorted by a custom field. */
    public PageRequest gridRequest(String project, String attribId) {
        return complete(new PageRequest(project, attribId, order, pageSize, filter.orElse(null), missing, cursor.orElse(null)));
    }

    private PageRequest complete(PageRequest request) {
        PageRequest planned = request.where(predicates);
        if (budget.isPresent()) {
            planned = planned.withReadBudget(budget.get());
        }
        return explain ? planned.withExplain() : planned;
    }
}
