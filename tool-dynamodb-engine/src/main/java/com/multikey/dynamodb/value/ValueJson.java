package com.multikey.dynamodb.value;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.dynamodb.EngineException;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Values and items in the wire protocol's JSON ({@code {"S": "x"}}, {@code {"N": "1"}}, binary as base64):
 * read with DynamoDB's validation messages (a ValidationException for an empty set, duplicates in a set, a
 * bad number, a value with no or several types, an attribute name or map key of no characters), written
 * canonically (numbers in plain notation, sets sorted as DynamoDB returns them).
 */
public final class ValueJson {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Set<String> TYPES = Set.of("S", "N", "B", "BOOL", "NULL", "L", "M", "SS", "NS", "BS");
    /** The deepest nesting level of a value: 32 (AWS "Service, account, and table quotas", Attributes). */
    static final int MAX_NESTING = 32;
    private static final String INVALID = "One or more parameter values were invalid: ";
    /** Attribute names, the keys of maps too, are at least one character long (AWS naming rules). */
    private static final String EMPTY_NAME = "Empty attribute name";

    private ValueJson() {
    }

    public static Value read(JsonNode json) {
        return read(json, 1);
    }

    /**
     * A value at this nesting level (1 for an attribute of an item); AWS quotas ("Nested attribute depth"):
     * DynamoDB supports 32 levels, so a list or map may wrap 31 levels of values.
     */
    private static Value read(JsonNode json, int level) {
        if (level > MAX_NESTING) {
            throw EngineException.validation("Nesting Levels have exceeded supported limits: "
                    + "Attributes in the item have nested levels beyond supported limit");
        }
        if (json == null || !json.isObject()) {
            throw EngineException.validation("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
        }
        String found = null;
        // A JSON null for a member counts as absent, as the SDKs' (and DynamoDB's) deserializers treat it.
        for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            if (!TYPES.contains(field.getKey()) || field.getValue().isNull()) {
                continue;
            }
            if (found != null) {
                throw EngineException.validation("Supplied AttributeValue has more than one datatypes set, "
                        + "must contain exactly one of the supported datatypes");
            }
            found = field.getKey();
        }
        if (found == null) {
            throw EngineException.validation("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
        }
        String type = found;
        JsonNode v = json.get(type);
        return switch (type) {
            case "S" -> new Value.S(text(v, type));
            case "N" -> new Value.N(Numbers.parse(text(v, type)));
            case "B" -> new Value.B(binary(v, type));
            case "BOOL" -> new Value.Bool(bool(v, type));
            case "NULL" -> {
                if (!bool(v, type)) {
                    throw EngineException.validation(INVALID + "Null attribute value types must have the value of true");
                }
                yield new Value.Null();
            }
            case "L" -> {
                List<Value> values = new ArrayList<>();
                for (JsonNode element : array(v, type)) {
                    values.add(read(element, level + 1));
                }
                yield new Value.L(values);
            }
            case "M" -> new Value.M(readMap(v, level + 1));
            case "SS" -> new Value.SS(set(v, type, n -> text(n, type), Values::compareUtf8, s -> s));
            case "NS" -> new Value.NS(set(v, type, n -> Numbers.parse(text(n, type)), BigDecimal::compareTo, Numbers::format));
            case "BS" -> new Value.BS(set(v, type, n -> binary(n, type), Bytes::compareTo, Bytes::toString));
            default -> throw new IllegalStateException(type);
        };
    }

    /** An item (or a key): a JSON object of attribute name to value. */
    public static Map<String, Value> readItem(JsonNode json) {
        return readMap(json, 1);
    }

    /**
     * ExpressionAttributeValues (or another map of placeholders to values): DynamoDB refuses an empty attribute
     * name inside one of them as an invalid value of the map, for its key.
     */
    public static Map<String, Value> readPlaceholderValues(JsonNode json, String member) {
        if (json == null || !json.isObject()) {
            throw wrongKind("M", "a map");
        }
        Map<String, Value> values = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            try {
                values.put(field.getKey(), read(field.getValue(), 1));
            } catch (EmptyName e) {
                throw EngineException.validation(member + " contains invalid value: " + EMPTY_NAME + " for key " + field.getKey());
            }
        }
        return values;
    }

