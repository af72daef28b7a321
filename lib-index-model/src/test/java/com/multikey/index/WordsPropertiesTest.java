package com.multikey.index;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The words of a text against a model written from the rule in docs/index-definitions.md ("Words"): lower-case each code
 * point, normalize to NFC, split on what is not a letter, a digit or a mark, leave out words over 64 code points, keep the
 * first 200 distinct words in the order they appear.
 */
class WordsPropertiesTest {

    /** The documented rule, written out plainly: a split with a regular expression, then the limits. */
    static List<String> model(String text) {
        StringBuilder lower = new StringBuilder();
        text.codePoints().forEach(cp -> lower.appendCodePoint(Character.toLowerCase(cp)));
        String normalized = Normalizer.normalize(lower, Normalizer.Form.NFC);
        List<String> words = new ArrayList<>();
        for (String run : normalized.split("[^\\p{L}\\p{Nd}\\p{M}]+")) {
            if (run.isEmpty() || run.codePointCount(0, run.length()) > 64 || words.contains(run)) {
                continue;
            }
            if (words.size() == 200) {
                break;
            }
            words.add(run);
        }
        return words;
    }

    @Provide
    Arbitrary<String> texts() {
        Arbitrary<String> word = Arbitraries.oneOf(
                Arbitraries.strings().withChars("aAbBzZéÉ0179İıßΣσς").ofMinLength(1).ofMaxLength(6),
                Arbitraries.strings().withCharRange('a', 'c').ofMinLength(60).ofMaxLength(70),
                Arbitraries.of("e\u0301", "E\u0301", "\u0915\u093F", "日本", "\uD835\uDC00x", "x\u20DD", "\u0301"));
        Arbitrary<String> separator = Arbitraries.oneOf(
                Arbitraries.of(" ", "-", "'", ".", "\t", "\n", "_", "/", "\u00A0", "\u2028", "😀", "\uD800", "=\u0338", "½", "Ⅳ"),
                Arbitraries.strings().withChars(" ,;!?()").ofMinLength(1).ofMaxLength(3));
        Arbitrary<String> piece = Arbitraries.oneOf(word, separator, Arbitraries.strings().ofMaxLength(4));
        return Arbitraries.oneOf(
                piece.list().ofMaxSize(40).map(list -> String.join("", list)),
                // past the most words a text gives
                Arbitraries.integers().between(150, 260).map(n -> {
                    StringBuilder text = new StringBuilder();
                    for (int i = 0; i < n; i++) {
                        text.append("w").append(i % 230).append(' ');
                    }
                    return text.toString();
                }));
    }

    @Property(tries = 1000)
    void of_anyText_isTheDocumentedRule(@ForAll("texts") String text) {
        assertThat(Words.of(text)).isEqualTo(model(text));
    }

    @Property(tries = 500)
    void of_eachWordItGives_isThatWordAlone(@ForAll("texts") String text) {
        for (String word : Words.of(text)) {
            assertThat(Words.isWord(word)).as(word).isTrue();
            assertThat(Words.of(word)).containsExactly(word);
        }
    }

    @Property(tries = 300)
    void of_aTextAndItsWordsJoined_giveTheSameWords(@ForAll("texts") String text) {
        assertThat(Words.of(String.join(" ", Words.of(text)))).isEqualTo(Words.of(text));
    }

    @Test
    void of_aTitle_givesItsLowerCasedDistinctWords() {
        assertThat(Words.of("Timeout: the TIMEOUT of e-mail can't time-out")).containsExactly("timeout", "the", "of", "e", "mail",
                "can", "t", "time", "out");
    }

    @Test
    void of_composedAndDecomposedLetters_areOneWord() {
        assertThat(Words.of("Cafe\u0301")).containsExactly("café");
        assertThat(Words.of("CAFÉ")).containsExactly("café");
    }

    @Test
    void of_wordsPastTheLimits_areLeftOut() {
        String longWord = "a".repeat(Words.MAX_WORD_LENGTH + 1);
        assertThat(Words.of("x " + longWord + " " + "b".repeat(Words.MAX_WORD_LENGTH))).containsExactly("x", "b".repeat(64));
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 250; i++) {
            many.append("w").append(i).append(' ');
        }
        List<String> words = Words.of(many.toString());
        assertThat(words).hasSize(Words.MAX_WORDS).endsWith("w199");
    }

    @Test
    void single_aTextOfOneWord_givesIt_elseNone() {
        assertThat(Words.single("  Timeout! ")).contains("timeout");
        assertThat(Words.single("time out")).isEmpty();
        assertThat(Words.single("--")).isEmpty();
        assertThat(Words.isWord("Timeout")).isFalse();
        assertThat(Words.isWord("timeout")).isTrue();
    }
}
