package com.multikey.dynamodb.value;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A DynamoDB attribute value, immutable. Numbers are held normalized (see {@link Numbers}); sets keep the
 * order their elements were first given in and never hold duplicates or nothing. An item is a
 * {@code Map<String, Value>}.
 */
public sealed interface Value {

    /** The type descriptor as the wire protocol spells it: S, N, B, BOOL, NULL, L, M, SS, NS, BS. */
    String type();

    record S(String value) implements Value {
        public S {
            Objects.requireNonNull(value);
        }

        public String type() { return "S"; }
    }

    /** A number, validated and normalized by {@link Numbers#parse}: equal numbers are equal records. */
    record N(BigDecimal value) implements Value {
        public N {
            // Normalized here too, so that a number computed by BigDecimal arithmetic still equals its parse.
            value = value.signum() == 0 ? BigDecimal.ZERO : value.stripTrailingZeros();
        }

        public String type() { return "N"; }
    }

    /** Binary; equality by content. */
    record B(Bytes value) implements Value {
        public B {
            Objects.requireNonNull(value);
        }

        public String type() { return "B"; }
    }

    record Bool(boolean value) implements Value {
        public String type() { return "BOOL"; }
    }

    record Null() implements Value {
        public String type() { return "NULL"; }
    }

    record L(List<Value> values) implements Value {
        public L {
            values = List.copyOf(values);
        }

        public String type() { return "L"; }
    }

    /** A map; its entries keep the order they were given in (equality ignores order). */
    record M(Map<String, Value> entries) implements Value {
        public M {
            entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
        }

        public String type() { return "M"; }
    }

    record SS(Set<String> values) implements Value {
        public SS {
            values = Collections.unmodifiableSet(new LinkedHashSet<>(values));
        }

        public String type() { return "SS"; }
    }

    record NS(Set<BigDecimal> values) implements Value {
        public NS {
            // Normalized so that 1 and 1.0 are one element, and set equality is numeric equality.
            LinkedHashSet<BigDecimal> normalized = new LinkedHashSet<>();
            for (BigDecimal v : values) {
                normalized.add(v.signum() == 0 ? BigDecimal.ZERO : v.stripTrailingZeros());
            }
            values = Collections.unmodifiableSet(normalized);
        }

        public String type() { return "NS"; }
    }

    record BS(Set<Bytes> values) implements Value {
        public BS {
            values = Collections.unmodifiableSet(new LinkedHashSet<>(values));
        }

        public String type() { return "BS"; }
    }
}
