package com.multikey.index.definition;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** How the router tells an item's entity type (the {@code Issue} of {@code Issue Updated}). */
public sealed interface EntityTypeRule {

    /** The type of an item, when this rule decides it. */
    Optional<String> typeOf(Map<String, AttributeValue> item);

    /** Items that pass every condition are of this type ({@code Layer} for {@code pk} beginning with {@code lyr#}). */
    record Named(String name, List<Condition> when) implements EntityTypeRule {
        public Named {
            Objects.requireNonNull(name, "name");
            when = List.copyOf(when);
        }

        @Override
        public Optional<String> typeOf(Map<String, AttributeValue> item) {
            for (Condition condition : when) {
                if (!condition.test(item)) {
                    return Optional.empty();
                }
            }
            return Optional.of(name);
        }
    }

    /**
     * The type is the part of a string attribute before the first separator: {@code issue#020e} gives
     * {@code issue}, {@code layer#us-east-1#requests#12} gives {@code layer}; a value without the separator, or
     * starting with it, decides nothing.
     */
    record KeyPrefix(AttributePath attribute, String separator) implements EntityTypeRule {
        public KeyPrefix {
            Objects.requireNonNull(attribute, "attribute");
            Objects.requireNonNull(separator, "separator");
        }

        @Override
        public Optional<String> typeOf(Map<String, AttributeValue> item) {
            AttributeValue value = attribute.resolve(item);
            if (value == null || value.s() == null) {
                return Optional.empty();
            }
            String text = value.s();
            int at = text.indexOf(separator);
            return at <= 0 ? Optional.empty() : Optional.of(text.substring(0, at));
        }
    }
}
