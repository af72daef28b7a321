package com.multikey.query;

import com.multikey.index.IndexValue;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The where grammar: and, or, not and parentheses around the one predicate syntax; precedence, quoting, limits, offsets. */
class ExpressionTextTest {

    private static final Predicate A = new Predicate.Equals("a", IndexValue.Num.parse("1"));
    private static final Predicate B = new Predicate.Equals("b", IndexValue.Num.parse("2"));
    private static final Predicate C = new Predicate.Equals("c", new IndexValue.Text("x"));

    private static Expression parse(String text) {
        return ExpressionText.parse(text, 0);
    }

    @Test
    void parse_whenNotAndOr_bindsNotTightestThenAndThenOr() {
        assertThat(parse("a = 1 or b = 2 and c = x")).isEqualTo(new Expression.Or(List.of(A, new Expression.And(List.of(B, C)))));
        assertThat(parse("(a = 1 or b = 2) and c = x")).isEqualTo(new Expression.And(List.of(new Expression.Or(List.of(A, B)), C)));
        assertThat(parse("not a = 1 and b = 2")).isEqualTo(new Expression.And(List.of(new Expression.Not(A), B)));
        assertThat(parse("not (a = 1 and b = 2)")).isEqualTo(new Expression.Not(new Expression.And(List.of(A, B))));
        assertThat(parse("a = 1 or b = 2 or c = x")).isEqualTo(new Expression.Or(List.of(A, B, C)));
    }

    @Test
    void parse_whenKeywordsInAnyCase_readsThemAlike() {
        assertThat(parse("a = 1 OR b = 2")).isEqualTo(parse("a = 1 or b = 2"));
        assertThat(parse("NOT(a = 1) And b = 2")).isEqualTo(new Expression.And(List.of(new Expression.Not(A), B)));
    }

    @Test
    void parse_whenOnePredicate_readsAsThePredicateSyntaxDoes() {
        for (String text : List.of("status = open", "status in (open, \"a, b\", 3)", "title beginsWith \"Fix \"", "priority missing",
                "assignee present", "@details.team = core", "\"my field\" = \"42\"", "title = Fix the bug", "title = (draft)",
                "severity >= 3", "not = 1", "not present", "order = 4", "android = 1", "x = andor")) {
            assertThat(parse(text)).as(text).isEqualTo(PredicateText.parse(text, 0));
        }
    }

    @Test
    void parse_whenKeywordsQuotedOrInsideInLists_keepsThemInTheValue() {
        assertThat(parse("title = \"salt and pepper\" or a = 1")).isEqualTo(new Expression.Or(List.of(
                new Predicate.Equals("title", new IndexValue.Text("salt and pepper")), A)));
        assertThat(parse("status in (open, \"or\") and a = 1")).isEqualTo(new Expression.And(List.of(
                new Predicate.In("status", List.of(new IndexValue.Text("open"), new IndexValue.Text("or"))), A)));
        assertThat(parse("(status in (a, b))")).isEqualTo(new Predicate.In("status", List.of(new IndexValue.Text("a"), new IndexValue.Text("b"))));
    }

    @Test
    void parse_whenMalformed_namesThePositionAndTheOffendingTokensOffset() {
        assertRefused("a = 1 or", 2, 8, "ends where a predicate");
        assertRefused("(a = 1 or b = 2", 2, 0, "'(' that does not close");
        assertRefused("a = 1) or b = 2", 2, 5, "')' that closes no '('");
        assertRefused("a = 1 and b =", 2, 10, "has no value");
        assertRefused("a = 1 or ()", 2, 10, "')' where a predicate was expected");
        assertRefused("not not not not not a = 1", 2, 16, "nests deeper than 4");
        assertRefused("(((((a = 1)))))", 2, 4, "nests deeper than 4");
        assertThat(parse("((((a = 1))))")).isEqualTo(A);
        assertRefused("not (a = 1 or (b = 2 and not (c = x)))", 2, 29, "nests deeper than 4");
    }

