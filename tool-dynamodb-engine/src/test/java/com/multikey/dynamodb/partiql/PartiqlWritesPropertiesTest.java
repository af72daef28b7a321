package com.multikey.dynamodb.partiql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.dynamodb.DynamoDbEngine;
import com.multikey.dynamodb.EngineResponse;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * PartiQL's writes are the JSON API's writes, as AWS's PartiQL pages word them: {@code INSERT} is a PutItem that
 * fails when the item exists, {@code UPDATE ... WHERE key AND condition} an UpdateItem of an item that must exist
 * and satisfy the condition, {@code DELETE ... WHERE key AND condition} a DeleteItem that succeeds on a missing item
 * and is conditional on an existing one. Any sequence of them, run on one engine through PartiQL and on another
 * through the JSON operations, succeeds and fails alike and leaves the same items and the same stream records.
 */
class PartiqlWritesPropertiesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TABLE = "{\"TableName\":\"items\",\"BillingMode\":\"PAY_PER_REQUEST\","
            + "\"KeySchema\":[{\"AttributeName\":\"id\",\"KeyType\":\"HASH\"}],"
            + "\"AttributeDefinitions\":[{\"AttributeName\":\"id\",\"AttributeType\":\"S\"}],"
            + "\"StreamSpecification\":{\"StreamEnabled\":true,\"StreamViewType\":\"NEW_AND_OLD_IMAGES\"}}";

    sealed interface Write {
    }

    record Insert(String id, int v) implements Write {
    }

    record Add(String id, int k, Optional<Integer> when) implements Write {
    }

    record Delete(String id, Optional<Integer> when) implements Write {
    }

    @Property(tries = 60)
    void writes_throughPartiqlOrTheJsonApi_leaveTheSameItemsAndStreamRecords(@ForAll("writes") List<Write> writes) {
        // given
        Clock clock = Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC);
        DynamoDbEngine partiql = new DynamoDbEngine(clock, "us-east-1");
        DynamoDbEngine json = new DynamoDbEngine(clock, "us-east-1");
        call(partiql, "CreateTable", TABLE);
        call(json, "CreateTable", TABLE);

        // when
        List<Boolean> partiqlSucceeded = new ArrayList<>();
        List<Boolean> jsonSucceeded = new ArrayList<>();
        for (Write write : writes) {
            partiqlSucceeded.add(call(partiql, "ExecuteStatement", statement(write)).status() == 200);
            jsonSucceeded.add(call(json, operation(write), request(write)).status() == 200);
        }

        // then
        assertThat(partiqlSucceeded).isEqualTo(jsonSucceeded);
        assertThat(items(partiql)).isEqualTo(items(json));
        assertThat(records(partiql)).isEqualTo(records(json));
    }

    @Provide
    Arbitrary<List<Write>> writes() {
        Arbitrary<String> ids = Arbitraries.of("a", "b", "c");
        Arbitrary<Integer> small = Arbitraries.integers().between(0, 3);
        Arbitrary<Optional<Integer>> when = small.optional(0.5);
        Arbitrary<Write> insert = Combinators.combine(ids, small).as(Insert::new);
        Arbitrary<Write> add = Combinators.combine(ids, small, when).as(Add::new);
        Arbitrary<Write> delete = Combinators.combine(ids, when).as(Delete::new);
        return Arbitraries.oneOf(insert, add, delete).list().ofMaxSize(25);
    }

    private static String statement(Write write) {
        String statement = switch (write) {
            case Insert i -> "INSERT INTO items VALUE {'id': '" + i.id() + "', 'v': " + i.v() + "}";
            case Add a -> "UPDATE items SET v = v + " + a.k() + " WHERE id = '" + a.id() + "'" + a.when().map(v -> " AND v = " + v).orElse("");
            case Delete d -> "DELETE FROM items WHERE id = '" + d.id() + "'" + d.when().map(v -> " AND v = " + v).orElse("");
        };
        return JSON.createObjectNode().put("Statement", statement).toString();
    }

    private static String operation(Write write) {
        return switch (write) {
            case Insert i -> "PutItem";
            case Add a -> "UpdateItem";
            case Delete d -> "DeleteItem";
        };
    }

    /** The JSON API's request for what the PartiQL pages say the statement does. */
    private static String request(Write write) {
        ObjectNode request = JSON.createObjectNode().put("TableName", "items");
        ObjectNode values = JSON.createObjectNode();
        switch (write) {
            case Insert i -> {
                request.putObject("Item").<ObjectNode>set("id", s(i.id())).set("v", n(i.v()));
                request.put("ConditionExpression", "attribute_not_exists(id)");
            }
            case Add a -> {
                request.putObject("Key").set("id", s(a.id()));
                request.put("UpdateExpression", "SET v = v + :k");
                values.set(":k", n(a.k()));
                request.put("ConditionExpression", "attribute_exists(id)" + a.when().map(v -> " AND v = :w").orElse(""));
                a.when().ifPresent(v -> values.set(":w", n(v)));
            }
            case Delete d -> {
                request.putObject("Key").set("id", s(d.id()));
                d.when().ifPresent(v -> {
                    request.put("ConditionExpression", "attribute_not_exists(id) OR v = :w");
                    values.set(":w", n(v));
                });
            }
        }
        if (!values.isEmpty()) {
            request.set("ExpressionAttributeValues", values);
        }
        return request.toString();
    }

    private static ObjectNode s(String text) {
        return JSON.createObjectNode().put("S", text);
    }

    private static ObjectNode n(int number) {
        return JSON.createObjectNode().put("N", Integer.toString(number));
    }

    private static JsonNode items(DynamoDbEngine engine) {
        return body(call(engine, "Scan", "{\"TableName\":\"items\"}")).get("Items");
    }

    /** Each record's event name, keys and images (the rest: ids and sequence numbers, the engine's own). */
    private static List<String> records(DynamoDbEngine engine) {
        String arn = body(call(engine, "DescribeTable", "{\"TableName\":\"items\"}")).get("Table").get("LatestStreamArn").asText();
        String shard = body(streams(engine, "DescribeStream", "{\"StreamArn\":\"" + arn + "\"}"))
                .get("StreamDescription").get("Shards").get(0).get("ShardId").asText();
        String iterator = body(streams(engine, "GetShardIterator", "{\"StreamArn\":\"" + arn + "\",\"ShardId\":\"" + shard
                + "\",\"ShardIteratorType\":\"TRIM_HORIZON\"}")).get("ShardIterator").asText();
        ArrayNode records = (ArrayNode) body(streams(engine, "GetRecords", "{\"ShardIterator\":\"" + iterator + "\"}")).get("Records");
        List<String> seen = new ArrayList<>();
        for (JsonNode record : records) {
            JsonNode change = record.get("dynamodb");
            seen.add(record.get("eventName").asText() + " " + change.get("Keys") + " " + change.get("OldImage") + " " + change.get("NewImage"));
        }
        return seen;
    }

    private static EngineResponse call(DynamoDbEngine engine, String operation, String body) {
        return engine.handle("DynamoDB_20120810." + operation, body.getBytes(StandardCharsets.UTF_8));
    }

    private static EngineResponse streams(DynamoDbEngine engine, String operation, String body) {
        return engine.handle("DynamoDBStreams_20120810." + operation, body.getBytes(StandardCharsets.UTF_8));
    }

    private static JsonNode body(EngineResponse response) {
        assertThat(response.status()).as(response.bodyText()).isEqualTo(200);
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
