package com.multikey.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.multikey.emulator.TemplateRuntime;
import com.multikey.emulator.services.bus.LocalEventBridge;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.reindex.IndexScope;
import com.multikey.reindex.Verifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A table keyed by a string partition key and a number sort key, both consumers at ParallelizationFactor 4: each item is
 * put, then updated at once through its key spelled another way (a stream may carry that spelling in the MODIFY
 * record's keys). Every record of one partition key is delivered in one lane, in order, so the index ends exact; and the
 * item's events name its key alike, in DynamoDB's canonical spelling.
 */
class NumberKeySpellingsIT {

    private static final String TABLE = "Customers";
    private static final String STREAM_ARN = "arn:aws:dynamodb:us-east-1:123456789012:table/" + TABLE + "/stream/2026-01-01T00:00:00.000";
    /** One number key spelled two ways: as the put spells it, as the update spells it. */
    private static final List<List<String>> SPELLINGS = List.of(List.of("-9.9999999999999999999999999999999999999E+125",
            "-99999999999999999999999999999999999999E+88"), List.of("100", "1E+2"), List.of("1", "1.0"), List.of("1E-130", "0.1E-129"),
            List.of("5", "5.000"));
    private static final int ITEMS = 40;

    private final List<String> lines = new CopyOnWriteArrayList<>();

    @Test
    void putThenUpdateThroughAnotherSpellingOfTheKey_leavesTheIndexExact_andTheEventsNameTheKeyAlike(@TempDir Path dir) throws Exception {
        // given
        Path definitionsFile = Files.writeString(dir.resolve("definitions.yaml"), """
                version: 1
                table: {partitionKey: {name: PK, type: S}, sortKey: {name: SK, type: N}}
                entityTypes:
                  - keyPrefix: {attribute: PK, separator: "#"}
                indexes:
                  - name: by-score
                    values: {attribute: score}
                """);
        IndexDefinitions definitions = DefinitionsYaml.read(definitionsFile);
        SamTemplate template = SamTemplate.ofRepository().withParameterOverrides(Map.of("ExistingTableName", TABLE,
                "ExistingTableStreamArn", STREAM_ARN, "StreamIndexerFilterPattern", "", "IndexedItemKeyPatterns", "CUST#*",
                "StreamIndexerParallelizationFactor", "4", "RouterParallelizationFactor", "4"));
        try (TemplateRuntime runtime = new TemplateRuntime(template, new TemplateRuntime.Ports("127.0.0.1", 0, 0, 0), lines::add,
                NumberKeySpellingsIT::createTable, Map.of("INDEX_DEFINITIONS", definitionsFile.toString()))) {
            DynamoDbClient client = runtime.dynamoDb();

            // when: every put and its update in the stream before the event sources read it
            for (int i = 0; i < ITEMS; i++) {
                List<String> spelling = SPELLINGS.get(i % SPELLINGS.size());
                String pk = "CUST#r" + i;
                client.putItem(b -> b.tableName(TABLE).item(Map.of("PK", AttributeValue.fromS(pk), "SK", AttributeValue.fromN(spelling.get(0)),
                        "score", AttributeValue.fromN("-1"))));
                AttributeValue score = i % 2 == 0 ? AttributeValue.fromNul(true) : AttributeValue.fromN(Integer.toString(i));
                client.updateItem(b -> b.tableName(TABLE).key(Map.of("PK", AttributeValue.fromS(pk), "SK", AttributeValue.fromN(spelling.get(1))))
                        .updateExpression("SET score = :score").expressionAttributeValues(Map.of(":score", score)));
            }
            runtime.startPolling();

            // then
            assertThat(runtime.awaitQuiet(Duration.ofSeconds(120))).as(String.join("\n", lines)).isTrue();
            Verifier.Report report = new Verifier(client, TABLE, runtime.table("IssueAttribIndexTable"), IndexScope.all(definitions)).verify(false);
            assertThat(report.items()).isPositive();
            assertThat(report.clean()).as("%d missing, %d stale, %d orphaned: %s %s %s", report.missingCount(), report.staleCount(),
                    report.orphanedCount(), report.missing(), report.stale(), report.orphaned()).isTrue();
            Map<String, Set<String>> keysByItem = new HashMap<>();
            for (LocalEventBridge.Received event : runtime.bus().received()) {
                JsonNode keys = event.envelope().path("detail").path("keys");
                keysByItem.computeIfAbsent(keys.path("PK").asText(), k -> new HashSet<>()).add(keys.toString());
            }
            assertThat(keysByItem).hasSize(ITEMS).allSatisfy((pk, keys) -> assertThat(keys).as(pk).hasSize(1));
            assertThat(keysByItem.get("CUST#r1")).containsExactly("{\"PK\":\"CUST#r1\",\"SK\":100}");
        }
    }

    private static void createTable(DynamoDbClient dynamoDb) {
        dynamoDb.createTable(b -> b.tableName(TABLE).billingMode("PAY_PER_REQUEST")
                .attributeDefinitions(a -> a.attributeName("PK").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("SK").attributeType(ScalarAttributeType.N))
                .keySchema(k -> k.attributeName("PK").keyType(KeyType.HASH), k -> k.attributeName("SK").keyType(KeyType.RANGE))
                .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
    }
}
