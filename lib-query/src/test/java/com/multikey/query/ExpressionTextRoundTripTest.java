package com.multikey.query;

import com.multikey.index.IndexValue;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The where grammar at its edges: format writes what parse reads back (keyword values, parenthesised fields), the limit of predicates, a field named not before has. */
class ExpressionTextRoundTripTest {

    @Test
    void format_quotesAKeywordValue_soParseReadsItBack() {
        for (String keyword : List.of("or", "and", "not", "OR")) {
            Expression equals = new Predicate.Equals("status", new IndexValue.Text(keyword));
            Expression or = new Expression.Or(List.of(equals, new Predicate.Equals("team", new IndexValue.Text("core"))));
            assertThat(ExpressionText.parse(ExpressionText.format(equals), 0)).as(keyword).isEqualTo(equals);
            assertThat(ExpressionText.parse(ExpressionText.format(or), 0)).as(keyword).isEqualTo(or);
        }
    }

    @Test
    void parseAll_refusesNinePredicates_whenTheNinthWhereIsOnePredicateAlone() {
        assertThatThrownBy(() -> ExpressionText.parseAll(List.of("a = 1 or b = 2", "not (c = 3 and d = 4)", "e = 5", "f = 6 or g = 7",
                "h = 8", "i = 9"))).isInstanceOf(InvalidPredicateException.class);
    }

    @Test
    void format_quotesAFieldHoldingAParenthesis_soParseReadsItBack() {
        for (String field : List.of("(x", "x)")) {
            Expression equals = new Predicate.Equals(field, new IndexValue.Text("v"));
            assertThat(ExpressionText.parse(ExpressionText.format(new Expression.Not(equals)), 0)).as(field)
                    .isEqualTo(new Expression.Not(equals));
        }
    }

    @Test
    void format_quotesAFieldNamedAsAnOperatorWord_soParseReadsItBackAfterNot() {
        // "not" followed by an operator is a field named not (not in (a, b)): a field named in, has, ... is quoted after a not
        for (String field : List.of("in", "IN", "present", "missing", "has", "Has", "beginsWith")) {
            Expression not = new Expression.Not(new Predicate.Equals(field, new IndexValue.Num(java.math.BigDecimal.ONE)));
            Expression or = new Expression.Or(List.of(new Predicate.Present("a"), not));
            assertThat(ExpressionText.parse(ExpressionText.format(not), 0)).as(field).isEqualTo(not);
            assertThat(ExpressionText.parse(ExpressionText.format(or), 0)).as(field).isEqualTo(or);
            assertThat(ExpressionText.parse(PredicateText.format(or), 0)).as(field).isEqualTo(or);
        }
    }

    @Test
    void notBeforeHas_isAFieldNamedNot_asBeforeAnyOtherOperator() {
        // ExpressionText: "not before a field is the keyword unless what follows it is an operator" (not = 1 is a predicate)
        assertThat(ExpressionText.parse("not = 1", 0)).isInstanceOf(Predicate.Equals.class);
        assertThat(ExpressionText.parse("not in (a, b)", 0)).isInstanceOf(Predicate.In.class);
        assertThat(ExpressionText.parse("not has timeout", 0)).isEqualTo(new Predicate.Has("not", "timeout"));
        assertThat(ExpressionText.parse("not has prefix time", 0)).isEqualTo(new Predicate.HasPrefix("not", "time"));
    }
}
