package com.multikey.dynamodb.expression;

import java.util.Comparator;
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

    /**
     * Paths element by element: names by their text, list indexes by their numbers, a name before an index at
     * one place, a path before the paths inside it. The elements of one list so come in the order of their indexes,
     * and a removal inside an element in descending order comes before the removal of an element before it.
     */
    static final Comparator<Path> ORDER = (a, b) -> {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int order = compare(a.elements.get(i), b.elements.get(i));
            if (order != 0) {
                return order;
            }
        }
        return Integer.compare(a.size(), b.size());
    };

    private static int compare(Element a, Element b) {
        return switch (a) {
            case Name(String x) -> b instanceof Name(String y) ? x.compareTo(y) : -1;
            case Index(int x) -> b instanceof Index(int y) ? Integer.compare(x, y) : 1;
        };
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
