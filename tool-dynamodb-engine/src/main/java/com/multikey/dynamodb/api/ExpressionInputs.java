package com.multikey.dynamodb.api;

import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.expression.ConditionExpression;
import com.multikey.dynamodb.expression.Expressions;
import com.multikey.dynamodb.expression.KeyCondition;
import com.multikey.dynamodb.expression.Parsed;
import com.multikey.dynamodb.expression.ProjectionExpression;
import com.multikey.dynamodb.expression.UpdateExpression;
import com.multikey.dynamodb.table.SecondaryIndex;
import com.multikey.dynamodb.table.Table;
import com.multikey.dynamodb.value.Value;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The expressions of one request (or one transaction item) with the ExpressionAttributeNames and -Values they
 * share. DynamoDB refuses a name or value that none of the request's expressions uses. The legacy parameters
 * are served (see {@link LegacyParameters}) where the operation has them, but never beside the expressions that
 * replace them; where the operation has none (a transaction's items), they are refused.
 */
final class ExpressionInputs {

    private static final List<String> LEGACY = List.of("Expected", "AttributeUpdates", "KeyConditions", "QueryFilter",
            "ScanFilter", "AttributesToGet", "ConditionalOperator");

    private final Map<String, String> names;
    private final Map<String, Value> values;
    private final Set<String> usedNames = new TreeSet<>();
    private final Set<String> usedValues = new TreeSet<>();
    private final Request request;
    private boolean anyExpression;
    private final List<Parsed> parsed = new java.util.ArrayList<>();

    /** A transaction item's expressions: no legacy parameter is allowed. */
    ExpressionInputs(Request request) {
        this(request, refusingLegacy(request));
    }

    /**
     * An operation's expressions, whose legacy counterparts ({@code legacyMembers}) the operation serves: a request
     * naming both is refused before anything else is checked.
     */
    ExpressionInputs(Request request, List<String> expressionMembers, List<String> legacyMembers) {
        this(request, checkedNotMixed(request, expressionMembers, legacyMembers));
    }

    private static Request refusingLegacy(Request request) {
        for (String legacy : LEGACY) {
            if (request.has(legacy)) {
                throw EngineException.validation("This engine serves only expression parameters: " + legacy
                        + " is a legacy parameter; use the expression parameters instead (ConditionExpression, "
                        + "UpdateExpression, KeyConditionExpression, FilterExpression, ProjectionExpression)");
            }
        }
        return request;
    }

    private static Request checkedNotMixed(Request request, List<String> expressionMembers, List<String> legacyMembers) {
        LegacyParameters.checkNotMixed(request, expressionMembers, legacyMembers);
        return request;
    }

    private ExpressionInputs(Request request, Request checked) {
        this.request = checked;
        if (request.has("ExpressionAttributeNames") && request.stringMap("ExpressionAttributeNames").isEmpty()) {
            throw EngineException.validation("ExpressionAttributeNames must not be empty");
        }
        if (request.has("ExpressionAttributeValues") && request.map("ExpressionAttributeValues").isEmpty()) {
            throw EngineException.validation("ExpressionAttributeValues must not be empty");
        }
        this.names = request.stringMap("ExpressionAttributeNames");
        names.forEach((placeholder, name) -> {
            if (name.isEmpty()) {
                // attribute names are at least one character long
                throw EngineException.validation("ExpressionAttributeNames contains invalid value: Empty attribute name for key "
                        + placeholder);
            }
        });
        this.values = request.values("ExpressionAttributeValues");
    }

    Optional<ConditionExpression> condition(String member) {
        return request.string(member).map(text -> used(Expressions.condition(member, text, names, values)));
    }

    Optional<UpdateExpression> update(String member) {
        return request.string(member).map(text -> used(Expressions.update(text, names, values)));
    }

    Optional<ProjectionExpression> projection(String member) {
        return request.string(member).map(text -> used(Expressions.projection(text, names)));
    }

    KeyCondition keyCondition(String text, String partitionKey, String sortKey) {
        return used(Expressions.keyCondition(text, names, values, partitionKey, sortKey));
    }

    /** A KeyConditionExpression's checks that need no key schema: made before the table is looked up. */
    void checkKeyCondition(String text) {
        Expressions.checkKeyCondition(text, names, values);
    }

    private <P extends Parsed> P used(P parsed) {
        anyExpression = true;
        this.parsed.add(parsed);
        usedNames.addAll(parsed.usedNames());
        usedValues.addAll(parsed.usedValues());
        return parsed;
    }

    /**
     * Refuses a nested path ({@code a.b}, {@code a[0]}) into a key attribute of the table or of one of its indexes:
     * key attributes are scalars. Call under the table's lock.
     */
    void checkKeysScalar(Table table) {
        for (Parsed expression : parsed) {
            for (String name : expression.nestedAccessNames()) {
                if (table.keySchema().isKeyAttribute(name)) {
                    throw EngineException.validation(NOT_SCALAR + "Key: " + name);
                }
                for (SecondaryIndex index : table.indexes()) {
                    if (index.keySchema().isKeyAttribute(name)) {
                        throw EngineException.validation(NOT_SCALAR + "IndexKey: " + name);
                    }
                }
            }
        }
    }

    private static final String NOT_SCALAR = "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: ";

    /** Refuses names and values that no expression used; call after parsing all of the request's expressions. */
    void checkAllUsed() {
        if (!anyExpression) {
            if (!names.isEmpty()) {
                throw EngineException.validation("ExpressionAttributeNames can only be specified when using expressions");
            }
            if (!values.isEmpty()) {
                throw EngineException.validation("ExpressionAttributeValues can only be specified when using expressions");
            }
            return;
        }
        Set<String> unusedNames = new TreeSet<>(names.keySet());
        unusedNames.removeAll(usedNames);
        if (!unusedNames.isEmpty()) {
            throw EngineException.validation("Value provided in ExpressionAttributeNames unused in expressions: keys: {"
                    + String.join(", ", unusedNames) + "}");
        }
        Set<String> unusedValues = new TreeSet<>(values.keySet());
        unusedValues.removeAll(usedValues);
        if (!unusedValues.isEmpty()) {
            throw EngineException.validation("Value provided in ExpressionAttributeValues unused in expressions: keys: {"
                    + String.join(", ", unusedValues) + "}");
        }
    }
}
