package com.multikey.dynamodb.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.value.Value;
import com.multikey.dynamodb.value.ValueJson;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The members of one request (or of one nested structure of it), read with the checks and messages of the
 * service's input constraints ("1 validation error detected: Value null at 'tableName' failed to satisfy
 * constraint: Member must not be null").
 */
public final class Request {

    private final ObjectNode json;
    private final String path;

    public Request(ObjectNode json) {
        this(json, "");
    }

    private Request(ObjectNode json, String path) {
        this.json = json;
        this.path = path;
    }

    public boolean has(String member) {
        JsonNode node = json.get(member);
        return node != null && !node.isNull();
    }

    public JsonNode node(String member) {
        JsonNode node = json.get(member);
        return node == null || node.isNull() ? null : node;
    }

    /** Where a member is in the request, as the service's messages name it: {@code transactItems.1.member.put}. */
    public String at(String member) {
        String camel = Character.toLowerCase(member.charAt(0)) + member.substring(1);
        return path.isEmpty() ? camel : path + "." + camel;
    }

    public static EngineException constraint(String value, String at, String constraint) {
        return EngineException.validation("1 validation error detected: Value " + value + " at '" + at
                + "' failed to satisfy constraint: " + constraint);
    }

    private static final java.util.regex.Pattern TABLE_NAME = java.util.regex.Pattern.compile("[a-zA-Z0-9_.-]+");

    /**
     * A member naming a table: 3 to 255 characters of {@code [a-zA-Z0-9_.-]} (Constraints.html, naming rules), or
     * the table's ARN. A name no table can have is refused here, before any table is looked up.
     */
    public String tableName(String member) {
        String name = requiredString(member);
        checkTableName(name, at(member));
        return name;
    }

    /** Refuses a table name that breaks the naming rules, naming every constraint it breaks. */
    public static void checkTableName(String name, String at) {
        if (name.startsWith("arn:") && name.length() <= 1024) {
            return;
        }
        List<String> errors = nameErrors(name, at);
        if (!errors.isEmpty()) {
            throw constraints(errors);
        }
    }

    /** The constraint errors of a table's or an index's name (pattern, 3 to 255 characters), in the service's words. */
    public static List<String> nameErrors(String name, String at) {
        List<String> broken = new ArrayList<>();
        if (!TABLE_NAME.matcher(name).matches()) {
            broken.add("Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+");
        }
        if (name.length() < 3) {
            broken.add("Member must have length greater than or equal to 3");
        }
        if (name.length() > 255) {
            broken.add("Member must have length less than or equal to 255");
        }
        List<String> errors = new ArrayList<>();
        for (String constraint : broken) {
            errors.add("Value '" + name + "' at '" + at + "' failed to satisfy constraint: " + constraint);
        }
        return errors;
    }

    /** A ValidationException of several constraint errors, as the service words them ("2 validation errors detected: a; b"). */
    public static EngineException constraints(List<String> errors) {
        return EngineException.validation(errors.size() + " validation error" + (errors.size() == 1 ? "" : "s")
                + " detected: " + String.join("; ", errors));
    }

    public String requiredString(String member) {
        return string(member).orElseThrow(() -> constraint("null", at(member), "Member must not be null"));
    }

    public Optional<String> string(String member) {
        JsonNode node = node(member);
        if (node == null) {
            return Optional.empty();
        }
        if (!node.isTextual()) {
            throw serialization("Unexpected value type in payload for " + member);
        }
        return Optional.of(node.asText());
    }

    public Optional<Boolean> bool(String member) {
        JsonNode node = node(member);
        if (node == null) {
            return Optional.empty();
        }
        if (!node.isBoolean()) {
            throw serialization("Unexpected value type in payload for " + member);
        }
        return Optional.of(node.asBoolean());
    }

    public Optional<Long> number(String member) {
        JsonNode node = node(member);
        if (node == null) {
            return Optional.empty();
        }
        if (!node.isIntegralNumber()) {
            throw serialization("Unexpected value type in payload for " + member);
        }
        return Optional.of(node.asLong());
    }

    /** An integer member with its documented range. */
    public Optional<Long> number(String member, long min, long max) {
        Optional<Long> value = number(member);
        value.ifPresent(v -> {
            if (v < min) {
                throw constraint("'" + v + "'", at(member), "Member must have value greater than or equal to " + min);
            }
            if (v > max) {
                throw constraint("'" + v + "'", at(member), "Member must have value less than or equal to " + max);
            }
        });
        return value;
    }

