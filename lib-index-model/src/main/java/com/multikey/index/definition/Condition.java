package com.multikey.index.definition;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;
import java.util.Objects;

/** One test an item must pass to be covered by an index or to be of an entity type. */
public sealed interface Condition {

    AttributePath path();

    boolean test(Map<String, AttributeValue> item);

    /** The attribute is a string (or, for a key of type B, nothing) beginning with the prefix. */
    record BeginsWith(AttributePath path, String prefix) implements Condition {
        public BeginsWith {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(prefix, "prefix");
        }

        @Override
        public boolean test(Map<String, AttributeValue> item) {
            AttributeValue value = path.resolve(item);
            return value != null && value.s() != null && value.s().startsWith(prefix);
        }
    }

    /** The attribute equals the value (a string, number or boolean; numbers by value, so 1 equals 1.0). */
    record Equals(AttributePath path, AttributeValue value) implements Condition {
        public Equals {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(value, "value");
        }

        @Override
        public boolean test(Map<String, AttributeValue> item) {
            AttributeValue actual = path.resolve(item);
            if (actual == null || actual.type() != value.type()) {
                return false;
            }
            if (value.type() == AttributeValue.Type.N) {
                try {
                    return new java.math.BigDecimal(actual.n()).compareTo(new java.math.BigDecimal(value.n())) == 0;
                } catch (NumberFormatException e) {
                    return false;
                }
            }
            return actual.equals(value);
        }
    }

    /** The attribute is present and not NULL: what makes an index sparse. */
    record Exists(AttributePath path) implements Condition {
        public Exists {
            Objects.requireNonNull(path, "path");
        }

        @Override
        public boolean test(Map<String, AttributeValue> item) {
            AttributeValue value = path.resolve(item);
            return value != null && value.type() != AttributeValue.Type.NUL;
        }
    }
}
