package com.multikey.index.definition;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where an attribute sits in an item: a top-level name, or names of nested maps joined by dots
 * ({@code details.owner.team}). A name that itself holds a dot cannot be addressed.
 */
public record AttributePath(List<String> names) {

    public AttributePath {
        names = List.copyOf(Objects.requireNonNull(names, "names"));
        if (names.isEmpty() || names.stream().anyMatch(String::isEmpty)) {
            throw new IllegalArgumentException("empty attribute path");
        }
    }

    /**
     * @throws DefinitionException (with {@code where} as the place named) when the path is empty or has an empty name
     */
    public static AttributePath parse(String text, String where) {
        if (text == null || text.isBlank()) {
            throw new DefinitionException(where + ": the attribute path is empty; name an attribute, e.g. 'project' or 'details.team'");
        }
        List<String> names = List.of(text.split("\\.", -1));
        if (names.stream().anyMatch(String::isEmpty)) {
            throw new DefinitionException(where + ": the attribute path '" + text
                    + "' has an empty name between dots; write names joined by single dots, e.g. 'details.team'");
        }
        return new AttributePath(names);
    }

    /** The value at this path, or null when the item lacks it (or a step on the way is not a map). */
    public AttributeValue resolve(Map<String, AttributeValue> item) {
        if (item == null) {
            return null;
        }
        AttributeValue value = item.get(names.get(0));
        for (int i = 1; i < names.size() && value != null; i++) {
            value = value.type() == AttributeValue.Type.M ? value.m().get(names.get(i)) : null;
        }
        return value;
    }

    /** Whether this path is the other, or lies inside it, or holds it. */
    public boolean overlaps(AttributePath other) {
        int common = Math.min(names.size(), other.names.size());
        return names.subList(0, common).equals(other.names.subList(0, common));
    }

    public boolean isTopLevel() {
        return names.size() == 1;
    }

    @Override
    public String toString() {
        return String.join(".", names);
    }
}