    private static Map<String, Value> readMap(JsonNode json, int level) {
        if (json == null || !json.isObject()) {
            throw wrongKind("M", "a map");
        }
        Map<String, Value> item = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            if (field.getKey().isEmpty()) {
                throw new EmptyName();
            }
            item.put(field.getKey(), read(field.getValue(), level));
        }
        return item;
    }

    /** An attribute name or map key of no characters; a placeholder map words it for its key. */
    private static final class EmptyName extends EngineException {
        EmptyName() {
            super("ValidationException", 400, EMPTY_NAME);
        }
    }

    public static ObjectNode write(Value value) {
        ObjectNode node = JSON.objectNode();
        switch (value) {
            case Value.S s -> node.put("S", s.value());
            case Value.N n -> node.put("N", Numbers.format(n.value()));
            case Value.B b -> node.put("B", b.value().toString());
            case Value.Bool b -> node.put("BOOL", b.value());
            case Value.Null ignored -> node.put("NULL", true);
            case Value.L l -> {
                ArrayNode array = node.putArray("L");
                l.values().forEach(v -> array.add(write(v)));
            }
            case Value.M m -> node.set("M", writeItem(m.entries()));
            // Sets go out in DynamoDB's own order, whatever order they came in: strings and binaries by their
            // bytes, numbers by value (as GetItem returns them).
            case Value.SS ss -> {
                ArrayNode array = node.putArray("SS");
                ss.values().stream().sorted(Values::compareUtf8).forEach(array::add);
            }
            case Value.NS ns -> {
                ArrayNode array = node.putArray("NS");
                ns.values().stream().sorted().forEach(n -> array.add(Numbers.format(n)));
            }
            case Value.BS bs -> {
                ArrayNode array = node.putArray("BS");
                bs.values().stream().sorted().forEach(b -> array.add(b.toString()));
            }
        }
        return node;
    }

    public static ObjectNode writeItem(Map<String, Value> item) {
        ObjectNode node = JSON.objectNode();
        item.forEach((name, value) -> node.set(name, write(value)));
        return node;
    }

    /**
     * A set's elements: never empty, never twice the same element (numbers compared after normalization). The
     * messages are those of DynamoDB's PutItem, UpdateItem, GetItem and Query (BatchWriteItem and the
     * transactions still word them in an older way).
     */
    private static <T> Set<T> set(JsonNode v, String type, Function<JsonNode, T> element, Comparator<T> order,
                                  Function<T, String> shown) {
        ArrayNode array = array(v, type);
        if (array.isEmpty()) {
            throw EngineException.validation(INVALID + switch (type) {
                case "SS" -> "An string set  may not be empty";
                case "NS" -> "An number set  may not be empty";
                default -> "Binary sets should not be empty";
            });
        }
        List<T> given = new ArrayList<>();
        Set<T> values = new LinkedHashSet<>();
        for (JsonNode n : array) {
            T value = element.apply(n);
            given.add(value);
            if (!values.add(value)) {
                throw duplicates(type, given, values, array, element, order, shown);
            }
        }
        return values;
    }

    /**
     * DynamoDB's duplicate message: for strings and binaries the members quoted, those before the first repeat
     * in key order, then the repeat, then the rest as given; for numbers no members at all.
     */
    private static <T> EngineException duplicates(String type, List<T> given, Set<T> seen, ArrayNode array,
                                                  Function<JsonNode, T> element, Comparator<T> order,
                                                  Function<T, String> shown) {
        if (type.equals("NS")) {
            return EngineException.validation(INVALID + "Input collection contains duplicates.");
        }
        List<T> listed = new ArrayList<>(seen);
        listed.sort(order);
        listed.add(given.get(given.size() - 1));
        for (int i = given.size(); i < array.size(); i++) {
            listed.add(element.apply(array.get(i)));
        }
        String separator = type.equals("BS") ? "," : ", ";
        StringBuilder text = new StringBuilder("[");
        for (int i = 0; i < listed.size(); i++) {
            text.append(i == 0 ? "" : separator).append('"').append(shown.apply(listed.get(i))).append('"');
        }
        text.append(']');
        return EngineException.validation(INVALID + "Input collection " + text
                + (type.equals("BS") ? "of type BS" : "") + " contains duplicates.");
    }

    private static String text(JsonNode v, String type) {
        if (!v.isTextual()) {
            throw wrongKind(type, "a string");
        }
        return v.textValue();
    }

    private static boolean bool(JsonNode v, String type) {
        if (!v.isBoolean()) {
            throw wrongKind(type, "a boolean");
        }
        return v.booleanValue();
    }

    private static ArrayNode array(JsonNode v, String type) {
        if (!v.isArray()) {
            throw wrongKind(type, "a list");
        }
        return (ArrayNode) v;
    }

    /** Base64 in the standard alphabet, as the SDKs send it; anything else cannot be read. */
    private static Bytes binary(JsonNode v, String type) {
        String text = text(v, type);
        try {
            return Bytes.of(Base64.getDecoder().decode(text));
        } catch (IllegalArgumentException e) {
            throw EngineException.validation(INVALID + "The " + type + " member of an AttributeValue is not base64: " + text);
        }
    }

    /** A member of the wrong JSON kind (e.g. {"S": 1}): the request cannot be read as DynamoDB's types. */
    private static EngineException wrongKind(String type, String expected) {
        return EngineException.validation(INVALID + "The " + type + " member of an AttributeValue must be " + expected);
    }
}