    /** A string member that must be one of an enumeration's constants. */
    public <E extends Enum<E>> Optional<E> enumeration(String member, Class<E> type) {
        return string(member).map(text -> {
            for (E constant : type.getEnumConstants()) {
                if (constant.name().equals(text)) {
                    return constant;
                }
            }
            List<String> names = new ArrayList<>();
            for (E constant : type.getEnumConstants()) {
                names.add(constant.name());
            }
            throw constraint("'" + text + "'", at(member), "Member must satisfy enum value set: " + names);
        });
    }

    public Optional<Request> structure(String member) {
        JsonNode node = node(member);
        if (node == null) {
            return Optional.empty();
        }
        if (!node.isObject()) {
            throw serialization("Unexpected value type in payload for " + member);
        }
        return Optional.of(new Request((ObjectNode) node, at(member)));
    }

    public Request requiredStructure(String member) {
        return structure(member).orElseThrow(() -> constraint("null", at(member), "Member must not be null"));
    }

    /** A list member's elements as structures; empty when absent. */
    public List<Request> structures(String member) {
        JsonNode node = node(member);
        List<Request> elements = new ArrayList<>();
        if (node == null) {
            return elements;
        }
        if (!node.isArray()) {
            throw serialization("Unexpected value type in payload for " + member);
        }
        int i = 1;
        for (JsonNode element : node) {
            if (!element.isObject()) {
                throw serialization("Unexpected value type in payload for " + member);
            }
            elements.add(new Request((ObjectNode) element, at(member) + "." + i++ + ".member"));
        }
        return elements;
    }

    public List<String> strings(String member) {
        JsonNode node = node(member);
        List<String> elements = new ArrayList<>();
        if (node == null) {
            return elements;
        }
        if (!node.isArray()) {
            throw serialization("Unexpected value type in payload for " + member);
        }
        for (JsonNode element : node) {
            if (!element.isTextual()) {
                throw serialization("Unexpected value type in payload for " + member);
            }
            elements.add(element.asText());
        }
        return elements;
    }

    /** A map member of string values; empty when absent. */
    public Map<String, String> stringMap(String member) {
        JsonNode node = node(member);
        Map<String, String> map = new LinkedHashMap<>();
        if (node == null) {
            return map;
        }
        if (!node.isObject()) {
            throw serialization("Unexpected value type in payload for " + member);
        }
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            if (!entry.getValue().isTextual()) {
                throw serialization("Unexpected value type in payload for " + member);
            }
            map.put(entry.getKey(), entry.getValue().asText());
        }
        return map;
    }

    /** A map member of structures; empty when absent. */
    public Map<String, JsonNode> map(String member) {
        JsonNode node = node(member);
        Map<String, JsonNode> map = new LinkedHashMap<>();
        if (node == null) {
            return map;
        }
        if (!node.isObject()) {
            throw serialization("Unexpected value type in payload for " + member);
        }
        node.fields().forEachRemaining(e -> map.put(e.getKey(), e.getValue()));
        return map;
    }

    public Request child(JsonNode node, String member) {
        if (!node.isObject()) {
            throw serialization("Unexpected value type in payload for " + member);
        }
        return new Request((ObjectNode) node, at(member));
    }

    public Optional<Map<String, Value>> item(String member) {
        JsonNode node = node(member);
        if (node == null) {
            return Optional.empty();
        }
        if (!node.isObject()) {
            throw serialization("Unexpected value type in payload for " + member);
        }
        return Optional.of(ValueJson.readItem(node));
    }

    public Map<String, Value> requiredItem(String member) {
        return item(member).orElseThrow(() -> constraint("null", at(member), "Member must not be null"));
    }

    /** A map member of attribute values (ExpressionAttributeValues). */
    public Map<String, Value> values(String member) {
        JsonNode node = node(member);
        if (node == null) {
            return new LinkedHashMap<>();
        }
        if (!node.isObject()) {
            throw serialization("Unexpected value type in payload for " + member);
        }
        return ValueJson.readPlaceholderValues(node, member);
    }

    public static EngineException serialization(String message) {
        return new EngineException("SerializationException", 400, message);
    }
}
