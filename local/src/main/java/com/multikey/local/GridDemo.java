package com.multikey.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The main job: loads the design's grid sample into the app table, lets the stream indexer build the
 * index, changes and removes an issue, and checks at each step that every attribute's issues come back
 * in the expected order.
 */
final class GridDemo {

    /** One expectation and whether it held. */
    record Check(String description, List<String> expected, List<String> actual) {
        boolean passed() {
            return expected.equals(actual);
        }
    }

    private final LocalPipeline pipeline;
    private final PrintStream out;
    private final List<Check> checks = new ArrayList<>();

    GridDemo(LocalPipeline pipeline, PrintStream out) {
        this.pipeline = pipeline;
        this.out = out;
    }

    List<Check> run(Path gridSample) {
        JsonNode grid = read(gridSample);
        for (JsonNode issue : grid.get("issues")) {
            put(issueItem(issue));
        }
        out.printf("Loaded %d issues into %s; %d stream records indexed.%n%n", grid.get("issues").size(),
                pipeline.table("AppTable"), pipeline.pump());
        printIndex();

        Map<String, List<String>> expected = new LinkedHashMap<>();
        grid.get("expectedIndexOrder").fields().forEachRemaining(e -> {
            List<String> ids = new ArrayList<>();
            e.getValue().forEach(id -> ids.add(id.asText()));
            expected.put(e.getKey(), ids);
        });
        checkOrder("grid sample", expected);

        out.println("\nissue#67d1 moves its Start (3812) to 2023-04-30; issue#af34 is removed.");
        Map<String, AttributeValue> moved = issueItem(find(grid, "issue#67d1"));
        Map<String, AttributeValue> fields = new LinkedHashMap<>(moved.get("custom_fields").m());
        fields.put("3812", AttributeValue.fromS("2023-04-30"));
        moved.put("custom_fields", AttributeValue.fromM(fields));
        put(moved);
        pipeline.dynamoDb.deleteItem(b -> b.tableName(pipeline.table("AppTable")).key(Map.of("id", AttributeValue.fromS("issue#af34"))));
        out.printf("%d stream records indexed.%n%n", pipeline.pump());
        printIndex();
        expected.put("3812", List.of("issue#67d1", "issue#020e"));
        expected.put("3fe6", List.of());
        expected.put("47e5", List.of());
        checkOrder("after the change", expected);
        return checks;
    }

    private void checkOrder(String when, Map<String, List<String>> expected) {
        out.printf("%nAscending Query per attribute (%s):%n", when);
        expected.forEach((attribId, ids) -> {
            List<String> ascending = query(attribId, true);
            List<String> descending = query(attribId, false);
            Check up = new Check(when + ": " + attribId + " ascending", ids, ascending);
            Check down = new Check(when + ": " + attribId + " descending", ids.reversed(), descending);
            checks.add(up);
            checks.add(down);
            out.printf("  %-5s %-30s %s%n", attribId, String.join(", ", ascending),
                    up.passed() && down.passed() ? "ok (descending too)" : "EXPECTED " + String.join(", ", ids));
        });
    }

    private void printIndex() {
        String table = pipeline.table("IssueAttribIndexTable");
        var items = IndexTablePrinter.scan(pipeline.dynamoDb, table);
        out.printf("%s (%d items; ␁ is the sort key separator):%n", table, items.size());
        IndexTablePrinter.print(out, items);
    }

    private List<String> query(String attribId, boolean ascending) {
        List<String> ids = new ArrayList<>();
        pipeline.dynamoDb.queryPaginator(b -> b.tableName(pipeline.table("IssueAttribIndexTable"))
                        .keyConditionExpression("attribId = :a")
                        .expressionAttributeValues(Map.of(":a", AttributeValue.fromS(attribId)))
                        .scanIndexForward(ascending))
                .items().forEach(item -> ids.add(item.get("issueId").s()));
        return ids;
    }

    private void put(Map<String, AttributeValue> item) {
        pipeline.dynamoDb.putItem(b -> b.tableName(pipeline.table("AppTable")).item(item));
    }

    private static JsonNode find(JsonNode grid, String id) {
        for (JsonNode issue : grid.get("issues")) {
            if (issue.get("id").asText().equals(id)) {
                return issue;
            }
        }
        throw new IllegalArgumentException("grid sample has no " + id);
    }

    /** A grid issue as an app table item: strings as S, numbers as N, custom fields as a map. */
    static Map<String, AttributeValue> issueItem(JsonNode issue) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        issue.fields().forEachRemaining(field -> item.put(field.getKey(), attribute(field.getValue())));
        return item;
    }

    private static AttributeValue attribute(JsonNode value) {
        if (value.isObject()) {
            Map<String, AttributeValue> map = new LinkedHashMap<>();
            value.fields().forEachRemaining(f -> map.put(f.getKey(), attribute(f.getValue())));
            return AttributeValue.fromM(map);
        }
        if (value.isArray()) {
            List<AttributeValue> list = new ArrayList<>();
            value.forEach(v -> list.add(attribute(v)));
            return AttributeValue.fromL(list);
        }
        if (value.isNumber()) {
            return AttributeValue.fromN(value.asText());
        }
        if (value.isBoolean()) {
            return AttributeValue.fromBool(value.asBoolean());
        }
        return AttributeValue.fromS(value.asText());
    }

    private static JsonNode read(Path file) {
        try {
            return new ObjectMapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
