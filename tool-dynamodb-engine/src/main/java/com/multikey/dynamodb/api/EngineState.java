package com.multikey.dynamodb.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.dynamodb.stream.StreamLog;
import com.multikey.dynamodb.stream.StreamRecord;
import com.multikey.dynamodb.table.IndexDefinition;
import com.multikey.dynamodb.table.KeyElement;
import com.multikey.dynamodb.table.KeySchema;
import com.multikey.dynamodb.table.Projection;
import com.multikey.dynamodb.table.SecondaryIndex;
import com.multikey.dynamodb.table.Table;
import com.multikey.dynamodb.table.TableDefinition;
import com.multikey.dynamodb.table.Throughput;
import com.multikey.dynamodb.table.TimeToLive;
import com.multikey.dynamodb.value.Value;
import com.multikey.dynamodb.value.ValueJson;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The engine's whole state as JSON, and back: the tables (definitions, indexes, throughput, TTL, tags, items), every
 * stream still readable (its records with their sequence numbers, whether it was closed, what was trimmed), the
 * stream sequence counter and the transactions' ClientRequestTokens. An engine restored from it answers every request
 * as the engine it was taken from would (the data directory's snapshot, decision 0033). Kinesis streaming
 * destinations are not carried: {@link #exportable} says whether a state has none. Call with no change running.
 */
public final class EngineState {

    /** The format's version, written into every snapshot; a snapshot of another version is refused. */
    public static final int VERSION = 1;

    private EngineState() {
    }

    /** Whether the state can be exported: no table has a Kinesis streaming destination. */
    public static boolean exportable(Catalog catalog) {
        return catalog.tables().stream().allMatch(table -> Locks.under(table, () -> table.destinations().isEmpty()));
    }

    public static ObjectNode export(Catalog catalog, TransactionOperations transactions) {
        ObjectNode json = Json.object();
        json.put("version", VERSION);
        json.put("sequence", catalog.sequences().current());
        Map<String, StreamLog> streams = new LinkedHashMap<>();
        ArrayNode registry = json.putArray("registry");
        for (StreamLog stream : catalog.streams().list(null, catalog.now())) {
            streams.put(stream.arn(), stream);
            registry.add(stream.arn());
        }
        ArrayNode tables = json.putArray("tables");
        for (Table table : catalog.tables()) {
            Locks.under(table, () -> {
                if (table.stream() != null) {
                    streams.putIfAbsent(table.stream().arn(), table.stream());
                }
                tables.add(table(table));
                return null;
            });
        }
        ArrayNode streamsJson = json.putArray("streams");
        streams.values().forEach(stream -> streamsJson.add(stream(stream)));
        ArrayNode tokens = json.putArray("tokens");
        transactions.tokens().snapshot().forEach((token, done) -> tokens.addObject().put("token", token)
                .put("transactItems", done.getKey()).put("completed", done.getValue().toString()));
        return json;
    }

    /** Loads a state into a new engine's catalog (no table, no stream yet); IllegalArgumentException when it is not one. */
    public static void restore(JsonNode json, Catalog catalog, TransactionOperations transactions) {
        if (json.path("version").asInt() != VERSION) {
            throw new IllegalArgumentException("a state of version " + json.path("version") + ", not " + VERSION);
        }
        catalog.sequences().restore(required(json, "sequence").asLong());
        Map<String, StreamLog> streams = new LinkedHashMap<>();
        for (JsonNode stream : required(json, "streams")) {
            StreamLog log = stream(stream, catalog);
            streams.put(log.arn(), log);
        }
        for (JsonNode arn : required(json, "registry")) {
            catalog.streams().add(known(streams, arn.asText()));
        }
        for (JsonNode tableJson : required(json, "tables")) {
            Table table = table(tableJson);
            JsonNode stream = tableJson.get("stream");
            if (stream != null) {
                table.stream(known(streams, stream.asText()));
            }
            catalog.add(table);
        }
        for (JsonNode token : required(json, "tokens")) {
            transactions.tokens().restore(required(token, "token").asText(), required(token, "transactItems").asText(),
                    Instant.parse(required(token, "completed").asText()));
        }
    }

    private static ObjectNode table(Table table) {
        ObjectNode json = Json.object();
        json.put("name", table.name()).put("arn", table.arn()).put("id", table.id()).put("created", table.created().toString());
        json.set("keySchema", keySchema(table.keySchema()));
        ObjectNode types = json.putObject("attributeTypes");
        table.attributeTypes().forEach(types::put);
        throughput(json, table.throughput());
        ArrayNode indexes = json.putArray("indexes");
        for (SecondaryIndex index : table.indexes()) {
            IndexDefinition definition = index.definition();
            ObjectNode indexJson = indexes.addObject().put("name", definition.name()).put("global", definition.global());
            indexJson.set("keySchema", keySchema(definition.keySchema()));
            indexJson.put("projection", definition.projection().type().name());
            ArrayNode nonKey = indexJson.putArray("nonKeyAttributes");
            definition.projection().nonKeyAttributes().forEach(nonKey::add);
            throughput(indexJson, definition.throughput());
        }
        if (table.timeToLive().enabled()) {
            json.put("timeToLive", table.timeToLive().attributeName());
        }
        ObjectNode tags = json.putObject("tags");
        table.tags().forEach(tags::put);
        if (table.stream() != null) {
            json.put("stream", table.stream().arn());
        }
        ArrayNode items = json.putArray("items");
        table.items().partitions().values().forEach(partition -> partition.values().forEach(item -> items.add(ValueJson.writeItem(item))));
        return json;
    }

    private static Table table(JsonNode json) {
        KeySchema keySchema = keySchema(required(json, "keySchema"));
        Map<String, String> types = new LinkedHashMap<>();
        required(json, "attributeTypes").properties().forEach(e -> types.put(e.getKey(), e.getValue().asText()));
        // the items first, the indexes after them: adding an index fills it from the items
        Table table = new Table(new TableDefinition(required(json, "name").asText(), keySchema, types, List.of(), throughput(json)),
                required(json, "arn").asText(), required(json, "id").asText(), Instant.parse(required(json, "created").asText()));
        Instant created = table.created();
        for (JsonNode item : required(json, "items")) {
            table.put(ValueJson.readItem(item), created);
        }
        for (JsonNode index : required(json, "indexes")) {
            List<String> nonKey = new ArrayList<>();
            required(index, "nonKeyAttributes").forEach(name -> nonKey.add(name.asText()));
            table.addIndex(new IndexDefinition(required(index, "name").asText(), required(index, "global").asBoolean(),
                    keySchema(required(index, "keySchema")), new Projection(Projection.Type.valueOf(required(index, "projection").asText()), nonKey),
                    throughput(index)));
        }
        JsonNode ttl = json.get("timeToLive");
        if (ttl != null) {
            table.timeToLive(new TimeToLive(true, ttl.asText()));
        }
        required(json, "tags").properties().forEach(e -> table.tags().put(e.getKey(), e.getValue().asText()));
        return table;
    }

    private static ObjectNode stream(StreamLog stream) {
        ObjectNode json = Json.object();
        json.put("arn", stream.arn()).put("label", stream.label()).put("tableName", stream.tableName())
                .put("viewType", stream.viewType().name()).put("created", stream.created().toString())
                .put("startingSequence", stream.startingSequence()).put("endingSequence", stream.endingSequence())
                .put("trimmedUpTo", stream.trimmedUpTo());
        json.set("keySchema", streamKey(stream.keySchema()));
        if (stream.disabledAt() != null) {
            json.put("disabledAt", stream.disabledAt().toString());
        }
        ArrayNode records = json.putArray("records");
        for (StreamRecord record : stream.records()) {
            ObjectNode r = records.addObject().put("event", record.eventName().name()).put("sequence", record.sequence())
                    .put("created", record.createdMillis()).put("ttl", record.byTimeToLive()).put("size", record.sizeBytes());
            r.set("keys", ValueJson.writeItem(record.keys()));
            if (record.oldImage() != null) {
                r.set("old", ValueJson.writeItem(record.oldImage()));
            }
            if (record.newImage() != null) {
                r.set("new", ValueJson.writeItem(record.newImage()));
            }
        }
        return json;
    }

    private static StreamLog stream(JsonNode json, Catalog catalog) {
        List<StreamRecord> records = new ArrayList<>();
        for (JsonNode r : required(json, "records")) {
            records.add(new StreamRecord(StreamRecord.EventName.valueOf(required(r, "event").asText()), required(r, "sequence").asLong(),
                    required(r, "created").asLong(), ValueJson.readItem(required(r, "keys")), image(r.get("old")), image(r.get("new")),
                    required(r, "ttl").asBoolean(), required(r, "size").asLong()));
        }
        JsonNode disabledAt = json.get("disabledAt");
        return StreamLog.restore(required(json, "arn").asText(), required(json, "label").asText(), required(json, "tableName").asText(),
                streamKey(required(json, "keySchema")), StreamLog.ViewType.valueOf(required(json, "viewType").asText()),
                Instant.parse(required(json, "created").asText()), catalog.sequences(), required(json, "startingSequence").asLong(),
                disabledAt == null ? null : Instant.parse(disabledAt.asText()), required(json, "endingSequence").asLong(),
                required(json, "trimmedUpTo").asLong(), records);
    }

    private static Map<String, Value> image(JsonNode json) {
        return json == null ? null : Map.copyOf(ValueJson.readItem(json));
    }

    private static ArrayNode keySchema(KeySchema keySchema) {
        ArrayNode json = Json.MAPPER.createArrayNode();
        keySchema.elements().forEach(e -> json.addObject().put("name", e.name()).put("type", e.type()));
        return json;
    }

    private static ArrayNode streamKey(List<StreamLog.KeyAttribute> key) {
        ArrayNode json = Json.MAPPER.createArrayNode();
        key.forEach(e -> json.addObject().put("name", e.attributeName()).put("keyType", e.keyType()));
        return json;
    }

    private static List<StreamLog.KeyAttribute> streamKey(JsonNode json) {
        List<StreamLog.KeyAttribute> key = new ArrayList<>();
        json.forEach(e -> key.add(new StreamLog.KeyAttribute(required(e, "name").asText(), required(e, "keyType").asText())));
        if (key.isEmpty() || key.size() > 2) {
            throw new IllegalArgumentException("a stream key of " + key.size() + " attributes");
        }
        return key;
    }

    private static KeySchema keySchema(JsonNode json) {
        List<KeyElement> elements = new ArrayList<>();
        json.forEach(e -> elements.add(new KeyElement(required(e, "name").asText(), required(e, "type").asText())));
        if (elements.isEmpty() || elements.size() > 2) {
            throw new IllegalArgumentException("a key schema of " + elements.size() + " elements");
        }
        return new KeySchema(elements.get(0), elements.size() == 2 ? Optional.of(elements.get(1)) : Optional.empty());
    }

    private static void throughput(ObjectNode json, Throughput throughput) {
        if (throughput != null) {
            json.put("read", throughput.readCapacityUnits()).put("write", throughput.writeCapacityUnits());
        }
    }

    private static Throughput throughput(JsonNode json) {
        return json.has("read") ? new Throughput(json.get("read").asLong(), json.get("write").asLong()) : null;
    }

    private static StreamLog known(Map<String, StreamLog> streams, String arn) {
        StreamLog stream = streams.get(arn);
        if (stream == null) {
            throw new IllegalArgumentException("a stream " + arn + " the state does not hold");
        }
        return stream;
    }

    private static JsonNode required(JsonNode json, String member) {
        JsonNode node = json.get(member);
        if (node == null || node.isNull()) {
            throw new IllegalArgumentException("no " + member);
        }
        return node;
    }
}
