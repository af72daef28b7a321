package com.multikey.query;

import java.util.List;
import java.util.Objects;

/**
 * What a listed item satisfies: a {@link Predicate} on one field, or predicates combined with {@link And}, {@link Or} and
 * {@link Not}. This is the read side's one predicate model: the key ranges an index reads for it ({@link KeyRanges#of}), the
 * test on an item ({@link ItemTests#matches(Expression, com.multikey.index.ItemKey, java.util.Map)}) and its text
 * ({@link PredicateText#format(Expression)}) are exhaustive switches over it, so a new kind of predicate does not compile
 * until each knows it.
 *
 * <p>A request's {@code where}s ({@link PageRequest#where}) are the {@link And} of them; each is a predicate or an
 * expression, as {@link ExpressionText} reads it ({@code status = open or assignee = me}, {@code not (labels = wontfix)}).
 */
public sealed interface Expression permits Predicate, Expression.And, Expression.Or, Expression.Not {

    /** Every operand holds; on one field, as for a request's predicates, one value of the field satisfies them all. */
    record And(List<Expression> operands) implements Expression {
        public And {
            operands = List.copyOf(operands);
        }
    }

    /** At least one operand holds. */
    record Or(List<Expression> operands) implements Expression {
        public Or {
            operands = List.copyOf(operands);
            if (operands.isEmpty()) {
                throw new IllegalArgumentException("or needs at least one operand");
            }
        }
    }

    /** The operand does not hold (an item without the field satisfies {@code not (status = open)}). */
    record Not(Expression operand) implements Expression {
        public Not {
            Objects.requireNonNull(operand, "operand");
        }
    }

    /** The predicates of a request, all of which hold. */
    static Expression allOf(List<? extends Expression> operands) {
        return new And(List.copyOf(operands));
    }
}
