package com.multikey.dynamodb.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.expression.ConditionExpression;
import com.multikey.dynamodb.expression.ProjectionExpression;
import com.multikey.dynamodb.expression.UpdateExpression;
import com.multikey.dynamodb.table.Table;
import com.multikey.dynamodb.value.Value;
import com.multikey.dynamodb.value.Values;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * TransactWriteItems and TransactGetItems. A transaction locks its tables in name order, checks every
 * condition, and writes either everything or nothing.
 */
public final class TransactionOperations {

    static final int MAX_ACTIONS = 100;
    static final long MAX_TRANSACTION_BYTES = 4L * 1024 * 1024;

    private final Catalog catalog;
    private final ClientTokens tokens;

    public TransactionOperations(Catalog catalog) {
        this.catalog = catalog;
        this.tokens = new ClientTokens();
    }

    /** The ClientRequestTokens it remembers, which ExecuteTransaction shares. */
    ClientTokens tokens() {
        return tokens;
    }

    private enum Kind { PUT, UPDATE, DELETE, CONDITION_CHECK }

    private record Action(Table table, ItemCore.Write write, Optional<ConditionExpression> condition, boolean oldOnFailure) {
    }

    public ObjectNode transactWriteItems(Request request) {
        List<Request> elements = actions(request, "TransactItems");
        request.string("ClientRequestToken").ifPresent(token -> {
            if (token.isEmpty() || token.length() > 36) {
                throw Request.constraint("'" + token + "'", "clientRequestToken", "Member must have length less than or equal to 36");
            }
        });
        Optional<String> token = request.string("ClientRequestToken");
        ConsumedCapacity capacity = ConsumedCapacity.of(request);
        String transactItems = request.node("TransactItems").toString();
        if (token.isPresent() && tokens.alreadyDone(token.get(), transactItems, catalog.now())) {
            // the same transaction again within the token's lifetime succeeds without writing twice
            return Json.object();
        }
        List<Action> actions = new ArrayList<>();
        for (Request element : elements) {
            actions.add(action(element));
        }
        Set<String> seen = new HashSet<>();
        long bytes = 0;
        for (Action action : actions) {
            if (!seen.add(action.table().name() + "\u0000" + action.write().key())) {
                throw EngineException.validation("Transaction request cannot include multiple operations on one item");
            }
            bytes += action.write() instanceof ItemCore.Put put ? Values.itemSize(put.item()) : Values.itemSize(action.write().key());
        }
        if (bytes > MAX_TRANSACTION_BYTES) {
            throw EngineException.validation("Transaction request cannot be larger than 4 MB");
        }
        List<Table> tables = lockAll(actions.stream().map(Action::table).toList());
        try {
            List<ItemCore.Planned> planned = new ArrayList<>();
            List<CancellationReason> reasons = new ArrayList<>();
            boolean cancelled = false;
            for (Action action : actions) {
                try {
                    planned.add(ItemCore.plan(action.table(), action.write(), action.condition(), action.oldOnFailure()));
                    reasons.add(CancellationReason.NONE);
                } catch (ConditionalCheckFailed e) {
                    reasons.add(new CancellationReason("ConditionalCheckFailed", "The conditional request failed", e.item()));
                    cancelled = true;
                } catch (EngineException e) {
                    reasons.add(new CancellationReason("ValidationError", e.getMessage(), null));
                    cancelled = true;
                }
            }
            if (cancelled) {
                throw new TransactionCanceled(reasons);
            }
            ItemCore.applyTransaction(planned, capacity, catalog.now());
            token.ifPresent(t -> tokens.remember(t, transactItems, catalog.now()));
            ObjectNode response = Json.object();
            capacity.writeListTo(response);
            return response;
        } finally {
            tables.forEach(t -> t.lock().unlock());
        }
    }

