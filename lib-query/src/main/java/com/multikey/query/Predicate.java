package com.multikey.query;

import com.multikey.index.IndexValue;
import com.multikey.index.Words;

import java.util.List;
import java.util.Objects;

/**
 * A condition a listed item must satisfy, on one field: an entry of the index's map (for the grid, a custom
 * field: {@code status}), or, written with {@code @} before it, an attribute of the item ({@code @title},
 * {@code @details.team}); for an index of one attribute or of a list's elements a plain name is an attribute too. A
 * field and its {@code @} spelling are one field: {@code @custom_fields.status} is the grid's entry {@code status}, and
 * {@code @labels} on an index of the elements of {@code labels} is the field it sorts by.
 *
 * <p>A field holds no value, one, or several (a list or set gives its elements). Every predicate but {@link Missing}
 * is tested on one value: an item matches the predicates on a field when one of its values satisfies them all (so
 * {@code severity >= 3} and {@code severity < 5} on a list field match an item with one element in [3, 5)).
 * {@link Missing} matches an item whose field holds no indexable value. A value of another type than the predicate's
 * never matches ({@code > 5} matches numbers only), as in the index's own order, where types do not mix.
 */
public sealed interface Predicate extends Expression {

    /** The field as written: an entry name, or {@code @} and an attribute path. */
    String field();

    /** Whether one value of the field satisfies it; {@link Missing} is decided on the field as a whole. */
    boolean test(IndexValue value);

    /** The field holds this value. */
    record Equals(String field, IndexValue value) implements Predicate {
        public Equals {
            Objects.requireNonNull(field, "field");
            Objects.requireNonNull(value, "value");
        }

        @Override
        public boolean test(IndexValue candidate) {
            return value.equals(candidate);
        }
    }

    /** The field holds one of these values. */
    record In(String field, List<IndexValue> values) implements Predicate {
        public In {
            Objects.requireNonNull(field, "field");
            values = List.copyOf(values);
            if (values.isEmpty()) {
                throw new IllegalArgumentException("in needs at least one value");
            }
        }

        @Override
        public boolean test(IndexValue candidate) {
            return values.contains(candidate);
        }
    }

    /**
     * The field holds another value of this value's type ({@code status != closed}: another text; an item without the field,
     * or with values of other types only, does not match).
     */
    record NotEquals(String field, IndexValue value) implements Predicate {
        public NotEquals {
            Objects.requireNonNull(field, "field");
            Objects.requireNonNull(value, "value");
        }

        @Override
        public boolean test(IndexValue candidate) {
            return candidate.getClass() == value.getClass() && !value.equals(candidate);
        }
    }

    /** The field holds a text that starts with {@code prefix}. */
    record BeginsWith(String field, String prefix) implements Predicate {
        public BeginsWith {
            Objects.requireNonNull(field, "field");
            Objects.requireNonNull(prefix, "prefix");
        }

        @Override
        public boolean test(IndexValue candidate) {
            return candidate instanceof IndexValue.Text text && text.value().startsWith(prefix);
        }
    }

    /**
     * The field holds a text with this word ({@code title has "timeout"}): the text's words are cut by the words index's
     * rule ({@link Words}), so case and punctuation do not matter; {@code word} is one word as that rule gives them.
     */
    record Has(String field, String word) implements Predicate {
        public Has {
            Objects.requireNonNull(field, "field");
            Objects.requireNonNull(word, "word");
            if (!Words.isWord(word)) {
                throw new IllegalArgumentException("has takes one word as the words rule gives them (lower-case letters, digits, marks)");
            }
        }

        @Override
        public boolean test(IndexValue candidate) {
            return candidate instanceof IndexValue.Text text && Words.of(text.value()).contains(word);
        }
    }

    /**
     * The field holds a text with a word that starts with {@code prefix} ({@code title has prefix "time"}: type-ahead), words
     * cut as for {@link Has}; {@code prefix} is the start of a word as the rule gives them.
     */
    record HasPrefix(String field, String prefix) implements Predicate {
        public HasPrefix {
            Objects.requireNonNull(field, "field");
            Objects.requireNonNull(prefix, "prefix");
            if (!Words.isWord(prefix)) {
                throw new IllegalArgumentException("has prefix takes the start of one word as the words rule gives them");
            }
        }

        @Override
        public boolean test(IndexValue candidate) {
            return candidate instanceof IndexValue.Text text && Words.of(text.value()).stream().anyMatch(w -> w.startsWith(prefix));
        }
    }

    /** The field holds a value of the bounds' type within them; a missing bound is open. */
    record Range(String field, IndexValue low, boolean lowInclusive, IndexValue high, boolean highInclusive) implements Predicate {
        public Range {
            Objects.requireNonNull(field, "field");
            if (low == null && high == null) {
                throw new IllegalArgumentException("a range needs at least one bound");
            }
            if (low != null && high != null && low.getClass() != high.getClass()) {
                throw new IllegalArgumentException("range bounds must be of one type");
            }
        }

        @Override
        public boolean test(IndexValue candidate) {
            IndexValue any = low != null ? low : high;
            if (candidate.getClass() != any.getClass()) {
                return false;
            }
            if (low != null) {
                int c = Values.compare(candidate, low);
                if (c < 0 || c == 0 && !lowInclusive) {
                    return false;
                }
            }
            if (high != null) {
                int c = Values.compare(candidate, high);
                return c < 0 || c == 0 && highInclusive;
            }
            return true;
        }

        /** Whether no value can satisfy it: its low bound above its high one, or equal with one end open. */
        public boolean isEmpty() {
            if (low == null || high == null) {
                return false;
            }
            int c = Values.compare(low, high);
            return c > 0 || c == 0 && !(lowInclusive && highInclusive);
        }
    }

    /** The field holds at least one indexable value. */
    record Present(String field) implements Predicate {
        public Present {
            Objects.requireNonNull(field, "field");
        }

        @Override
        public boolean test(IndexValue candidate) {
            return true;
        }
    }

    /** The field holds no indexable value (absent, null, an empty list, or values of a type no index holds). */
    record Missing(String field) implements Predicate {
        public Missing {
            Objects.requireNonNull(field, "field");
        }

        @Override
        public boolean test(IndexValue candidate) {
            return false;
        }
    }

    /** The order of values within one type, the index's: numbers by value, text by code point, false before true. */
    final class Values {
        private Values() {
        }

        static int compare(IndexValue a, IndexValue b) {
            return switch (a) {
                case IndexValue.Num n -> n.value().compareTo(((IndexValue.Num) b).value());
                case IndexValue.Text t -> java.util.Arrays.compare(t.value().codePoints().toArray(),
                        ((IndexValue.Text) b).value().codePoints().toArray());
                case IndexValue.Bool bool -> Boolean.compare(bool.value(), ((IndexValue.Bool) b).value());
            };
        }
    }
}
