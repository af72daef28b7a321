package com.multikey.index;

import java.text.Normalizer;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The words of a text, the one rule a words index ({@code values: {wordsOf: title}}) and the read side's {@code has} and
 * {@code has prefix} share:
 * <ol>
 *   <li>each code point is lower-cased alone ({@link Character#toLowerCase(int)}, Unicode's simple lower-case mapping);</li>
 *   <li>the text is put in Unicode normalization form C (so a composed and a decomposed {@code é} are one letter);</li>
 *   <li>a word is a longest run of code points that are letters, digits or combining marks (Unicode categories L, Nd,
 *       Mn, Mc, Me: {@link Character#isLetterOrDigit(int)} or a mark); everything else separates words
 *       ({@code "don't"} is {@code don} and {@code t}, {@code "e-mail"} is {@code e} and {@code mail});</li>
 *   <li>a word longer than {@value #MAX_WORD_LENGTH} code points is left out (an identifier, a digest, an encoded blob);</li>
 *   <li>the words are distinct, in the order they first appear, and at most {@value #MAX_WORDS} of them: the words after the
 *       {@value #MAX_WORDS}th distinct one are left out.</li>
 * </ol>
 * What is left out is neither indexed nor found by {@code has}: the index and the test on an item's text agree.
 */
public final class Words {

    /** The longest word kept, in code points. */
    public static final int MAX_WORD_LENGTH = 64;
    /** The most distinct words one text gives. */
    public static final int MAX_WORDS = 200;

    private Words() {
    }

    /** The distinct words of a text, in the order they first appear, at most {@value #MAX_WORDS}. */
    public static List<String> of(String text) {
        StringBuilder lower = new StringBuilder(text.length());
        text.codePoints().map(Character::toLowerCase).forEach(lower::appendCodePoint);
        String normalized = Normalizer.normalize(lower, Normalizer.Form.NFC);
        Set<String> words = new LinkedHashSet<>();
        StringBuilder word = new StringBuilder();
        int length = 0;
        int i = 0;
        while (i <= normalized.length() && words.size() < MAX_WORDS) {
            int codePoint = i < normalized.length() ? normalized.codePointAt(i) : ' ';
            if (i < normalized.length() && isWordCodePoint(codePoint)) {
                word.appendCodePoint(codePoint);
                length++;
            } else {
                if (length > 0 && length <= MAX_WORD_LENGTH) {
                    words.add(word.toString());
                }
                word.setLength(0);
                length = 0;
            }
            i += i < normalized.length() ? Character.charCount(codePoint) : 1;
        }
        return List.copyOf(words);
    }

    /** The one word a text makes, when it makes exactly one (a {@code has} argument); empty otherwise. */
    public static Optional<String> single(String text) {
        List<String> words = of(text);
        return words.size() == 1 ? Optional.of(words.get(0)) : Optional.empty();
    }

    /** Whether a text is a word as this rule gives them: what a {@code has} predicate holds. */
    public static boolean isWord(String text) {
        return single(text).filter(text::equals).isPresent();
    }

    /** Whether a code point belongs in a word: a letter, a digit or a combining mark. */
    public static boolean isWordCodePoint(int codePoint) {
        if (Character.isLetterOrDigit(codePoint)) {
            return true;
        }
        int type = Character.getType(codePoint);
        return type == Character.NON_SPACING_MARK || type == Character.COMBINING_SPACING_MARK || type == Character.ENCLOSING_MARK;
    }
}
