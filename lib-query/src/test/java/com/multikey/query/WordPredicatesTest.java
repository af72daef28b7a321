package com.multikey.query;

import com.multikey.index.IndexValue;
import com.multikey.index.ValueBounds;
import com.multikey.index.Words;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code has} and {@code has prefix}: their text, their test on a value, and the key ranges they map to. */
class WordPredicatesTest {

    private static Predicate parse(String text) {
        return PredicateText.parse(text, 0);
    }

    private static String refusal(String text) {
        try {
            parse(text);
        } catch (InvalidPredicateException e) {
            return e.getMessage();
        }
        throw new AssertionError("'" + text + "' was read");
    }

    @Test
    void parse_hasAndHasPrefix_readTheirWordLowerCased() {
        assertThat(parse("title has \"Timeout\"")).isEqualTo(new Predicate.Has("title", "timeout"));
        assertThat(parse("@title has timeout")).isEqualTo(new Predicate.Has("@title", "timeout"));
        assertThat(parse("title has 42")).isEqualTo(new Predicate.Has("title", "42"));
        assertThat(parse("title has \"timeout!\"")).isEqualTo(new Predicate.Has("title", "timeout"));
        assertThat(parse("title has prefix \"Time\"")).isEqualTo(new Predicate.HasPrefix("title", "time"));
        assertThat(parse("title  has   prefix  ti")).isEqualTo(new Predicate.HasPrefix("title", "ti"));
        assertThat(parse("title has \"prefix\"")).isEqualTo(new Predicate.Has("title", "prefix"));
        assertThat(parse("title has S:Café")).isEqualTo(new Predicate.Has("title", "café"));
    }

    @Test
    void parse_notOneWord_isRefusedNamingTheOperator() {
        assertThat(refusal("title has \"time out\"")).contains("has takes one word");
        assertThat(refusal("title has")).contains("has takes one word");
        assertThat(refusal("title has \"--\"")).contains("has takes one word");
        assertThat(refusal("title has prefix")).contains("has prefix takes one word");
        assertThat(refusal("title has prefix \"a b\"")).contains("has prefix takes one word");
        assertThat(refusal("title has " + "a".repeat(Words.MAX_WORD_LENGTH + 1))).contains("has takes one word");
    }

    @Property(tries = 500)
    void format_anyWordPredicate_readsBackAsIt(@ForAll("wordPredicates") Predicate predicate) {
        assertThat(parse(PredicateText.format(predicate))).isEqualTo(predicate);
    }

    @Provide
    Arbitrary<Predicate> wordPredicates() {
        Arbitrary<String> fields = Arbitraries.oneOf(Arbitraries.strings().alpha().numeric().ofMinLength(1).ofMaxLength(8),
                Arbitraries.strings().withChars("ab \"=<!.,()\\é").ofMinLength(1).ofMaxLength(6),
                Arbitraries.of("has", "prefix", "in"));
        Arbitrary<String> words = Arbitraries.strings().withChars("abzé09日").ofMinLength(1).ofMaxLength(8);
        return Arbitraries.oneOf(Combinators.combine(fields, words).as(Predicate.Has::new),
                Combinators.combine(fields, words).as(Predicate.HasPrefix::new));
    }

    @Test
    void test_aText_matchesByItsWords() {
        Predicate has = new Predicate.Has("title", "timeout");
        Predicate prefix = new Predicate.HasPrefix("title", "tim");
        assertThat(has.test(new IndexValue.Text("Fix the TIMEOUT, again"))).isTrue();
        assertThat(has.test(new IndexValue.Text("timeouts"))).isFalse();
        assertThat(has.test(IndexValue.Num.parse("1"))).isFalse();
        assertThat(prefix.test(new IndexValue.Text("a Timer"))).isTrue();
        assertThat(prefix.test(new IndexValue.Text("optimal"))).isFalse();
    }

    @Test
    void records_refuseWhatTheRuleNeverGives() {
        assertThatThrownBy(() -> new Predicate.Has("title", "Timeout")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Predicate.HasPrefix("title", "a b")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void keyRanges_onAWordsIndex_areTheWordsRanges_elseTheWholePartitionOrUnlisted() {
        ValueBounds bounds = new ValueBounds(400, true);
        KeyRanges has = KeyRanges.of(new Predicate.Has("title", "timeout"), field -> true, bounds, true);
        KeyRanges prefix = KeyRanges.of(new Predicate.HasPrefix("title", "time"), field -> true, bounds, true);

        assertThat(has).isEqualTo(new KeyRanges.Within(List.of(new Filter.Equals(new IndexValue.Text("timeout")).keyRange(bounds))));
        assertThat(prefix).isEqualTo(new KeyRanges.Within(List.of(new Filter.BeginsWith("time").keyRange(bounds))));
        // a words index holds words, never the field's value
        assertThat(KeyRanges.of(new Predicate.Equals("title", new IndexValue.Text("timeout")), field -> true, bounds, true))
                .isEqualTo(KeyRanges.UNLISTED);
        // an index of the values holds the whole text: a word is in one of the partition's values
        assertThat(KeyRanges.of(new Predicate.Has("title", "timeout"), field -> true, bounds)).isEqualTo(new KeyRanges.Partition());
    }
}
