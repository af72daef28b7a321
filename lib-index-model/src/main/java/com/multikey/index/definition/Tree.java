package com.multikey.index.definition;

import software.amazon.awssdk.protocols.jsoncore.JsonNode;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A parsed definitions document, read through the AWS SDK's own JSON nodes (which every function jar carries already),
 * with the few questions {@link DefinitionsReader} asks of it. A missing member is {@link #MISSING}, never null.
 */
final class Tree implements Iterable<Tree> {

    static final Tree MISSING = new Tree(null, "", Map.of());

    private final JsonNode node;
    /** This node's JSON pointer in the document ("" for the root). */
    private final String pointer;
    /** How the file wrote values YAML read as numbers, booleans or null, by JSON pointer; empty for a JSON file. */
    private final Map<String, String> written;

    private Tree(JsonNode node, String pointer, Map<String, String> written) {
        this.node = node;
        this.pointer = pointer;
        this.written = written;
    }

    static Tree of(JsonNode node) {
        return of(node, Map.of());
    }

    /** @param written how the file wrote values YAML read as numbers, booleans or null, by JSON pointer */
    static Tree of(JsonNode node, Map<String, String> written) {
        return of(node, "", written);
    }

    private static Tree of(JsonNode node, String pointer, Map<String, String> written) {
        return node == null ? MISSING : new Tree(node, pointer, written);
    }

    /** A scalar as the file wrote it ({@code 012} for the number YAML read from it), else its text ({@link #asText()}). */
    String written() {
        return written.getOrDefault(pointer, asText());
    }

    /** A one-element list holding this node: a setting that takes a list or a single value. */
    List<Tree> asList() {
        return isArray() ? iterableToList() : List.of(this);
    }

    private List<Tree> iterableToList() {
        List<Tree> list = new ArrayList<>();
        forEach(list::add);
        return list;
    }

    boolean isMissing() {
        return node == null;
    }

    boolean isObject() {
        return node != null && node.isObject();
    }

    boolean isArray() {
        return node != null && node.isArray();
    }

    boolean isNull() {
        return node != null && node.isNull();
    }

    boolean isTextual() {
        return node != null && node.isString();
    }

    boolean isNumber() {
        return node != null && node.isNumber();
    }

    boolean isBoolean() {
        return node != null && node.isBoolean();
    }

    /** A string, number or boolean. */
    boolean isValueNode() {
        return isTextual() || isNumber() || isBoolean();
    }

    boolean isInt() {
        if (!isNumber()) {
            return false;
        }
        try {
            Integer.parseInt(node.asNumber());
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    int asInt(int otherwise) {
        return isInt() ? Integer.parseInt(node.asNumber()) : otherwise;
    }

    int asInt() {
        return asInt(0);
    }

    boolean asBoolean() {
        return isBoolean() && node.asBoolean();
    }

    BigDecimal decimalValue() {
        return new BigDecimal(node.asNumber());
    }

    /** The text of a string, number or boolean; {@code otherwise} for anything else. */
    String asText(String otherwise) {
        if (isTextual()) {
            return node.asString();
        }
        if (isNumber()) {
            return node.asNumber();
        }
        if (isBoolean()) {
            return Boolean.toString(node.asBoolean());
        }
        return otherwise;
    }

    String asText() {
        return asText("");
    }

    Tree get(String name) {
        return isObject() ? of(node.asObject().get(name), pointer + "/" + DefinitionsFile.pointerToken(name), written) : MISSING;
    }

    Tree path(String name) {
        return get(name);
    }

    boolean has(String name) {
        return isObject() && node.asObject().containsKey(name);
    }

    boolean hasNonNull(String name) {
        Tree member = get(name);
        return !member.isMissing() && !member.isNull();
    }

    Iterator<String> fieldNames() {
        return isObject() ? node.asObject().keySet().iterator() : List.<String>of().iterator();
    }

    int size() {
        if (isObject()) {
            return node.asObject().size();
        }
        return isArray() ? node.asArray().size() : 0;
    }

    @Override
    public Iterator<Tree> iterator() {
        List<Tree> elements = new ArrayList<>();
        if (isArray()) {
            node.asArray().forEach(element -> elements.add(of(element, pointer + "/" + elements.size(), written)));
        }
        return elements.iterator();
    }
}
