package com.multikey.dynamodb.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.expression.ConditionExpression;
import com.multikey.dynamodb.expression.ProjectionExpression;
import com.multikey.dynamodb.expression.UpdateExpression;
import com.multikey.dynamodb.table.Table;
import com.multikey.dynamodb.value.Value;
import com.multikey.dynamodb.value.Values;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/** PutItem, GetItem, UpdateItem and DeleteItem. */
public final class ItemOperations {

    private static final Set<ReturnValues> PUT_OR_DELETE = EnumSet.of(ReturnValues.NONE, ReturnValues.ALL_OLD);
    private static final List<String> CONDITION = List.of("ConditionExpression");
    private static final List<String> EXPECTED = List.of("Expected", "ConditionalOperator");

    private final Catalog catalog;

    public ItemOperations(Catalog catalog) {
        this.catalog = catalog;
    }

    public ObjectNode putItem(Request request) {
        String tableName = request.tableName("TableName");
        Map<String, Value> item = request.requiredItem("Item");
        ItemChecks.size(item);
        ExpressionInputs expressions = new ExpressionInputs(request, CONDITION, EXPECTED);
        Optional<ConditionExpression> conditionExpression = expressions.condition("ConditionExpression");
        expressions.checkAllUsed();
        Optional<ConditionExpression> condition = conditionExpression.or(() -> LegacyParameters.expected(request));
        ReturnValues returnValues = ReturnValues.read(request, "ReturnValues", PUT_OR_DELETE);
        boolean oldOnFailure = returnOldOnFailure(request);
        ConsumedCapacity capacity = ConsumedCapacity.of(request);
        Table table = catalog.table(tableName);
        return Locks.under(table, () -> {
            expressions.checkKeysScalar(table);
            Map<String, Value> old = ItemCore.write(table, ItemCore.Put.of(table, item), condition, oldOnFailure, catalog.now()).old();
            ObjectNode response = Json.object();
            returnValues.write(response, old, item, UnaryOperator.identity());
            capacity.write(table, old, item, 1);
            capacity.writeTo(response, table);
            return response;
        });
    }

    public ObjectNode getItem(Request request) {
        String tableName = request.tableName("TableName");
        Map<String, Value> key = request.requiredItem("Key");
        ExpressionInputs expressions = new ExpressionInputs(request, List.of("ProjectionExpression"), List.of("AttributesToGet"));
        Optional<ProjectionExpression> projectionExpression = expressions.projection("ProjectionExpression");
        expressions.checkAllUsed();
        Optional<ProjectionExpression> projection = projectionExpression.or(() -> LegacyParameters.attributesToGet(request));
        boolean consistent = request.bool("ConsistentRead").orElse(false);
        ConsumedCapacity capacity = ConsumedCapacity.of(request);
        Table table = catalog.table(tableName);
        return Locks.under(table, () -> {
            expressions.checkKeysScalar(table);
            Map<String, Value> item = ItemCore.get(table, ItemChecks.key(table, key));
            ObjectNode response = Json.object();
            if (item != null) {
                response.set("Item", Json.item(projection.map(p -> p.project(item)).orElse(item)));
            }
            capacity.readTable(table, ConsumedCapacity.readUnits(item == null ? 0 : Values.itemSize(item), consistent));
            capacity.writeTo(response, table);
            return response;
        });
    }

    public ObjectNode deleteItem(Request request) {
        String tableName = request.tableName("TableName");
        Map<String, Value> key = request.requiredItem("Key");
        ExpressionInputs expressions = new ExpressionInputs(request, CONDITION, EXPECTED);
        Optional<ConditionExpression> conditionExpression = expressions.condition("ConditionExpression");
        expressions.checkAllUsed();
        Optional<ConditionExpression> condition = conditionExpression.or(() -> LegacyParameters.expected(request));
        ReturnValues returnValues = ReturnValues.read(request, "ReturnValues", PUT_OR_DELETE);
        boolean oldOnFailure = returnOldOnFailure(request);
        ConsumedCapacity capacity = ConsumedCapacity.of(request);
        Table table = catalog.table(tableName);
        return Locks.under(table, () -> {
            expressions.checkKeysScalar(table);
            ItemChecks.key(table, key);
            Map<String, Value> old = ItemCore.write(table, new ItemCore.Delete(key), condition, oldOnFailure, catalog.now()).old();
            ObjectNode response = Json.object();
            returnValues.write(response, old, null, UnaryOperator.identity());
            capacity.write(table, old, null, 1);
            capacity.writeTo(response, table);
            return response;
        });
    }

    public ObjectNode updateItem(Request request) {
        String tableName = request.tableName("TableName");
        Map<String, Value> key = request.requiredItem("Key");
        ExpressionInputs expressions = new ExpressionInputs(request, List.of("UpdateExpression", "ConditionExpression"),
                List.of("AttributeUpdates", "Expected", "ConditionalOperator"));
        Optional<UpdateExpression> updateExpression = expressions.update("UpdateExpression");
        Optional<ConditionExpression> conditionExpression = expressions.condition("ConditionExpression");
        expressions.checkAllUsed();
        Optional<UpdateExpression> update = updateExpression.or(() -> LegacyParameters.attributeUpdates(request));
        Optional<ConditionExpression> condition = conditionExpression.or(() -> LegacyParameters.expected(request));
        ReturnValues returnValues = ReturnValues.read(request, "ReturnValues", EnumSet.allOf(ReturnValues.class));
        boolean oldOnFailure = returnOldOnFailure(request);
        ConsumedCapacity capacity = ConsumedCapacity.of(request);
        Table table = catalog.table(tableName);
        return Locks.under(table, () -> {
            expressions.checkKeysScalar(table);
            ItemChecks.key(table, key);
            update.ifPresent(u -> checkNotKey(table, u));
            ItemCore.Planned written = ItemCore.write(table, new ItemCore.Update(key, update), condition, oldOnFailure, catalog.now());
            Map<String, Value> old = written.old();
            Map<String, Value> updated = written.current();
            ObjectNode response = Json.object();
            UnaryOperator<Map<String, Value>> changed = update.<UnaryOperator<Map<String, Value>>>map(u -> u::updatedAttributes)
                    .orElse(item -> Map.of());
            returnValues.write(response, old, updated, changed);
            capacity.write(table, old, updated, 1);
            capacity.writeTo(response, table);
            return response;
        });
    }

    static void checkNotKey(Table table, UpdateExpression update) {
        for (String name : update.topLevelAttributes()) {
            if (table.keySchema().isKeyAttribute(name)) {
                throw EngineException.validation("One or more parameter values were invalid: Cannot update attribute "
                        + name + ". This attribute is part of the key");
            }
        }
    }

    static boolean returnOldOnFailure(Request request) {
        return ReturnValues.read(request, "ReturnValuesOnConditionCheckFailure", PUT_OR_DELETE) == ReturnValues.ALL_OLD;
    }
}
