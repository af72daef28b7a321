package com.multikey.local;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.clikit.Failure;
import com.multikey.common.ChangeRecord;
import com.multikey.emulator.services.streams.LambdaEvents;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Items in DynamoDB JSON, as a user has them: the output of {@code aws dynamodb scan} ({@code {"Items": [...]}}), or one
 * item a line (an item's attributes, or {@code {"Item": {...}}} as a DynamoDB export to S3 writes them). Each item is read
 * the way Lambda reads a stream record's image (aws-lambda-java-serialization, then the events SDK transformer).
 */
final class ItemFile {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ItemFile() {
    }

    static List<Map<String, AttributeValue>> read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw Failure.usage("cannot read " + file + " (" + e.getClass().getSimpleName() + "): pass --load with a file of DynamoDB JSON items");
        }
        List<JsonNode> nodes = new ArrayList<>();
        try {
            JsonNode whole = text.isBlank() ? null : parseWhole(text);
            if (whole != null && whole.path("Items").isArray()) {
                whole.path("Items").forEach(nodes::add);
            } else {
                int line = 0;
                for (String json : text.lines().toList()) {
                    line++;
                    if (!json.isBlank()) {
                        JsonNode item = parse(json, file + " line " + line);
                        nodes.add(item.has("Item") && item.size() == 1 ? item.get("Item") : item);
                    }
                }
            }
        } catch (IllegalArgumentException e) {
            throw Failure.usage(e.getMessage());
        }
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (JsonNode node : nodes) {
            items.add(item(node, file));
        }
        return items;
    }

    /** The whole file as one JSON document, or null when it is several (one item a line). */
    private static JsonNode parseWhole(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    private static JsonNode parse(String json, String where) {
        try {
            return JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(where + " is not JSON (" + e.getOriginalMessage() + "): pass --load with DynamoDB JSON, "
                    + "one item a line or the output of 'aws dynamodb scan'");
        }
    }

    private static Map<String, AttributeValue> item(JsonNode node, Path file) {
        ObjectNode record = JSON.createObjectNode().put("eventName", "INSERT");
        record.putObject("dynamodb").<ObjectNode>set("Keys", node).set("NewImage", node);
        ObjectNode event = JSON.createObjectNode();
        event.putArray("Records").add(record);
        try {
            DynamodbEvent read = LambdaEvents.read(event.toString(), DynamodbEvent.class);
            return ChangeRecord.from(read.getRecords().get(0)).newImage().orElseThrow();
        } catch (RuntimeException e) {
            throw Failure.usage(file + ": an item is not DynamoDB JSON (" + e.getMessage() + "), e.g. {\"pk\": {\"S\": \"a\"}, \"n\": {\"N\": \"1\"}}");
        }
    }

    /** Puts every item into the table, one PutItem each, so each one makes a stream record as an application's write does. */
    static int load(DynamoDbClient dynamoDb, String table, List<Map<String, AttributeValue>> items) {
        items.forEach(item -> dynamoDb.putItem(b -> b.tableName(table).item(item)));
        return items.size();
    }
}
