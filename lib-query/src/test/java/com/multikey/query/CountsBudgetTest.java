package com.multikey.query;

import com.multikey.common.Backoff;
import com.multikey.common.Sleeper;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexProjector;
import com.multikey.index.IndexValue;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.LocalTables;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Counts at the edges of their read budget, and the facet requests the library refuses, naming the parameter. */
class CountsBudgetTest {

    private static final String TABLE = "Things";
    private static final String INDEX_TABLE = "IssueAttribIndexTable";
    private static final IndexDefinitions DEFINITIONS = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: id, type: S}}
            indexes:
              - name: byRank
                group: project
                values: {attribute: rank}
                orderBy: num
            """);
    private static final List<AttributeValue> GROUP = List.of(AttributeValue.fromS("g"));
    private static final int ITEMS = 40;

    private static LocalTables tables;
    private static Counts counts;

    @BeforeAll
    static void load() {
        tables = LocalTables.startQuietly();
        DynamoDbClient dynamoDb = tables.dynamoDb();
        dynamoDb.createTable(b -> b.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH)));
        IndexProjector projector = new IndexProjector(DEFINITIONS);
        List<WriteRequest> indexItems = new ArrayList<>();
        for (int i = 0; i < ITEMS; i++) {
            Map<String, AttributeValue> item = Map.of("id", AttributeValue.fromS("thing#" + i), "project", AttributeValue.fromS("g"),
                    "num", AttributeValue.fromN(Integer.toString(i)), "rank", AttributeValue.fromN(Integer.toString(i)));
            dynamoDb.putItem(b -> b.tableName(TABLE).item(item));
            for (IndexItem indexItem : projector.project(projector.keyOf(item).orElseThrow(), item).items()) {
                indexItems.add(WriteRequest.builder().putRequest(PutRequest.builder().item(indexItem.toItem()).build()).build());
            }
        }
        for (int from = 0; from < indexItems.size(); from += 25) {
            List<WriteRequest> chunk = indexItems.subList(from, Math.min(indexItems.size(), from + 25));
            dynamoDb.batchWriteItem(b -> b.requestItems(Map.of(INDEX_TABLE, chunk)));
        }
        IndexQuery query = new IndexQuery(dynamoDb, TABLE, INDEX_TABLE, DEFINITIONS,
                new Backoff(Duration.ofMillis(1), Duration.ofMillis(5), new Random(1)), Sleeper.SYSTEM, Duration.ofSeconds(60),
                System::nanoTime, GridSettings.NONE);
        counts = new Counts(query, dynamoDb, INDEX_TABLE, DEFINITIONS);
    }

    @AfterAll
    static void stop() {
        if (tables != null) {
            tables.close();
        }
    }

    private static PageRequest byRank() {
        return PageRequest.onIndex("byRank", GROUP, "", Order.ASC, 10);
    }

    @Test
    void total_withoutPredicates_whenTheRangeHoldsExactlyTheBudget_isExact() {
        // when: a budget of exactly the items the index holds for the group, then one less
        Total exact = counts.total(byRank().withReadBudget(ITEMS));
        Total bound = counts.total(byRank().withReadBudget(ITEMS - 1));

        // then
        assertThat(exact.relation()).isEqualTo(Total.Relation.EQ);
        assertThat(exact.value()).isEqualTo(ITEMS);
        assertThat(exact.calls()).isEqualTo(1);
        assertThat(bound.relation()).isEqualTo(Total.Relation.GTE);
        assertThat(bound.value()).isLessThanOrEqualTo(ITEMS);
    }

    @Test
    void total_ofAFilteredRange_countsTheRangeAlone_andAFirstPageThatEndsTheResultIsItsOwnTotal() {
        // when
        PageRequest below = byRank().withFilter(Filter.Range.lessThan(new IndexValue.Num(BigDecimal.valueOf(7))));
        Total total = counts.total(below);
        Page page = counts.pageWithTotal(below);

        // then
        assertThat(total.value()).isEqualTo(7);
        assertThat(total.relation()).isEqualTo(Total.Relation.EQ);
        assertThat(page.items()).hasSize(7);
        assertThat(page.total()).hasValueSatisfying(t -> {
            assertThat(t.value()).isEqualTo(7);
            assertThat(t.calls()).isZero();
        });
    }

    @Test
    void facets_ofAFieldTheIndexDoesNotHold_orTopOutOfBounds_areRefusedNamingTheParameter() {
        assertThatThrownBy(() -> counts.facets(FacetRequest.of("byRank", GROUP, List.of("title"))))
                .isInstanceOfSatisfying(InvalidCountException.class, e -> assertThat(e.parameter()).isEqualTo("field"));
        assertThatThrownBy(() -> FacetRequest.of("byRank", GROUP, List.of("rank")).withTop(0))
                .isInstanceOfSatisfying(InvalidCountException.class, e -> assertThat(e.parameter()).isEqualTo("top"));
        assertThatThrownBy(() -> FacetRequest.of("byRank", GROUP, List.of("rank")).withTop(101))
                .isInstanceOfSatisfying(InvalidCountException.class, e -> assertThat(e.parameter()).isEqualTo("top"));
        assertThatThrownBy(() -> FacetRequest.of("byRank", GROUP, List.of()))
                .isInstanceOfSatisfying(InvalidCountException.class, e -> assertThat(e.parameter()).isEqualTo("field"));
        // the field in its @ spelling is the same field
        Facets facets = counts.facets(FacetRequest.of("byRank", GROUP, List.of("@rank")).withTop(3));
        assertThat(facets.facets().getFirst().values()).hasSize(3);
        assertThat(facets.facets().getFirst().otherValues()).isEqualTo(ITEMS - 3);
        assertThat(facets.facets().getFirst().otherCount()).isEqualTo(ITEMS - 3);
    }
}
