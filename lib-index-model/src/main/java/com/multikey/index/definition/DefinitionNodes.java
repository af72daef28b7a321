package com.multikey.index.definition;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * How the nodes of one definitions file are read: its settings (unknown ones refused), conditions, attribute paths and
 * key attributes of a usable type, every refusal naming the file, the place in it and what to change.
 */
final class DefinitionNodes {

    private final String file;

    DefinitionNodes(String file) {
        this.file = file;
    }

    String file() {
        return file;
    }

    DefinitionException error(String where, String what) {
        return new DefinitionException(file + ": " + where + ": " + what);
    }
    void allowOnly(Tree node, String where, String... fields) {
        Set<String> allowed = Set.of(fields);
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!allowed.contains(name)) {
                throw error(where, "unknown setting '" + name + "'; expected one of " + String.join(", ", fields));
            }
        }
    }
    /** A setting that takes text and must be given. */
    String text(Tree node, String field, String where) {
        Tree value = node.get(field);
        if (value.isMissing() || !value.isValueNode() || value.isNull()) {
            throw error(where, "'" + field + "' is missing");
        }
        return text(node, field, where, "");
    }

    /**
     * A setting that takes text, {@code otherwise} when it is absent, null or not a scalar (what the caller refuses, or
     * its default). A number or a boolean is refused, not turned into text: YAML reads an unquoted {@code 012} as the
     * number 12 and {@code yes} as true, so the name it gives would not be the one written.
     */
    String text(Tree node, String field, String where, String otherwise) {
        Tree value = node.get(field);
        if (value.isNumber() || value.isBoolean()) {
            String written = value.written();
            String read = value.asText();
            String as = value.isNumber() ? "number" : "boolean";
            throw error(where, "'" + field + "' must be text, and " + written + " is read as "
                    + (written.equals(read) ? "a " + as : "the " + as + " " + read)
                    + "; quote it to keep it as written: " + field + ": '" + written.replace("'", "''") + "'");
        }
        return value.isTextual() ? value.asText() : otherwise;
    }
    List<Condition> conditions(Tree node, String where, KeySchema table) {
        if (node.isMissing() || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            throw error(where, "expected a list of conditions");
        }
        List<Condition> conditions = new ArrayList<>();
        int n = 0;
        for (Tree condition : node) {
            String at = where + "[" + n++ + "]";
            allowOnly(condition, at, "attribute", "beginsWith", "equals", "exists");
            AttributePath path = AttributePath.parse(text(condition, "attribute", at, ""), file + ": " + at + ".attribute");
            int tests = (condition.has("beginsWith") ? 1 : 0) + (condition.has("equals") ? 1 : 0) + (condition.has("exists") ? 1 : 0);
            if (tests != 1) {
                throw error(at + " (" + path + ")", "needs exactly one of beginsWith, equals or exists");
            }
            if (condition.has("beginsWith")) {
                Tree prefix = condition.get("beginsWith");
                if (!prefix.isTextual()) {
                    throw error(at + " (" + path + ")", "beginsWith takes a string");
                }
                keyOfType(table, path, at + " (" + path + ")", "beginsWith tests a string", KeySchema.KeyType.S);
                conditions.add(new Condition.BeginsWith(path, prefix.asText()));
            } else if (condition.has("equals")) {
                AttributeValue value = scalar(condition.get("equals"), at + " (" + path + ").equals");
                switch (value.type()) {
                    case S -> keyOfType(table, path, at + " (" + path + ")", "equals a string", KeySchema.KeyType.S);
                    case N -> keyOfType(table, path, at + " (" + path + ")", "equals a number", KeySchema.KeyType.N);
                    default -> keyOfType(table, path, at + " (" + path + ")", "equals a boolean");
                }
                conditions.add(new Condition.Equals(path, value));
            } else {
                if (!condition.get("exists").isBoolean() || !condition.get("exists").asBoolean()) {
                    throw error(at + " (" + path + ")", "exists takes true (an index covering items that lack an attribute lists what they have instead)");
                }
                conditions.add(new Condition.Exists(path));
            }
        }
        return conditions;
    }
    private AttributeValue scalar(Tree value, String where) {
        if (value.isTextual()) {
            return AttributeValue.fromS(value.asText());
        }
        if (value.isNumber()) {
            return AttributeValue.fromN(value.decimalValue().toString());
        }
        if (value.isBoolean()) {
            return AttributeValue.fromBool(value.asBoolean());
        }
        throw error(where, "takes a string, a number or a boolean");
    }

    /**
     * Refuses a path to a key attribute of a type the setting can never use (a key is always present, of its declared
     * type): a condition on it would pass no item, a value or tie-breaker of it would be rejected on every item.
     */
    void keyOfType(KeySchema table, AttributePath path, String where, String what, KeySchema.KeyType... usable) {
        if (!table.isKeyAttribute(path)) {
            return;
        }
        for (KeySchema.KeyAttribute attribute : table.attributes()) {
            if (attribute.name().equals(path.names().get(0)) && !List.of(usable).contains(attribute.type())) {
                String role = attribute == table.partitionKey() ? "partition key" : "sort key";
                throw error(where, path + " is the table's " + role + " of type " + attribute.type() + ", and " + what
                        + ", so it could never work: name another attribute");
            }
        }
    }
    List<AttributePath> paths(Tree node, String where) {
        if (node.isMissing() || node.isNull()) {
            return List.of();
        }
        List<Tree> list = node.asList();
        List<AttributePath> paths = new ArrayList<>();
        for (Tree path : list) {
            if (!path.isTextual()) {
                throw error(where, "expected attribute paths (strings)");
            }
            AttributePath parsed = AttributePath.parse(path.asText(), file + ": " + where);
            if (paths.contains(parsed)) {
                throw error(where, "names '" + parsed + "' twice");
            }
            paths.add(parsed);
        }
        return paths;
    }
}
