package com.multikey.dynamodb.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.Faults;
import com.multikey.dynamodb.expression.ProjectionExpression;
import com.multikey.dynamodb.table.Table;
import com.multikey.dynamodb.value.Value;
import com.multikey.dynamodb.value.Values;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * BatchWriteItem and BatchGetItem. The whole request is checked before anything is written or read; each item
 * is then written on its own (a batch is not a transaction). Unprocessed items and keys come only from the
 * injected faults or, for reads, from the 16 MB response limit.
 */
public final class BatchOperations {

    static final int MAX_WRITES = 25;
    static final int MAX_READS = 100;
    /**
     * BatchGetItem's "16 MB", never exceeded: API_BatchGetItem.html's example answers 52 of 100 items of 300 KB
     * (52 x 307,200 = 15,974,400 bytes; a 53rd would pass 16,000,000).
     */
    static final long MAX_RESPONSE_BYTES = 16_000_000L;

    private final Catalog catalog;
    private final Faults faults;

    public BatchOperations(Catalog catalog, Faults faults) {
        this.catalog = catalog;
        this.faults = faults;
    }

    /** A write of the batch, its item checked (a put's when it was made) before any write of the batch is applied. */
    private record Write(Table table, JsonNode json, ItemCore.Write write) {
    }

    public ObjectNode batchWriteItem(Request request) {
        Map<String, JsonNode> requestItems = requestItems(request);
        requestItems.keySet().forEach(name -> Request.checkTableName(name, "requestItems"));
        if (requestItems.values().stream().mapToInt(JsonNode::size).sum() > MAX_WRITES) {
            throw EngineException.validation("Too many items requested for the BatchWriteItem call");
        }
        // the request is validated whole before any table is looked up, as DynamoDB does
        for (var entry : requestItems.entrySet()) {
            if (!entry.getValue().isArray() || entry.getValue().isEmpty()) {
                throw Request.constraint("'[]'", "requestItems", "Map value must satisfy constraint: [Member must have length less than or equal to 25, Member must have length greater than or equal to 1]");
            }
            for (JsonNode element : entry.getValue()) {
                Request write = request.child(element, "RequestItems");
                Optional<Request> put = write.structure("PutRequest");
                Optional<Request> delete = write.structure("DeleteRequest");
                if (put.isPresent() == delete.isPresent()) {
                    throw EngineException.validation("Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes");
                }
                if (put.isPresent()) {
                    ItemChecks.size(put.get().requiredItem("Item"));
                } else {
                    delete.get().requiredItem("Key");
                }
            }
        }
        ConsumedCapacity capacity = ConsumedCapacity.of(request);
        List<Write> writes = new ArrayList<>();
        for (var entry : requestItems.entrySet()) {
            Table table = catalog.table(entry.getKey());
            if (!entry.getValue().isArray() || entry.getValue().isEmpty()) {
                throw Request.constraint("'[]'", "requestItems", "Map value must satisfy constraint: [Member must have length less than or equal to 25, Member must have length greater than or equal to 1]");
            }
            Set<Map<String, Value>> keys = new HashSet<>();
            for (JsonNode element : entry.getValue()) {
                Request write = request.child(element, "RequestItems");
                Optional<Request> put = write.structure("PutRequest");
                Optional<Request> delete = write.structure("DeleteRequest");
                if (put.isPresent() == delete.isPresent()) {
                    throw EngineException.validation("Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes");
                }
                Write checked = check(table, element, put, delete);
                if (!keys.add(checked.write().key())) {
                    throw EngineException.validation("Provided list of item keys contains duplicates");
                }
                writes.add(checked);
            }
        }
        ObjectNode response = Json.object();
        ObjectNode unprocessed = response.putObject("UnprocessedItems");
        for (Write write : writes) {
            if (faults.takeUnprocessed()) {
                ArrayNode list = unprocessed.has(write.table().name()) ? (ArrayNode) unprocessed.get(write.table().name())
                        : unprocessed.putArray(write.table().name());
                list.add(write.json());
                continue;
            }
            Locks.under(write.table(), () -> {
                ItemCore.Planned written = ItemCore.write(write.table(), write.write(), Optional.empty(), false, catalog.now());
                capacity.write(write.table(), written.old(), written.current(), 1);
                return null;
            });
        }
        capacity.writeListTo(response);
        return response;
    }

    private static Write check(Table table, JsonNode json, Optional<Request> put, Optional<Request> delete) {
        return Locks.under(table, () -> {
            if (put.isPresent()) {
                return new Write(table, json, ItemCore.Put.of(table, put.get().requiredItem("Item")));
            }
            Map<String, Value> key = ItemChecks.key(table, delete.get().requiredItem("Key"));
            return new Write(table, json, new ItemCore.Delete(key));
        });
    }

    private static final List<String> PROJECTION = List.of("ProjectionExpression");
    private static final List<String> ATTRIBUTES_TO_GET = List.of("AttributesToGet");

