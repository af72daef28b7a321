package com.multikey.index;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * One indexable value of a custom field: a number, a string or a boolean. Numbers are held in canonical
 * form, so {@code 1}, {@code 1.0} and {@code 1e0} are one value.
 *
 * <p>Order across types (the order of the index): numbers &lt; strings &lt; booleans; numbers by numeric
 * value, strings by Unicode code point (the UTF-8 byte order DynamoDB uses), {@code false &lt; true}.
 */
public sealed interface IndexValue {

    AttributeValue toAttributeValue();

    record Num(BigDecimal value) implements IndexValue {
        public Num {
            value = canonical(Objects.requireNonNull(value, "value"));
        }

        public static Num parse(String text) {
            return new Num(new BigDecimal(text));
        }

        @Override
        public AttributeValue toAttributeValue() {
            return AttributeValue.fromN(value.toString());
        }

        static BigDecimal canonical(BigDecimal number) {
            return number.signum() == 0 ? BigDecimal.ZERO : number.stripTrailingZeros();
        }
    }

    record Text(String value) implements IndexValue {
        public Text {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public AttributeValue toAttributeValue() {
            return AttributeValue.fromS(value);
        }
    }

    record Bool(boolean value) implements IndexValue {
        @Override
        public AttributeValue toAttributeValue() {
            return AttributeValue.fromBool(value);
        }
    }
}
