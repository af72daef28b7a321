package com.multikey.query;

import com.multikey.index.IndexValue;
import org.junit.jupiter.api.Test;

import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The where grammar at its limits (decision 0028, ExpressionText's contract). */
class ExpressionLimitsTest {

    @Test
    void depth_fourHolds_fiveIsRefused() {
        assertThat(ExpressionText.parse("not not not not a = 1", 0)).isInstanceOf(Expression.Not.class);
        assertThat(ExpressionText.parse("((((a = 1))))", 0)).isEqualTo(ExpressionText.parse("a = 1", 0));
        assertThat(ExpressionText.parse("not (not (a = 1 or b = 2))", 0)).isInstanceOf(Expression.Not.class);
        assertThatThrownBy(() -> ExpressionText.parse("not not not not not a = 1", 0)).isInstanceOf(InvalidPredicateException.class);
        assertThatThrownBy(() -> ExpressionText.parse("(((((a = 1)))))", 0)).isInstanceOf(InvalidPredicateException.class);
        assertThatThrownBy(() -> ExpressionText.parse("not ((not (a = 1)))", 0)).isInstanceOf(InvalidPredicateException.class);
    }

    @Test
    void emptyParentheses_andDanglingKeywords_areRefused() {
        for (String text : List.of("()", "a = 1 or ()", "not", "a = 1 and", "or", "(a = 1", "a = 1)", "not ()")) {
            assertThatThrownBy(() -> ExpressionText.parse(text, 0)).as(text).isInstanceOf(InvalidPredicateException.class);
        }
    }

    @Test
    void notNot_isTheDoubleNegation() {
        Expression parsed = ExpressionText.parse("not not a = 1", 0);
        assertThat(parsed).isEqualTo(new Expression.Not(new Expression.Not(ExpressionText.parse("a = 1", 0))));
        assertThat(ExpressionText.parse("NOT Not a = 1", 0)).isEqualTo(parsed);
    }

    @Test
    void keywordsAsFieldNames_andQuotedKeywords_arePredicates() {
        assertThat(ExpressionText.parse("or = 1 or and = 2", 0)).isEqualTo(new Expression.Or(List.of(
                new Predicate.Equals("or", new IndexValue.Num(java.math.BigDecimal.ONE)),
                new Predicate.Equals("and", new IndexValue.Num(java.math.BigDecimal.valueOf(2))))));
        assertThat(ExpressionText.parse("not = 1", 0)).isInstanceOf(Predicate.Equals.class);
        assertThat(ExpressionText.parse("title = \"salt and pepper\"", 0)).isEqualTo(
                new Predicate.Equals("title", new IndexValue.Text("salt and pepper")));
        assertThat(ExpressionText.parse("title = \"or\" or title = \"(x)\"", 0)).isEqualTo(new Expression.Or(List.of(
                new Predicate.Equals("title", new IndexValue.Text("or")), new Predicate.Equals("title", new IndexValue.Text("(x)")))));
    }

    @Test
    void eightPredicatesOverSeveralWheres_hold_nineAreRefused() {
        List<Expression> eight = ExpressionText.parseAll(List.of("a = 1 or b = 2", "not (c = 3 and d = 4)", "e = 5", "f = 6 or g = 7", "h = 8"));
        ExpressionText.validate(eight, java.util.function.Function.identity());
        assertThatThrownBy(() -> ExpressionText.parseAll(List.of("a = 1 or b = 2", "not (c = 3 and d = 4)", "e = 5", "f = 6 or g = 7",
                "h = 8", "i = 9"))).isInstanceOf(InvalidPredicateException.class);
        // eight one-predicate wheres then one expression
        List<String> texts = new java.util.ArrayList<>(Collections.nCopies(8, "a = 1"));
        texts.add("(b = 2)");
        assertThatThrownBy(() -> PageRequest.first("p", "rank", Order.ASC, 5).where(ExpressionText.parseAll(texts)))
                .isInstanceOf(InvalidPredicateException.class);
        // an expression then eight one-predicate wheres
        List<String> reversed = new java.util.ArrayList<>(List.of("(b = 2)"));
        reversed.addAll(Collections.nCopies(8, "a = 1"));
        assertThatThrownBy(() -> PageRequest.first("p", "rank", Order.ASC, 5).where(ExpressionText.parseAll(reversed)))
                .isInstanceOf(InvalidPredicateException.class);
    }

    @Test
    void has_ofACapitalisedOrAccentedWord_isCutByTheTokenizer() {
        assertThat(ExpressionText.parse("title has Timeout", 0)).isEqualTo(new Predicate.Has("title", "timeout"));
        assertThat(ExpressionText.parse("title has \"Cafe\u0301\"", 0)).isEqualTo(new Predicate.Has("title", "caf\u00e9"));
        assertThat(ExpressionText.parse("title has prefix \"TIME\" or title has \u00c9t\u00e9", 0)).isEqualTo(new Expression.Or(List.of(
                new Predicate.HasPrefix("title", "time"), new Predicate.Has("title", "\u00e9t\u00e9"))));
    }
}
