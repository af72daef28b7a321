package com.multikey.queryapi;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.emulator.functions.LocalContext;
import com.multikey.emulator.services.secrets.LocalSecretsManager;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateEnvironment;
import com.multikey.emulator.template.TemplateSecrets;
import com.multikey.index.GridLayoutStore;
import com.multikey.index.IndexProjector;
import com.multikey.index.ItemKey;
import com.multikey.index.definition.GridState;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.Fixtures;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import com.multikey.testkit.OpenApiResponses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real handler over a stack in each grid layout state, the index items of the layouts that state writes in the local
 * DynamoDB engine and the state recorded as the stack records it: a page names the index it was read from, and
 * {@code GET /v1/indexes} lists the indexes a client can read in that state. Every answer is checked against the OpenAPI
 * document.
 */
@ExtendWith(LocalTablesExtension.class)
class QueryApiGridLayoutStateTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final IndexDefinitions DEFINITIONS = IndexDefinitions.packaged();
    private static final OpenApiResponses OPENAPI = OpenApiResponses.of(QueryApi.openApiDocument());

    private LocalTables tables;
    private LocalSecretsManager secrets;
    private Path secretsDirectory;

    @BeforeEach
    void start(LocalTables tables, @TempDir Path secretsDirectory) {
        this.tables = tables;
        this.secretsDirectory = secretsDirectory;
        this.secrets = LocalSecretsManager.start();
    }

    @AfterEach
    void stop() {
        secrets.close();
    }

    /** The grid sample, indexed in the layouts the state writes, the state recorded in the index table. */
    private QueryApiHandler stackIn(GridState state) {
        DynamoDbClient dynamoDb = tables.dynamoDb();
        IndexDefinitions current = DEFINITIONS.withGridState(state);
        Fixtures.grid().projects().forEach(item -> dynamoDb.putItem(b -> b.tableName(tables.name("AppTable")).item(item)));
        for (Map<String, AttributeValue> issue : Fixtures.grid().issues()) {
            dynamoDb.putItem(b -> b.tableName(tables.name("AppTable")).item(issue));
            List<WriteRequest> puts = new IndexProjector(current).project(ItemKey.ofString("id", issue.get("id").s()), issue).items().stream()
                    .map(indexItem -> WriteRequest.builder().putRequest(PutRequest.builder().item(indexItem.toItem()).build()).build()).toList();
            for (int from = 0; from < puts.size(); from += 25) {
                List<WriteRequest> batch = puts.subList(from, Math.min(puts.size(), from + 25));
                dynamoDb.batchWriteItem(b -> b.requestItems(Map.of(tables.name("IssueAttribIndexTable"), batch)));
            }
        }
        // the state found out as a function finds it out (and records it), then moved on as migrate-grid moves it
        GridLayoutStore store = new GridLayoutStore(dynamoDb, tables.name("IssueAttribIndexTable"), DEFINITIONS, true,
                java.time.Duration.ZERO, System::nanoTime);
        GridLayoutStore.Control found = store.control();
        if (found.state() != state) {
            assertThat(store.transition(found, new GridLayoutStore.Control(state, true, false))).isTrue();
        }
        SamTemplate template = tables.template();
        Map<String, String> names = new HashMap<>(tables.names());
        TemplateSecrets.create(template, secretsDirectory).forEach((id, file) -> {
            names.put(id, id);
            secrets.put(id, file);
        });
        Map<String, String> env = new HashMap<>(TemplateEnvironment.forLocalRun(template, "QueryFunction", names,
                Map.of("DYNAMODB", tables.local().endpoint(), "SECRETS_MANAGER", secrets.endpoint())));
        return new QueryApiHandler(env);
    }

    private static JsonNode get(QueryApiHandler handler, String path, String query) {
        APIGatewayV2HTTPEvent.RequestContext.Http http = new APIGatewayV2HTTPEvent.RequestContext.Http();
        http.setMethod("GET");
        APIGatewayV2HTTPEvent.RequestContext context = new APIGatewayV2HTTPEvent.RequestContext();
        context.setHttp(http);
        APIGatewayV2HTTPResponse response = handler.handleRequest(APIGatewayV2HTTPEvent.builder().withRawPath(path).withRawQueryString(query)
                .withRequestContext(context).build(), LocalContext.of("QueryFunction"));
        OPENAPI.check("GET", path, response.getStatusCode(), response.getHeaders(), response.getBody());
        assertThat(response.getStatusCode()).as(response.getBody()).isEqualTo(200);
        try {
            return JSON.readTree(response.getBody());
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + response.getBody(), e);
        }
    }

    private static List<String> ids(JsonNode page) {
        List<String> ids = new ArrayList<>();
        page.get("items").forEach(item -> ids.add(item.at("/key/id").asText()));
        return ids;
    }

    private static List<String> names(JsonNode indexes) {
        List<String> names = new ArrayList<>();
        indexes.get("indexes").forEach(index -> names.add(index.get("name").asText()));
        return names;
    }

    @Test
    void grouped_aGridPage_namesTheGroupedIndex_whicheverNameTheRequestGave() {
        QueryApiHandler api = stackIn(GridState.GROUPED);

        JsonNode grid = get(api, "/v1/grid", "project=project%2335e9&field=3812");
        JsonNode byOldName = get(api, "/v1/indexes/custom_fields/items", "group=project%2335e9&entry=3812");
        JsonNode byNewName = get(api, "/v1/indexes/issue-grid/items", "group=project%2335e9&entry=3812");

        assertThat(ids(grid)).isNotEmpty().isEqualTo(ids(byOldName)).isEqualTo(ids(byNewName));
        assertThat(grid.get("index").asText()).isEqualTo("issue-grid");
        assertThat(byOldName.get("index").asText()).isEqualTo("issue-grid");
        assertThat(byNewName.get("index").asText()).isEqualTo("issue-grid");
    }

    @Test
    void grouped_theIndexes_listTheGroupedGrid_withItsLayoutGroupAndOtherName() {
        JsonNode indexes = get(stackIn(GridState.GROUPED), "/v1/indexes", null);

        assertThat(indexes.get("gridLayoutState").asText()).isEqualTo("grouped");
        assertThat(names(indexes)).containsExactly("issue-grid");
        JsonNode grid = indexes.at("/indexes/0");
        assertThat(grid.get("layout").asText()).isEqualTo("grouped");
        assertThat(grid.get("group").toString()).isEqualTo("[\"project\"]");
        assertThat(grid.get("grid").asBoolean()).isTrue();
        assertThat(grid.get("aliases").toString()).isEqualTo("[\"custom_fields\"]");
    }

    @Test
    void fieldPartitioned_aGridPage_namesTheFieldPartitionedIndex_andTheIndexesListIt() {
        QueryApiHandler api = stackIn(GridState.FIELD_PARTITIONED);

        JsonNode byNewName = get(api, "/v1/indexes/issue-grid/items", "group=project%2335e9&entry=3812");
        JsonNode indexes = get(api, "/v1/indexes", null);

        assertThat(ids(byNewName)).isNotEmpty();
        assertThat(byNewName.get("index").asText()).isEqualTo("custom_fields");
        assertThat(get(api, "/v1/grid", "project=project%2335e9&field=3812").get("index").asText()).isEqualTo("custom_fields");
        assertThat(indexes.get("gridLayoutState").asText()).isEqualTo("field-partitioned");
        assertThat(names(indexes)).containsExactly("custom_fields");
        assertThat(indexes.at("/indexes/0/layout").asText()).isEqualTo("field-partitioned");
        assertThat(indexes.at("/indexes/0/aliases").toString()).isEqualTo("[\"issue-grid\"]");
    }

    @Test
    void switched_bothLayoutsWritten_theGridIsListedOnce_asTheGroupedLayoutItsReadersRead() {
        QueryApiHandler api = stackIn(GridState.SWITCHED);

        JsonNode indexes = get(api, "/v1/indexes", null);

        assertThat(indexes.get("gridLayoutState").asText()).isEqualTo("switched");
        assertThat(names(indexes)).containsExactly("issue-grid");
        assertThat(get(api, "/v1/grid", "project=project%2335e9&field=3812").get("index").asText()).isEqualTo("issue-grid");
    }
}