    private Action action(Request element) {
        List<Kind> kinds = new ArrayList<>();
        Map<Kind, String> members = Map.of(Kind.PUT, "Put", Kind.UPDATE, "Update", Kind.DELETE, "Delete", Kind.CONDITION_CHECK, "ConditionCheck");
        for (Kind kind : Kind.values()) {
            if (element.has(members.get(kind))) {
                kinds.add(kind);
            }
        }
        if (kinds.size() != 1) {
            throw EngineException.validation("TransactItems can only contain one of Check, Put, Update or Delete");
        }
        Kind kind = kinds.get(0);
        Request body = element.requiredStructure(members.get(kind));
        Table table = catalog.table(body.tableName("TableName"));
        ExpressionInputs expressions = new ExpressionInputs(body);
        Optional<UpdateExpression> update = kind == Kind.UPDATE
                ? Optional.of(expressions.update("UpdateExpression").orElseThrow(() -> Request.constraint("null", body.at("UpdateExpression"), "Member must not be null")))
                : Optional.empty();
        Optional<ConditionExpression> condition = expressions.condition("ConditionExpression");
        if (kind == Kind.CONDITION_CHECK && condition.isEmpty()) {
            throw Request.constraint("null", body.at("ConditionExpression"), "Member must not be null");
        }
        expressions.checkAllUsed();
        boolean oldOnFailure = ItemOperations.returnOldOnFailure(body);
        return Locks.under(table, () -> {
            expressions.checkKeysScalar(table);
            if (kind == Kind.PUT) {
                Map<String, Value> item = body.requiredItem("Item");
                return new Action(table, ItemCore.Put.of(table, item), condition, oldOnFailure);
            }
            Map<String, Value> key = ItemChecks.key(table, body.requiredItem("Key"));
            update.ifPresent(u -> ItemOperations.checkNotKey(table, u));
            ItemCore.Write write = switch (kind) {
                case PUT, UPDATE -> new ItemCore.Update(key, update);
                case DELETE -> new ItemCore.Delete(key);
                case CONDITION_CHECK -> new ItemCore.Check(key);
            };
            return new Action(table, write, condition, oldOnFailure);
        });
    }

    public ObjectNode transactGetItems(Request request) {
        List<Request> elements = actions(request, "TransactItems");
        record Get(Table table, Map<String, Value> key, Optional<ProjectionExpression> projection) {
        }
        List<Get> gets = new ArrayList<>();
        ConsumedCapacity capacity = ConsumedCapacity.of(request);
        Set<String> seen = new HashSet<>();
        for (Request element : elements) {
            Request body = element.requiredStructure("Get");
            Table table = catalog.table(body.tableName("TableName"));
            ExpressionInputs expressions = new ExpressionInputs(body);
            Optional<ProjectionExpression> projection = expressions.projection("ProjectionExpression");
            expressions.checkAllUsed();
            Map<String, Value> key = Locks.under(table, () -> {
                expressions.checkKeysScalar(table);
                return ItemChecks.key(table, body.requiredItem("Key"));
            });
            if (!seen.add(table.name() + "\u0000" + key)) {
                throw EngineException.validation("Transaction request cannot include multiple operations on one item");
            }
            gets.add(new Get(table, key, projection));
        }
        List<Table> tables = lockAll(gets.stream().map(Get::table).toList());
        try {
            ObjectNode response = Json.object();
            ArrayNode responses = response.putArray("Responses");
            for (Get get : gets) {
                ObjectNode entry = responses.addObject();
                Map<String, Value> item = get.table().get(get.key());
                if (item != null) {
                    entry.set("Item", Json.item(get.projection().map(p -> p.project(item)).orElse(item)));
                }
                // a transaction's reads are strongly consistent, and cost twice a plain read's units
                capacity.readTable(get.table(), 2 * ConsumedCapacity.readUnits(item == null ? 0 : Values.itemSize(item), true));
            }
            capacity.writeListTo(response);
            return response;
        } finally {
            tables.forEach(t -> t.lock().unlock());
        }
    }

    private static List<Request> actions(Request request, String member) {
        if (!request.has(member)) {
            throw Request.constraint("null", request.at(member), "Member must not be null");
        }
        List<Request> elements = request.structures(member);
        if (elements.isEmpty()) {
            throw Request.constraint("'[]'", request.at(member), "Member must have length greater than or equal to 1");
        }
        if (elements.size() > MAX_ACTIONS) {
            throw Request.constraint("'[...]'", request.at(member), "Member must have length less than or equal to " + MAX_ACTIONS);
        }
        return elements;
    }

    /** Locks the distinct tables in name order (so two transactions never wait on each other in a cycle). */
    private static List<Table> lockAll(List<Table> tables) {
        TreeMap<String, Table> distinct = new TreeMap<>(Comparator.naturalOrder());
        tables.forEach(t -> distinct.put(t.name(), t));
        List<Table> locked = new ArrayList<>();
        for (Table table : distinct.values()) {
            table.lock().lock();
            locked.add(table);
        }
        return locked;
    }
}
