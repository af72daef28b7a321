package com.multikey.dynamodb.expression;

import java.util.List;
import java.util.stream.Collectors;

/** A document path resolved to attribute names and list indexes: {@code a.b[2].c} is [a, b, [2], c]. */
record Path(List<Element> elements) {

    sealed interface Element {
    }

    record Name(String name) implements Element {
        @Override
        public String toString() {
            return name;
        }
    }

    record Index(int index) implements Element {
        @Override
        public String toString() {
            return "[" + index + "]";
        }
    }

    Path {
        elements = List.copyOf(elements);
    }

    /** The top-level attribute name (every path starts with a name). */
    String first() {
        return ((Name) elements.get(0)).name();
    }

    Path parent() {
        return new Path(elements.subList(0, elements.size() - 1));
    }

    Element last() {
        return elements.get(elements.size() - 1);
    }

    int size() {
        return elements.size();
    }

    /** As DynamoDB's messages show a path: {@code [a, b, [2]]}. */
    @Override
    public String toString() {
        return elements.stream().map(Object::toString).collect(Collectors.joining(", ", "[", "]"));
    }
}
