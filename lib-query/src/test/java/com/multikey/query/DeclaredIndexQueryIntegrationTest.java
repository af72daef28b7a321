package com.multikey.query;

import com.multikey.common.Backoff;
import com.multikey.common.Sleeper;
import com.multikey.index.IndexProjector;
import com.multikey.index.IndexValue;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import com.multikey.testkit.SingleTableFixtures;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Pages of the declared indexes of a single-table design (the example definitions) on the local DynamoDB engine: a big project
 * and a small one share their custom field names, yet the small project's page is read in two calls, in order both
 * ways, filtered, page after page; a cursor of one group or index is refused for another.
 */
class DeclaredIndexQueryIntegrationTest {

    @RegisterExtension
    static final LocalTablesExtension TABLES = LocalTablesExtension.createdOnce();
    private static final IndexDefinitions DEFINITIONS = DefinitionsYaml.read(Path.of("..", "examples", "single-table", "index-definitions.yaml"));
    private static final String TABLE = "Items";
    private static final int BIG = 600;
    private static final int SMALL = 12;
    private static DynamoDbClient dynamoDb;
    private static final Map<String, Map<String, AttributeValue>> ITEMS = new LinkedHashMap<>();

    @BeforeAll
    static void load(LocalTables tables) {
        dynamoDb = tables.dynamoDb();
        dynamoDb.createTable(b -> b.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH), k -> k.attributeName("sk").keyType(KeyType.RANGE)));
        Random random = new Random(3);
        for (int i = 1; i <= BIG; i++) {
            put(issue("PROJECT#big", i, random));
        }
        for (int i = 1; i <= SMALL; i++) {
            put(issue("PROJECT#small", i, random));
        }
        for (int v = 0; v < 6; v++) {
            put(SingleTableFixtures.layerVersion(v, v >= 3 ? (v == 5 ? "latest" : "deprecated") : null));
        }
    }

    private static Map<String, AttributeValue> issue(String project, int num, Random random) {
        Map<String, AttributeValue> issue = new LinkedHashMap<>();
        issue.put("pk", s(project));
        issue.put("sk", s("ISSUE#" + num));
        issue.put("num", AttributeValue.fromN(Integer.toString(num)));
        issue.put("title", s("issue " + num));
        issue.put("cf", AttributeValue.fromM(Map.of("prio", AttributeValue.fromN(Integer.toString(random.nextInt(5))),
                "owner", s("o" + random.nextInt(4)))));
        issue.put("labels", AttributeValue.fromSs(List.of("l" + random.nextInt(3), "m" + random.nextInt(3))));
        return issue;
    }

    /** The item, and the index items the stream indexer keeps for it, written directly. */
    private static void put(Map<String, AttributeValue> item) {
        dynamoDb.putItem(b -> b.tableName(TABLE).item(item));
        IndexProjector projector = new IndexProjector(DEFINITIONS);
        projector.project(projector.keyOf(item).orElseThrow(), item).items()
                .forEach(indexItem -> dynamoDb.putItem(b -> b.tableName("IssueAttribIndexTable").item(indexItem.toItem())));
        ITEMS.put(item.get("pk").s() + " " + item.get("sk").s(), item);
    }

    private static IndexQuery query() {
        return new IndexQuery(dynamoDb, TABLE, "IssueAttribIndexTable", DEFINITIONS,
                new Backoff(Duration.ofMillis(1), Duration.ofMillis(5), new Random(1)), Sleeper.SYSTEM, IndexQuery.DEFAULT_PAGE_BUDGET,
                System::nanoTime, SEALER, new GridSettings("ByProject", (project, attribute) -> true));
    }

    /** One key for every query of the class: a cursor of one {@code query()} opens in the next. */
    private static final CursorSealer SEALER = CursorSealer.of(CursorKeys.ephemeral());

    private static List<String> keys(Page page) {
        return page.items().stream().map(item -> item.get("pk").s() + " " + item.get("sk").s()).toList();
    }

    /** Every page's item keys, each page but the last full. */
    private static List<String> all(PageRequest first) {
        List<String> keys = new ArrayList<>();
        PageRequest request = first;
        for (int n = 0; n < 100; n++) {
            Page page = query().page(request);
            keys.addAll(keys(page));
            if (page.nextCursor().isEmpty()) {
                return keys;
            }
            assertThat(page.items()).hasSize(first.pageSize());
            request = request.after(page.nextCursor().get());
        }
        throw new AssertionError("more than 100 pages");
    }

    /** The small project's issues by prio then num, from the items themselves. */
    private static List<String> expectedByPrio(boolean ascending) {
        List<Map<String, AttributeValue>> issues = new ArrayList<>(ITEMS.values().stream()
                .filter(i -> i.get("pk").s().equals("PROJECT#small")).toList());
        issues.sort((a, b) -> {
            int byPrio = new BigDecimal(a.get("cf").m().get("prio").n()).compareTo(new BigDecimal(b.get("cf").m().get("prio").n()));
            int order = byPrio != 0 ? byPrio : new BigDecimal(a.get("num").n()).compareTo(new BigDecimal(b.get("num").n()));
            return ascending ? order : -order;
        });
        return issues.stream().map(i -> i.get("pk").s() + " " + i.get("sk").s()).toList();
    }

    @Test
    void smallGroup_besideABigOneSharingItsFieldNames_isReadInTwoCalls_inOrderBothWays() {
        PageRequest asc = PageRequest.onIndex("issue-fields", List.of(s("PROJECT#small")), "prio", Order.ASC, 25);
        PageRequest desc = PageRequest.onIndex("issue-fields", List.of(s("PROJECT#small")), "prio", Order.DESC, 25);

        Page page = query().page(asc);

        assertThat(page.apiCalls()).isEqualTo(2);
        assertThat(keys(page)).isEqualTo(expectedByPrio(true));
        assertThat(all(desc)).isEqualTo(expectedByPrio(false));
        assertThat(all(PageRequest.onIndex("issue-fields", List.of(s("PROJECT#small")), "prio", Order.ASC, 5))).isEqualTo(expectedByPrio(true));
    }

    @Test
    void filters_andMultikeyElements_andSparseScalarIndexes_readTheirOwnItemsOnly() {
        PageRequest prio2 = PageRequest.onIndex("issue-fields", List.of(s("PROJECT#big")), "prio", Order.ASC, 100)
                .withFilter(new Filter.Equals(new IndexValue.Num(BigDecimal.valueOf(2))));
        List<String> expected = ITEMS.values().stream().filter(i -> i.get("pk").s().equals("PROJECT#big")
                && i.get("cf").m().get("prio").n().equals("2")).map(i -> i.get("pk").s() + " " + i.get("sk").s()).toList();
        PageRequest labelled = PageRequest.onIndex("issue-labels", List.of(s("PROJECT#small")), "", Order.ASC, 100)
                .withFilter(new Filter.BeginsWith("l"));
        PageRequest active = PageRequest.onIndex("layers-by-package", List.of(s("requests")), "", Order.ASC, 10);

        assertThat(all(prio2)).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(all(labelled)).hasSize(SMALL).doesNotHaveDuplicates();
        assertThat(all(active)).containsExactly("lyr#ap-southeast-1.requests lyrVrsn3#", "lyr#ap-southeast-1.requests lyrVrsn4#",
                "lyr#ap-southeast-1.requests lyrVrsn5#");
    }

    @Test
    void aCursor_ofAnotherGroupOrIndex_isRefused() {
        Page first = query().page(PageRequest.onIndex("issue-fields", List.of(s("PROJECT#big")), "prio", Order.ASC, 10));
        String cursor = first.nextCursor().orElseThrow();

        assertThatThrownBy(() -> query().page(new PageRequest("issue-fields", List.of(s("PROJECT#small")), "prio", Order.ASC, 10,
                null, false, cursor))).isInstanceOf(QueryException.class).hasMessage(CursorSealer.REFUSED);
        assertThatThrownBy(() -> query().page(new PageRequest("issue-labels", List.of(s("PROJECT#big")), "", Order.ASC, 10,
                null, false, cursor))).isInstanceOf(QueryException.class).hasMessage(CursorSealer.REFUSED);
    }

    @Test
    void aRequest_thatDoesNotFitTheIndex_isRefusedWithWhatToGive() {
        assertThatThrownBy(() -> query().page(PageRequest.onIndex("no-such", List.of(), "", Order.ASC, 10)))
                .isInstanceOf(QueryException.class).hasMessageContaining("no index named 'no-such'");
        assertThatThrownBy(() -> query().page(PageRequest.onIndex("issue-fields", List.of(), "prio", Order.ASC, 10)))
                .isInstanceOf(QueryException.class).hasMessageContaining("give 1 group value(s)");
        assertThatThrownBy(() -> query().page(PageRequest.onIndex("issue-fields", List.of(s("PROJECT#big")), "", Order.ASC, 10)))
                .isInstanceOf(QueryException.class).hasMessageContaining("name the entry");
        assertThatThrownBy(() -> query().page(PageRequest.onIndex("layers-by-package", List.of(s("requests")), "", Order.ASC, 10)
                .withMissing())).isInstanceOf(QueryException.class).hasMessageContaining("an index grouped by the table's partition key (pk)");
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }
}
