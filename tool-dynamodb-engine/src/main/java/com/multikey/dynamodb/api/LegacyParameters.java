package com.multikey.dynamodb.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.expression.AttributeUpdates;
import com.multikey.dynamodb.expression.ConditionExpression;
import com.multikey.dynamodb.expression.Legacy;
import com.multikey.dynamodb.expression.ProjectionExpression;
import com.multikey.dynamodb.expression.UpdateExpression;
import com.multikey.dynamodb.value.Value;
import com.multikey.dynamodb.value.ValueJson;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a request's legacy conditional parameters (AttributesToGet, KeyConditions, QueryFilter, ScanFilter,
 * Expected, ConditionalOperator, AttributeUpdates) with the checks DynamoDB makes before it looks the table up, and
 * translates them to the expression model ({@link Legacy}, {@link AttributeUpdates}). A request may not mix them with
 * the expression parameters that replace them.
 */
final class LegacyParameters {

    /** ConditionalOperator's values, in the order DynamoDB's enum constraint message lists them. */
    enum ConditionalOperator { OR, AND }

    private static final String INVALID = "One or more parameter values were invalid: ";

    private LegacyParameters() {
    }

    /**
     * Refuses a request giving both expression and legacy parameters: "Can not use both expression and
     * non-expression parameters in the same request: Non-expression parameters: {AttributesToGet} Expression
     * parameters: {ProjectionExpression}". A Query's KeyConditions may go with a FilterExpression or
     * ProjectionExpression as long as there is no KeyConditionExpression.
     */
    static void checkNotMixed(Request request, List<String> expressionMembers, List<String> legacyMembers) {
        List<String> expressions = expressionMembers.stream().filter(request::has).toList();
        if (expressions.isEmpty()) {
            return;
        }
        List<String> legacy = new ArrayList<>(legacyMembers.stream().filter(request::has).toList());
        if (!request.has("KeyConditionExpression")) {
            legacy.remove("KeyConditions");
        }
        if (!legacy.isEmpty()) {
            throw EngineException.validation("Can not use both expression and non-expression parameters in the same request: "
                    + "Non-expression parameters: {" + String.join(", ", legacy) + "} Expression parameters: {"
                    + String.join(", ", expressions) + "}");
        }
    }

    /** AttributesToGet: 1 to 255 names, none repeated. */
    static Optional<ProjectionExpression> attributesToGet(Request request) {
        if (!request.has("AttributesToGet")) {
            return Optional.empty();
        }
        List<String> names = request.strings("AttributesToGet");
        if (names.isEmpty() || names.size() > 255) {
            throw Request.constraint(names.toString(), request.at("AttributesToGet"), names.isEmpty()
                    ? "Member must have length greater than or equal to 1" : "Member must have length less than or equal to 255");
        }
        Set<String> seen = new HashSet<>();
        for (String name : names) {
            if (!seen.add(name)) {
                throw EngineException.validation(INVALID + "Duplicate value in attribute name: " + name);
            }
        }
        return Optional.of(Legacy.attributesToGet(names));
    }

    /** Whether ConditionalOperator asks for OR (AND when absent). */
    static boolean or(Request request) {
        return request.enumeration("ConditionalOperator", ConditionalOperator.class).orElse(ConditionalOperator.AND)
                == ConditionalOperator.OR;
    }

