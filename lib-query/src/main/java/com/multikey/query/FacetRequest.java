package com.multikey.query;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Objects;

/**
 * The counts of the values of one or more fields of an index within a group, optionally of the items matching
 * predicates.
 *
 * @param index      the index name (either name of the issue grid reads the grid)
 * @param group      the group's values, in the index's declared order
 * @param fields     the fields counted, 1 to {@value #MAX_FIELDS}: entry names of a map-entries index, or the attribute an
 *                   index of one attribute (or of a list's elements) holds
 * @param top        how many values of each field to list, most frequent first (1 to {@value #MAX_TOP})
 * @param predicates the predicates, or expressions of them ({@link ExpressionText}), the counted items satisfy (all of them); empty: every item of the group
 * @param readBudget the items a count made at read time may read, per field; 0: {@link Counts#DEFAULT_BUDGET}
 */
public record FacetRequest(String index, List<AttributeValue> group, List<String> fields, int top, List<Expression> predicates,
                           int readBudget) {

    public static final int DEFAULT_TOP = 10;
    public static final int MAX_TOP = 100;
    public static final int MAX_FIELDS = 10;

    public FacetRequest {
        Objects.requireNonNull(index, "index");
        group = List.copyOf(group);
        fields = List.copyOf(fields);
        predicates = List.copyOf(predicates);
        if (fields.isEmpty() || fields.size() > MAX_FIELDS) {
            throw new InvalidCountException("field", "name 1 to " + MAX_FIELDS + " fields to count, got " + fields.size());
        }
        for (String field : fields) {
            if (field.isEmpty()) {
                throw new InvalidCountException("field", "a field name is not empty");
            }
        }
        if (fields.stream().distinct().count() != fields.size()) {
            throw new InvalidCountException("field", "each field once");
        }
        if (top < 1 || top > MAX_TOP) {
            throw new InvalidCountException("top", "from 1 to " + MAX_TOP + ", got " + top);
        }
        // at most the query's maximum, which Counts checks: a deployment's may be above the default's
        if (readBudget != 0 && readBudget < 2) {
            throw new InvalidCountException("budget", "from 2 to the most a query reads (" + ReadBudget.DEFAULT.max() + " by default) items, got "
                    + readBudget);
        }
        ExpressionText.validate(predicates, java.util.function.Function.identity());
    }

    /** The counts of these fields, the top {@value #DEFAULT_TOP} values of each, of every item of the group. */
    public static FacetRequest of(String index, List<AttributeValue> group, List<String> fields) {
        return new FacetRequest(index, group, fields, DEFAULT_TOP, List.of(), 0);
    }

    public FacetRequest withTop(int top) {
        return new FacetRequest(index, group, fields, top, predicates, readBudget);
    }

    public FacetRequest where(List<? extends Expression> predicates) {
        return new FacetRequest(index, group, fields, top, List.copyOf(predicates), readBudget);
    }

    public FacetRequest withReadBudget(int items) {
        return new FacetRequest(index, group, fields, top, predicates, items);
    }
}
