package com.multikey.query;

import com.multikey.common.Backoff;
import com.multikey.common.Sleeper;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexProjector;
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
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Counts over a query whose deployment bounds a page's read budget otherwise than the library's default (the read API's
 * {@code QueryApiReadBudget} and {@code QueryApiMaxReadBudget}): a count's pages read within the deployment's maximum, and
 * a budget a request names is refused above that maximum, not above the default's.
 */
class CountsDeploymentBudgetTest {

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
    private static final int ITEMS = 30;

    private static LocalTables tables;
    private static IndexQuery query;
    private static DynamoDbClient dynamoDb;

    @BeforeAll
    static void load() {
        tables = LocalTables.startQuietly();
        dynamoDb = tables.dynamoDb();
        dynamoDb.createTable(b -> b.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH)));
        IndexProjector projector = new IndexProjector(DEFINITIONS);
        for (int i = 0; i < ITEMS; i++) {
            Map<String, AttributeValue> item = Map.of("id", AttributeValue.fromS("thing#" + i), "project", AttributeValue.fromS("g"),
                    "num", AttributeValue.fromN(Integer.toString(i)), "rank", AttributeValue.fromN(Integer.toString(i)),
                    "colour", AttributeValue.fromS(i % 3 == 0 ? "red" : "blue"));
            dynamoDb.putItem(b -> b.tableName(TABLE).item(item));
            for (IndexItem indexItem : projector.project(projector.keyOf(item).orElseThrow(), item).items()) {
                dynamoDb.putItem(b -> b.tableName(INDEX_TABLE).item(indexItem.toItem()));
            }
        }
        query = new IndexQuery(dynamoDb, TABLE, INDEX_TABLE, DEFINITIONS,
                new Backoff(Duration.ofMillis(1), Duration.ofMillis(5), new Random(1)), Sleeper.SYSTEM, Duration.ofSeconds(60),
                System::nanoTime, GridSettings.NONE);
    }

    @AfterAll
    static void stop() {
        if (tables != null) {
            tables.close();
        }
    }

    private static Counts counts(ReadBudget deployment) {
        return new Counts(query.withReadBudget(deployment), dynamoDb, INDEX_TABLE, DEFINITIONS);
    }

    private static PageRequest redByRank() {
        return PageRequest.onIndex("byRank", GROUP, "", Order.ASC, 4).where(List.of(PredicateText.parse("@colour = red", 0)));
    }

    @Test
    void total_andFacets_namingNoBudget_underADeploymentMaximumBelowTheCountsDefault_countWithinIt() {
        // given: a deployment whose pages read at most 5,000 items, below the counts' default budget (10,000)
        Counts counts = counts(new ReadBudget(2_000, 5_000));

        // when
        Total total = counts.total(redByRank());
        Facets facets = counts.facets(FacetRequest.of("byRank", GROUP, List.of("rank")).where(List.of(PredicateText.parse("@colour = red", 0))));

        // then
        assertThat(total.value()).isEqualTo(ITEMS / 3);
        assertThat(total.relation()).isEqualTo(Total.Relation.EQ);
        assertThat(facets.facets()).singleElement().satisfies(f -> assertThat(f.values()).hasSize(ITEMS / 3));
    }

    @Test
    void total_namingABudget_isBoundByTheDeploymentsMaximum_notTheDefaults() {
        // given
        Counts wide = counts(new ReadBudget(2_000, 50_000));
        Counts narrow = counts(new ReadBudget(2_000, 5_000));

        // then: 30,000 is within a maximum of 50,000; 6,000 is above one of 5,000
        assertThat(wide.total(redByRank().withReadBudget(30_000)).value()).isEqualTo(ITEMS / 3);
        assertThatThrownBy(() -> narrow.total(redByRank().withReadBudget(6_000)))
                .isInstanceOfSatisfying(FilterParameters.InvalidParameterException.class,
                        e -> assertThat(e.kind()).isEqualTo(PageParameters.Parameter.BUDGET));
    }
}
