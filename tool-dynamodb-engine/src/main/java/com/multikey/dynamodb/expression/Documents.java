package com.multikey.dynamodb.expression;

import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.value.Value;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Navigation of document paths in an item: reading a nested value, and writing or removing one by rebuilding
 * the immutable maps and lists along the path (AWS "Using expressions in DynamoDB", document paths).
 */
final class Documents {

    private static final String INVALID_PATH = "The document path provided in the update expression is invalid for update";

    private Documents() {
    }

    /** The value at the path, or null when the item has none there. */
    static Value get(Map<String, Value> item, Path path) {
        Value current = item.get(path.first());
        for (int i = 1; i < path.size() && current != null; i++) {
            current = child(current, path.elements().get(i));
        }
        return current;
    }

    private static Value child(Value container, Path.Element element) {
        if (element instanceof Path.Name(String name) && container instanceof Value.M m) {
            return m.entries().get(name);
        }
        if (element instanceof Path.Index(int index) && container instanceof Value.L l) {
            return index < l.values().size() ? l.values().get(index) : null;
        }
        return null;
    }

    /**
     * Refuses a path whose parent is missing or of the wrong kind (a map for a name, a list for an index), as
     * DynamoDB does for every action of an update, even one that then has nothing to do (DELETE of a missing
     * element).
     */
    static void requireParent(Map<String, Value> item, Path path) {
        if (path.size() == 1) {
            return;
        }
        Value parent = get(item, path.parent());
        boolean fits = path.last() instanceof Path.Name ? parent instanceof Value.M : parent instanceof Value.L;
        if (!fits) {
            throw EngineException.validation(INVALID_PATH);
        }
    }

    /** Whether the path's parent is a map or list, as its last element needs, that has nothing there. */
    static boolean absentInItsContainer(Map<String, Value> item, Path path) {
        if (path.size() == 1) {
            return !item.containsKey(path.first());
        }
        Value parent = get(item, path.parent());
        boolean fits = path.last() instanceof Path.Name ? parent instanceof Value.M : parent instanceof Value.L;
        return fits && get(item, path) == null;
    }

    /**
     * Writes the value at the path in the (mutable) item. Every parent must exist with the right type; a list
     * index past the end appends. Else DynamoDB's "invalid for update" ValidationException.
     */
    static void set(Map<String, Value> item, Path path, Value value) {
        if (path.size() == 1) {
            item.put(path.first(), value);
            return;
        }
        Value top = item.get(path.first());
        item.put(path.first(), with(top, path.elements(), 1, value));
    }

    private static Value with(Value container, List<Path.Element> elements, int i, Value value) {
        Path.Element element = elements.get(i);
        boolean last = i == elements.size() - 1;
        if (element instanceof Path.Name(String name) && container instanceof Value.M m) {
            Map<String, Value> entries = new LinkedHashMap<>(m.entries());
            entries.put(name, last ? value : with(entries.get(name), elements, i + 1, value));
            return new Value.M(entries);
        }
        if (element instanceof Path.Index(int index) && container instanceof Value.L l) {
            List<Value> values = new ArrayList<>(l.values());
            if (index < values.size()) {
                values.set(index, last ? value : with(values.get(index), elements, i + 1, value));
            } else if (last) {
                values.add(value); // SET past the end of a list appends (AWS "Update expressions", SET)
            } else {
                throw EngineException.validation(INVALID_PATH);
            }
            return new Value.L(values);
        }
        throw EngineException.validation(INVALID_PATH);
    }

    /**
     * Removes the value at the path from the (mutable) item; nothing when the last element is absent. A missing
     * or mistyped parent is DynamoDB's "invalid for update".
     */
    static void remove(Map<String, Value> item, Path path) {
        if (path.size() == 1) {
            item.remove(path.first());
            return;
        }
        Value top = item.get(path.first());
        item.put(path.first(), without(top, path.elements(), 1));
    }

    private static Value without(Value container, List<Path.Element> elements, int i) {
        Path.Element element = elements.get(i);
        boolean last = i == elements.size() - 1;
        if (element instanceof Path.Name(String name) && container instanceof Value.M m) {
            Map<String, Value> entries = new LinkedHashMap<>(m.entries());
            if (last) {
                entries.remove(name);
            } else {
                entries.put(name, without(entries.get(name), elements, i + 1));
            }
            return new Value.M(entries);
        }
        if (element instanceof Path.Index(int index) && container instanceof Value.L l) {
            List<Value> values = new ArrayList<>(l.values());
            if (index < values.size()) {
                if (last) {
                    values.remove(index); // the elements after it shift down
                } else {
                    values.set(index, without(values.get(index), elements, i + 1));
                }
            } else if (!last) {
                throw EngineException.validation(INVALID_PATH);
            }
            return new Value.L(values);
        }
        throw EngineException.validation(INVALID_PATH);
    }
}