    /** A QueryFilter, ScanFilter or KeyConditions: each attribute's ComparisonOperator and AttributeValueList, checked. */
    static Optional<Map<String, Legacy.Comparison>> comparisons(Request request, String member) {
        if (!request.has(member)) {
            return Optional.empty();
        }
        Map<String, Legacy.Comparison> comparisons = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : request.map(member).entrySet()) {
            Request condition = request.child(entry.getValue(), member + "." + entry.getKey() + ".member");
            Legacy.ComparisonOperator operator = operator(condition);
            List<Value> values = values(condition.node("AttributeValueList"));
            Legacy.check(operator, values);
            comparisons.put(entry.getKey(), new Legacy.Comparison(entry.getKey(), operator, values));
        }
        return Optional.of(comparisons);
    }

    /** A QueryFilter or ScanFilter as a condition, its comparisons joined by ConditionalOperator. */
    static Optional<ConditionExpression> filter(Request request, String member) {
        return comparisons(request, member).map(c -> Legacy.conditions(List.copyOf(c.values()), or(request)));
    }

    /**
     * Expected: for each attribute, {@code Exists} and {@code Value} (the attribute has that value; Exists false: the
     * attribute is absent) or {@code ComparisonOperator} with {@code AttributeValueList} or {@code Value}, with
     * DynamoDB's checks of which go together; joined by ConditionalOperator.
     */
    static Optional<ConditionExpression> expected(Request request) {
        if (!request.has("Expected")) {
            return Optional.empty();
        }
        List<Legacy.Comparison> comparisons = new ArrayList<>();
        for (Map.Entry<String, JsonNode> entry : request.map("Expected").entrySet()) {
            String attribute = entry.getKey();
            Request condition = request.child(entry.getValue(), "Expected." + attribute + ".member");
            boolean hasList = condition.has("AttributeValueList");
            boolean hasValue = condition.has("Value");
            Optional<Boolean> exists = condition.bool("Exists");
            if (hasList && hasValue) {
                throw EngineException.validation(INVALID + "Value and AttributeValueList cannot be used together for Attribute: " + attribute);
            }
            if (condition.has("ComparisonOperator")) {
                Legacy.ComparisonOperator operator = operator(condition);
                if (exists.isPresent()) {
                    throw EngineException.validation(INVALID + "Exists and ComparisonOperator cannot be used together for Attribute: " + attribute);
                }
                if (operator != Legacy.ComparisonOperator.NULL && operator != Legacy.ComparisonOperator.NOT_NULL && !hasList && !hasValue) {
                    throw EngineException.validation(INVALID + "Value or AttributeValueList must be used with ComparisonOperator: "
                            + operator + " for Attribute: " + attribute);
                }
                List<Value> values = hasValue ? List.of(ValueJson.read(condition.node("Value"))) : values(condition.node("AttributeValueList"));
                Legacy.check(operator, values);
                comparisons.add(new Legacy.Comparison(attribute, operator, values));
            } else if (hasList) {
                throw EngineException.validation(INVALID + "AttributeValueList can only be used with a ComparisonOperator for Attribute: " + attribute);
            } else {
                boolean mustExist = exists.orElse(true);
                if (mustExist && !hasValue) {
                    throw EngineException.validation(INVALID + "Value must be provided when Exists is "
                            + exists.map(String::valueOf).orElse("null") + " for Attribute: " + attribute);
                }
                if (!mustExist && hasValue) {
                    throw EngineException.validation(INVALID + "Value cannot be used when Exists is false for Attribute: " + attribute);
                }
                comparisons.add(mustExist
                        ? new Legacy.Comparison(attribute, Legacy.ComparisonOperator.EQ, List.of(ValueJson.read(condition.node("Value"))))
                        : new Legacy.Comparison(attribute, Legacy.ComparisonOperator.NULL, List.of()));
            }
        }
        return Optional.of(Legacy.conditions(comparisons, or(request)));
    }

    /** AttributeUpdates: each attribute's Action (PUT when absent) and Value, checked. */
    static Optional<UpdateExpression> attributeUpdates(Request request) {
        if (!request.has("AttributeUpdates")) {
            return Optional.empty();
        }
        List<AttributeUpdates.Update> updates = new ArrayList<>();
        for (Map.Entry<String, JsonNode> entry : request.map("AttributeUpdates").entrySet()) {
            Request update = request.child(entry.getValue(), "AttributeUpdates." + entry.getKey() + ".member");
            AttributeUpdates.Action action = update.enumeration("Action", AttributeUpdates.Action.class).orElse(AttributeUpdates.Action.PUT);
            Optional<Value> value = Optional.ofNullable(update.node("Value")).map(ValueJson::read);
            AttributeUpdates.Update checked = new AttributeUpdates.Update(entry.getKey(), action, value);
            AttributeUpdates.check(checked);
            updates.add(checked);
        }
        return Optional.of(new AttributeUpdates(updates));
    }

    private static Legacy.ComparisonOperator operator(Request condition) {
        return condition.enumeration("ComparisonOperator", Legacy.ComparisonOperator.class)
                .orElseThrow(() -> Request.constraint("null", condition.at("ComparisonOperator"), "Member must not be null"));
    }

    private static List<Value> values(JsonNode list) {
        List<Value> values = new ArrayList<>();
        if (list == null) {
            return values;
        }
        if (!list.isArray()) {
            throw Request.serialization("Unexpected value type in payload for AttributeValueList");
        }
        list.forEach(node -> values.add(ValueJson.read(node)));
        return values;
    }
}