    public ObjectNode batchGetItem(Request request) {
        Map<String, JsonNode> requestItems = requestItems(request);
        requestItems.keySet().forEach(name -> Request.checkTableName(name, "requestItems"));
        record Read(Table table, String name, Request json, Map<String, Value> key, Optional<ProjectionExpression> projection) {
        }
        if (requestItems.values().stream().mapToInt(k -> k.path("Keys").size()).sum() > MAX_READS) {
            throw EngineException.validation("Too many items requested for the BatchGetItem call");
        }
        // the request is validated whole before any table is looked up, as DynamoDB does
        for (var entry : requestItems.entrySet()) {
            Request keysAndAttributes = request.child(entry.getValue(), "RequestItems");
            ExpressionInputs expressions = new ExpressionInputs(keysAndAttributes, PROJECTION, ATTRIBUTES_TO_GET);
            expressions.projection("ProjectionExpression");
            expressions.checkAllUsed();
            LegacyParameters.attributesToGet(keysAndAttributes);
            JsonNode keys = keysAndAttributes.node("Keys");
            if (keys == null || !keys.isArray() || keys.isEmpty()) {
                throw Request.constraint("'[]'", "requestItems." + entry.getKey() + ".member.keys", "Member must have length greater than or equal to 1");
            }
            Set<Map<String, Value>> seen = new HashSet<>();
            for (JsonNode keyJson : keys) {
                if (!seen.add(com.multikey.dynamodb.value.ValueJson.readItem(keyJson))) {
                    throw EngineException.validation("Provided list of item keys contains duplicates");
                }
            }
        }
        ConsumedCapacity capacity = ConsumedCapacity.of(request);
        List<Read> reads = new ArrayList<>();
        for (var entry : requestItems.entrySet()) {
            Table table = catalog.table(entry.getKey());
            Request keysAndAttributes = request.child(entry.getValue(), "RequestItems");
            ExpressionInputs expressions = new ExpressionInputs(keysAndAttributes, PROJECTION, ATTRIBUTES_TO_GET);
            Optional<ProjectionExpression> projectionExpression = expressions.projection("ProjectionExpression");
            expressions.checkAllUsed();
            Optional<ProjectionExpression> projection = projectionExpression.or(() -> LegacyParameters.attributesToGet(keysAndAttributes));
            Locks.under(table, () -> {
                expressions.checkKeysScalar(table);
                return null;
            });
            JsonNode keys = keysAndAttributes.node("Keys");
            if (keys == null || !keys.isArray() || keys.isEmpty()) {
                throw Request.constraint("'[]'", "requestItems." + entry.getKey() + ".member.keys", "Member must have length greater than or equal to 1");
            }
            Set<Map<String, Value>> seen = new HashSet<>();
            for (JsonNode keyJson : keys) {
                Map<String, Value> key = Locks.under(table, () -> ItemChecks.key(table,
                        com.multikey.dynamodb.value.ValueJson.readItem(keyJson)));
                if (!seen.add(key)) {
                    throw EngineException.validation("Provided list of item keys contains duplicates");
                }
                reads.add(new Read(table, entry.getKey(), keysAndAttributes, key, projection));
            }
        }
        ObjectNode response = Json.object();
        ObjectNode responses = response.putObject("Responses");
        requestItems.keySet().forEach(responses::putArray);
        ObjectNode unprocessed = response.putObject("UnprocessedKeys");
        long bytes = 0;
        boolean full = false;
        for (Read read : reads) {
            Map<String, Value> projected = null;
            if (!full && !faults.takeUnprocessed()) {
                Map<String, Value> item = Locks.under(read.table(), () -> read.table().get(read.key()));
                capacity.readTable(read.table(), ConsumedCapacity.readUnits(item == null ? 0 : Values.itemSize(item),
                        read.json().bool("ConsistentRead").orElse(false)));
                if (item == null) {
                    continue;
                }
                projected = read.projection().map(p -> p.project(item)).orElse(item);
                // the response never passes the limit: an item that would is left for the next call, and the rest with it
                full = bytes + Values.itemSize(projected) > MAX_RESPONSE_BYTES;
            }
            if (projected == null || full) {
                ObjectNode keysAndAttributes = unprocessed.has(read.name()) ? (ObjectNode) unprocessed.get(read.name())
                        : unprocessedEntry(unprocessed, read.name(), read.json());
                ((ArrayNode) keysAndAttributes.get("Keys")).add(Json.item(read.key()));
                continue;
            }
            bytes += Values.itemSize(projected);
            ((ArrayNode) responses.get(read.name())).add(Json.item(projected));
        }
        capacity.writeListTo(response);
        return response;
    }

    /** The unprocessed keys of one table carry the request's projection and names, as on AWS. */
    private static ObjectNode unprocessedEntry(ObjectNode unprocessed, String name, Request keysAndAttributes) {
        ObjectNode entry = unprocessed.putObject(name);
        entry.putArray("Keys");
        for (String member : List.of("ProjectionExpression", "ExpressionAttributeNames", "AttributesToGet", "ConsistentRead")) {
            if (keysAndAttributes.has(member)) {
                entry.set(member, keysAndAttributes.node(member));
            }
        }
        return entry;
    }

    private static Map<String, JsonNode> requestItems(Request request) {
        if (!request.has("RequestItems")) {
            throw Request.constraint("null", "requestItems", "Member must not be null");
        }
        Map<String, JsonNode> items = new LinkedHashMap<>(request.map("RequestItems"));
        if (items.isEmpty()) {
            throw Request.constraint("'{}'", "requestItems", "Member must have length greater than or equal to 1");
        }
        return items;
    }
}
