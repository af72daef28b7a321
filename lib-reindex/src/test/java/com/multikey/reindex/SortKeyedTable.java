package com.multikey.reindex;

import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.index.definition.KeySchema.KeyType;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A single-table design keyed {@code pk} (S) and {@code sk} of type N or B, for tests: the issues of a project share
 * its partition and are told apart by {@code sk} alone; devices of a fleet likewise. Three declared indexes: the
 * issues' custom fields, their labels, and the devices by status (sparse).
 */
final class SortKeyedTable {

    static final String TABLE = "SortKeyedItems";
    static final String INDEX_TABLE = "IssueAttribIndexTable";
    static final String ISSUE_FIELDS = "issue-fields";
    static final String ISSUE_LABELS = "issue-labels";
    static final String DEVICES = "devices-by-status";
    static final List<String> INDEXES = List.of(ISSUE_FIELDS, ISSUE_LABELS, DEVICES);
    static final int PROJECTS = 2;
    static final int ISSUES_PER_PROJECT = 9;
    static final int DEVICES_IN_FLEET = 8;

    private static final String HEAD = """
            version: 1
            table:
              partitionKey: {name: pk, type: S}
              sortKey: {name: sk, type: %s}
            entityTypes:
              - {name: Issue, when: [{attribute: pk, beginsWith: "PROJECT#"}]}
              - {name: Device, when: [{attribute: pk, beginsWith: "FLEET#"}]}
            indexes:
            """;
    private static final Map<String, String> INDEX_TEXT = Map.of(
            ISSUE_FIELDS, """
                      - name: issue-fields
                        covers: [{attribute: pk, beginsWith: "PROJECT#"}]
                        group: pk
                        values: {entriesOf: cf}
                        orderBy: num
                        projection: [title]
                    """,
            ISSUE_LABELS, """
                      - name: issue-labels
                        covers: [{attribute: pk, beginsWith: "PROJECT#"}]
                        group: pk
                        values: {elementsOf: labels}
                    """,
            DEVICES, """
                      - name: devices-by-status
                        covers: [{attribute: pk, beginsWith: "FLEET#"}, {attribute: status, exists: true}]
                        values: {attribute: status}
                        orderBy: firmware
                        projection: [model]
                    """);

    private SortKeyedTable() {
    }

    /** The three indexes over a table whose sort key has this type. */
    static IndexDefinitions definitions(KeyType sortKey) {
        return definitions(sortKey, INDEXES);
    }

    /** The named indexes only, in this order. */
    static IndexDefinitions definitions(KeyType sortKey, List<String> indexes) {
        StringBuilder text = new StringBuilder(HEAD.formatted(sortKey.name()));
        indexes.forEach(index -> text.append(INDEX_TEXT.get(index)));
        return DefinitionsYaml.parse(text.toString());
    }

    /** Creates the table and puts its issues and devices. */
    static void create(DynamoDbClient dynamoDb, KeyType sortKey) {
        dynamoDb.createTable(b -> b.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.fromValue(sortKey.name())))
                .keySchema(k -> k.attributeName("pk").keyType(software.amazon.awssdk.services.dynamodb.model.KeyType.HASH),
                        k -> k.attributeName("sk").keyType(software.amazon.awssdk.services.dynamodb.model.KeyType.RANGE)));
        for (int p = 0; p < PROJECTS; p++) {
            for (int n = 1; n <= ISSUES_PER_PROJECT; n++) {
                put(dynamoDb, issue(sortKey, p, n));
            }
        }
        for (int n = 1; n <= DEVICES_IN_FLEET; n++) {
            put(dynamoDb, device(sortKey, n));
        }
    }

    static void put(DynamoDbClient dynamoDb, Map<String, AttributeValue> item) {
        dynamoDb.putItem(b -> b.tableName(TABLE).item(item));
    }

    /** The sort key of the n-th item of a partition: n itself, or bytes that hold 0x00 and 0xff around n. */
    static AttributeValue sk(KeyType sortKey, int n) {
        return switch (sortKey) {
            case N -> AttributeValue.fromN(Integer.toString(n * 10));
            case B -> AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {0, (byte) n, (byte) 0xff}));
            case S -> throw new IllegalArgumentException("a table of this design has a sort key of type N or B");
        };
    }

    /** The key of issue n of project p. */
    static Map<String, AttributeValue> issueKey(KeyType sortKey, int project, int n) {
        return Map.of("pk", s("PROJECT#p" + project), "sk", sk(sortKey, n));
    }

    static Map<String, AttributeValue> issue(KeyType sortKey, int project, int n) {
        Map<String, AttributeValue> issue = new LinkedHashMap<>(issueKey(sortKey, project, n));
        issue.put("num", AttributeValue.fromN(Integer.toString(n)));
        issue.put("title", s("issue " + n));
        issue.put("cf", AttributeValue.fromM(Map.of("prio", AttributeValue.fromN(Integer.toString(n % 4)),
                "due", s("2026-0" + (1 + n % 9) + "-01"))));
        issue.put("labels", AttributeValue.fromL(List.of(s("l" + n % 3), s("l" + n % 5))));
        return issue;
    }

    /** Device n of the fleet: active, retired, or (every third) no status, so not in the sparse index. */
    static Map<String, AttributeValue> device(KeyType sortKey, int n) {
        Map<String, AttributeValue> device = new LinkedHashMap<>();
        device.put("pk", s("FLEET#f1"));
        device.put("sk", sk(sortKey, n));
        device.put("model", s("m" + n % 2));
        device.put("firmware", AttributeValue.fromN(Integer.toString(100 - n)));
        if (n % 3 != 0) {
            device.put("status", s(n % 2 == 0 ? "active" : "retired"));
        }
        return device;
    }

    static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }
}
