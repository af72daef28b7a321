package com.multikey.query;

import com.multikey.index.IndexValue;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The predicates' one text syntax: what each text means, that every predicate's text reads back as it, and each refusal. */
class PredicateTextTest {

    private static Predicate parse(String text) {
        return PredicateText.parse(text, 0);
    }

    @Test
    void eachOperator_readsAsItsPredicate_valuesTypedAsTheReadApisAuto() {
        assertThat(parse("status = open")).isEqualTo(new Predicate.Equals("status", new IndexValue.Text("open")));
        assertThat(parse("severity>=3")).isEqualTo(new Predicate.Range("severity", new IndexValue.Num(BigDecimal.valueOf(3)), true, null, false));
        assertThat(parse("severity < 2.50")).isEqualTo(new Predicate.Range("severity", null, false, IndexValue.Num.parse("2.5"), false));
        assertThat(parse("status != closed")).isEqualTo(new Predicate.NotEquals("status", new IndexValue.Text("closed")));
        assertThat(parse("status in (open, \"a, b\", 3)")).isEqualTo(new Predicate.In("status",
                List.of(new IndexValue.Text("open"), new IndexValue.Text("a, b"), IndexValue.Num.parse("3"))));
        assertThat(parse("title beginsWith \"Fix \"")).isEqualTo(new Predicate.BeginsWith("title", "Fix "));
        assertThat(parse("assignee present")).isEqualTo(new Predicate.Present("assignee"));
        assertThat(parse("priority missing")).isEqualTo(new Predicate.Missing("priority"));
        assertThat(parse("@details.team = core")).isEqualTo(new Predicate.Equals("@details.team", new IndexValue.Text("core")));
        assertThat(parse("\"my field\" = \"42\"")).isEqualTo(new Predicate.Equals("my field", new IndexValue.Text("42")));
        assertThat(parse("done = BOOL:true")).isEqualTo(new Predicate.Equals("done", new IndexValue.Bool(true)));
        assertThat(parse("done = true")).isEqualTo(new Predicate.Equals("done", new IndexValue.Text("true")));
        assertThat(parse("code = S:007")).isEqualTo(new Predicate.Equals("code", new IndexValue.Text("007")));
        assertThat(parse("code = N:7")).isEqualTo(new Predicate.Equals("code", IndexValue.Num.parse("7")));
    }

    @Test
    void whatCannotBeRead_isRefused_namingThePredicate() {
        assertThat(refusal("")).contains("is empty");
        assertThat(refusal("status")).contains("is not a predicate");
        assertThat(refusal("status = ")).contains("has no value");
        assertThat(refusal("status in open")).contains("in takes a list in parentheses");
        assertThat(refusal("status in (open,,x)")).contains("empty value");
        assertThat(refusal("title beginsWith 3")).contains("beginsWith takes text");
        assertThat(refusal("x present 1")).contains("present takes no value");
        assertThat(refusal("x = N:abc")).contains("N: is followed by a number");
        assertThat(refusal("x = N:1e999")).contains("no DynamoDB number can hold");
        assertThat(refusal("x = BOOL:yes")).contains("BOOL: is followed by true or false");
        assertThat(refusal("x = B:AAAA")).contains("binary values are not indexed");
        assertThat(refusal("x = \"open")).contains("quote that does not close");
        assertThat(refusal("@a..b = 1")).contains("empty name between dots");
        assertThatThrownBy(() -> PredicateText.parse("x", 3)).isInstanceOfSatisfying(InvalidPredicateException.class,
                e -> assertThat(e.position()).isEqualTo(3)).hasMessageStartingWith("predicate 3 ");
    }

    @Test
    void aQuotedTextFollowedByMore_isRefusedForTheTextAfterItsClosingQuote_notForAQuoteThatDoesNotClose() {
        for (String text : List.of("title = \"x\" y", "title = \"x\"y", "title beginsWith \"Fix\" it", "status in (\"open\" now, triage)",
                "title = \"a \\\" b\" c")) {
            assertThat(refusal(text)).as(text).contains("has text after a closing quote").doesNotContain("does not close");
        }
        assertThat(refusal("title = \"a \\\" b")).contains("quote that does not close");
    }

    @Test
    void aRequestsPredicates_areCheckedTogether() {
        assertThatThrownBy(() -> PredicateText.validate(List.of(parse("s >= 5"), parse("t < 1"), PredicateText.parse("s < 3", 2))))
                .isInstanceOfSatisfying(InvalidPredicateException.class, e -> assertThat(e.position()).isEqualTo(2))
                .hasMessageContaining("inverted range");
        assertThatThrownBy(() -> PredicateText.validate(List.of(parse("s > 5"), parse("s <= 5"))))
                .hasMessageContaining("inverted range");
        // bounds of two types never meet (numbers and texts are compared within their type only): no value is within both
        assertThatThrownBy(() -> PredicateText.validate(List.of(parse("s >= 5"), parse("s < a"))))
                .isInstanceOfSatisfying(InvalidPredicateException.class, e -> assertThat(e.position()).isEqualTo(1))
                .hasMessageContaining("two types");
        PredicateText.validate(List.of(parse("s >= 5"), parse("t < a")));
        PredicateText.validate(List.of(parse("s >= 5"), parse("s <= 5")));
        assertThatThrownBy(() -> PredicateText.validate(java.util.Collections.nCopies(9, parse("s = 1"))))
                .hasMessageContaining("too many predicates: at most 8");
    }

    @Property(tries = 1000)
    void everyPredicatesText_readsBackAsIt(@ForAll("predicates") Predicate predicate) {
        assertThat(parse(PredicateText.format(predicate))).isEqualTo(predicate);
    }

    @Provide
    Arbitrary<Predicate> predicates() {
        Arbitrary<String> fields = Arbitraries.oneOf(Arbitraries.strings().alpha().numeric().ofMinLength(1).ofMaxLength(8),
                Arbitraries.strings().withChars("ab \"=<!.,()\\é").ofMinLength(1).ofMaxLength(6),
                Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(5).map(name -> "@" + name + ".x"));
        Arbitrary<IndexValue> values = Arbitraries.oneOf(
                Arbitraries.bigDecimals().between(BigDecimal.valueOf(-1e9), BigDecimal.valueOf(1e9)).ofScale(3).map(IndexValue.Num::new),
                Arbitraries.strings().withChars("ab1 .,()\"\\:NSBOL-é").ofMaxLength(8).map(IndexValue.Text::new),
                Arbitraries.of(true, false).map(IndexValue.Bool::new));
        Arbitrary<String> texts = Arbitraries.strings().withChars("ab1 ,()\"\\é").ofMaxLength(6);
        return Arbitraries.oneOf(
                Combinators.combine(fields, values).as(Predicate.Equals::new),
                Combinators.combine(fields, values).as(Predicate.NotEquals::new),
                Combinators.combine(fields, values.list().ofMinSize(1).ofMaxSize(4)).as(Predicate.In::new),
                Combinators.combine(fields, texts).as(Predicate.BeginsWith::new),
                Combinators.combine(fields, values, Arbitraries.of(true, false)).as((f, v, inclusive) -> new Predicate.Range(f, v, inclusive, null, false)),
                Combinators.combine(fields, values, Arbitraries.of(true, false)).as((f, v, inclusive) -> new Predicate.Range(f, null, false, v, inclusive)),
                fields.map(Predicate.Present::new),
                fields.map(Predicate.Missing::new));
    }

    private static String refusal(String text) {
        try {
            parse(text);
        } catch (InvalidPredicateException e) {
            return e.getMessage();
        }
        throw new AssertionError("'" + text + "' was read");
    }
}
