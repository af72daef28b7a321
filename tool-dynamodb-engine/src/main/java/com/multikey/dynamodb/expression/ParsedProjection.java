package com.multikey.dynamodb.expression;

import com.multikey.dynamodb.value.Value;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A projection expression parsed and checked. Projecting keeps the nesting of each listed path: {@code a.b}
 * gives {@code {a: {b: ...}}}, and list elements {@code l[2], l[0]} give the list of those elements in list
 * order (AWS "Using projection expressions in DynamoDB").
 */
record ParsedProjection(List<Path> paths, Set<String> usedNames, Set<String> usedValues, Set<String> nestedAccessNames,
                        Set<String> topLevelNames)
        implements ProjectionExpression {

    @Override
    public Map<String, Value> project(Map<String, Value> item) {
        Map<String, Object> tree = new LinkedHashMap<>();
        for (Path path : paths) {
            Value top = item.get(path.first());
            Object part = top == null ? null : select(tree.get(path.first()), top, path.elements(), 1);
            if (part != null) {
                tree.put(path.first(), part);
            }
        }
        Map<String, Value> result = new LinkedHashMap<>();
        // The item's own order of attributes, not the expression's.
        item.keySet().stream().filter(tree::containsKey).forEach(name -> result.put(name, build(tree.get(name))));
        return result;
    }

    /**
     * Merges the part of {@code source} the path selects into {@code partial} (what earlier paths selected of the
     * same value: a map of name to part, a sorted map of list index to part, or a whole value).
     */
    @SuppressWarnings("unchecked")
    private static Object select(Object partial, Value source, List<Path.Element> elements, int i) {
        if (i == elements.size()) {
            return source;
        }
        Path.Element element = elements.get(i);
        if (element instanceof Path.Name(String name) && source instanceof Value.M m && m.entries().containsKey(name)) {
            Map<String, Object> parts = partial instanceof Map<?, ?> p ? (Map<String, Object>) p : new LinkedHashMap<>();
            Object child = select(parts.get(name), m.entries().get(name), elements, i + 1);
            if (child == null) {
                return partial;
            }
            parts.put(name, child);
            return parts;
        }
        if (element instanceof Path.Index(int index) && source instanceof Value.L l && index < l.values().size()) {
            TreeMap<Integer, Object> parts = partial instanceof TreeMap<?, ?> p ? (TreeMap<Integer, Object>) p : new TreeMap<>();
            Object child = select(parts.get(index), l.values().get(index), elements, i + 1);
            if (child == null) {
                return partial;
            }
            parts.put(index, child);
            return parts;
        }
        return partial; // the path leads nowhere in this item (or through another type): nothing more selected
    }

    private static Value build(Object part) {
        if (part instanceof Value v) {
            return v;
        }
        if (part instanceof TreeMap<?, ?> elements) {
            List<Value> values = new ArrayList<>();
            elements.values().forEach(e -> values.add(build(e)));
            return new Value.L(values);
        }
        Map<String, Value> entries = new LinkedHashMap<>();
        ((Map<?, ?>) part).forEach((k, v) -> entries.put((String) k, build(v)));
        return new Value.M(entries);
    }
}