    @Test
    void parse_whenDepthFour_isRead() {
        assertThat(parse("not (a = 1 or (b = 2 and not c = x))")).isEqualTo(new Expression.Not(new Expression.Or(List.of(A,
                new Expression.And(List.of(B, new Expression.Not(C)))))));
    }

    @Test
    void parseAll_whenMoreThanEightPredicatesInAll_refusesTheOneTooMany() {
        assertThatThrownBy(() -> ExpressionText.parseAll(List.of("a = 1 or b = 2 or c = 3", "d = 1 or e = 2 or f = 3", "g = 1 or h = 2 or i = 3")))
                .isInstanceOfSatisfying(InvalidPredicateException.class, e -> {
                    assertThat(e.position()).isEqualTo(2);
                    assertThat(e.offset()).isEqualTo(18);
                }).hasMessageContaining("at most 8");
        assertThat(ExpressionText.parseAll(List.of("a = 1 or b = 2 or c = 3 or d = 4", "e = 1 or f = 2 or g = 3 or h = 4"))).hasSize(2);
    }

    @Test
    void parse_whenEmpty_isRefusedAsAPredicateIs() {
        assertThatThrownBy(() -> ExpressionText.parse(" ", 1)).isInstanceOfSatisfying(InvalidPredicateException.class,
                e -> assertThat(e.position()).isEqualTo(1)).hasMessageContaining("is empty");
    }

    @Property(tries = 300)
    void format_readsBackAsTheExpression(@ForAll("expressions") Expression expression) {
        assertThat(parse(ExpressionText.format(expression))).isEqualTo(normal(expression));
    }

    private static void assertRefused(String text, int position, int offset, String what) {
        assertThatThrownBy(() -> ExpressionText.parse(text, position)).isInstanceOfSatisfying(InvalidPredicateException.class, e -> {
            assertThat(e.position()).as(text).isEqualTo(position);
            assertThat(e.offset()).as(text).isEqualTo(offset);
        }).hasMessageStartingWith("predicate " + position + " at character " + offset + ": ").hasMessageContaining(what);
    }

    /** As the parser builds it: an and of ands, an or of ors flattened (written in parentheses, they are one). */
    private static Expression normal(Expression expression) {
        return switch (expression) {
            case Predicate p -> p;
            case Expression.Not not -> new Expression.Not(normal(not.operand()));
            case Expression.And and -> new Expression.And(and.operands().stream().map(ExpressionTextTest::normal).toList());
            case Expression.Or or -> new Expression.Or(or.operands().stream().map(ExpressionTextTest::normal).toList());
        };
    }

    @Provide
    Arbitrary<Expression> expressions() {
        return expression(4).filter(e -> ExpressionText.leaves(e) <= PredicateText.MAX_PREDICATES);
    }

    private static Arbitrary<Expression> expression(int depth) {
        Arbitrary<Expression> leaf = Arbitraries.of(
                new Predicate.Equals("status", new IndexValue.Text("open")),
                new Predicate.Equals("title", new IndexValue.Text("salt and pepper")),
                new Predicate.Equals("or", new IndexValue.Text("not")),
                new Predicate.NotEquals("severity", IndexValue.Num.parse("3")),
                new Predicate.In("labels", List.of(new IndexValue.Text("a"), new IndexValue.Text("(b)"))),
                new Predicate.BeginsWith("title", "Fix ("),
                new Predicate.Range("severity", IndexValue.Num.parse("2"), true, null, false),
                new Predicate.Range("severity", null, false, IndexValue.Num.parse("5"), false),
                new Predicate.Present("@details.team"),
                new Predicate.Missing("priority"),
                new Predicate.Equals("done", new IndexValue.Bool(true)));
        if (depth == 0) {
            return leaf;
        }
        Arbitrary<Expression> inner = Arbitraries.lazy(() -> expression(depth - 1));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, leaf),
                net.jqwik.api.Tuple.of(1, inner.map(Expression.Not::new)),
                net.jqwik.api.Tuple.of(1, inner.list().ofMinSize(2).ofMaxSize(3).map(Expression.And::new)),
                net.jqwik.api.Tuple.of(1, inner.list().ofMinSize(2).ofMaxSize(3).map(Expression.Or::new)));
    }
}
