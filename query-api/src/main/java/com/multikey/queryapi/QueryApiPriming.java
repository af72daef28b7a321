package com.multikey.queryapi;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.multikey.common.ClientFactory;
import com.multikey.common.SnapStartPriming;
import com.multikey.common.StructuredLog;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.IndexProjector;
import com.multikey.index.ItemKey;
import com.multikey.index.KeyOrder;
import com.multikey.index.definition.GridState;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.index.definition.KeySchema;
import com.multikey.query.CursorKeys;
import com.multikey.query.CursorSealer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The query function's SnapStart runtime hook (docs/decisions/0018): before Lambda snapshots the initialised function, it
 * runs what the first requests would otherwise pay for — the DynamoDB client built through {@link ClientFactory} (and
 * closed, never called), then the real handler on sample requests (a grid page and the next one by its cursor, the
 * missing tail, a filter, the index list, the OpenAPI document, a refused parameter): reading the event, the query
 * library's reads, projection and cursors, the JSON response, the log line. The reads go to an in-memory stand-in
 * holding sample items of the grid, the log line to a sink. No credentials are resolved and nothing unique is kept, so
 * {@link #afterRestore} has nothing to renew.
 */
public final class QueryApiPriming extends SnapStartPriming<List<Integer>> {

    /** The sample items' project and field. */
    static final String PROJECT = "project#priming";
    static final String FIELD = "priming";

    QueryApiPriming(Map<String, String> environment) {
        super(environment);
    }

    /** Registers a priming hook with the global CRaC context (Lambda's, under SnapStart; a no-op elsewhere). */
    static QueryApiPriming register(Map<String, String> environment) {
        return SnapStartPriming.register(new QueryApiPriming(environment));
    }

    /**
     * Answers the sample requests with the real handler over the in-memory stand-in.
     *
     * @return the status of each answer (200s and the one 400: the whole path ran)
     */
    @Override
    public List<Integer> prime() {
        try (DynamoDbClient dynamoDb = new ClientFactory(environment).dynamoDb()) {
            // built as the handler builds it and closed, never called: loads the client's classes and endpoint rules
            dynamoDb.serviceName();
        }
        IndexDefinitions definitions = IndexDefinitions.fromEnvironment(environment);
        // cursors sealed under a key made for priming alone: the snapshot holds no key of the stack's, and nothing is read
        QueryApiHandler handler = new QueryApiHandler(environment, new StructuredLog(QueryApiHandler.class.getSimpleName(), SINK,
                Clock.systemUTC()), new SampleDynamoDb(definitions, environment.getOrDefault("INDEX_TABLE_NAME", "")),
                CursorSealer.of(CursorKeys.ephemeral()));
        List<Integer> statuses = new ArrayList<>();
        boolean grid = definitions.indexes().stream().anyMatch(index -> index.layout() == IndexDefinition.Layout.FIELD_PARTITIONED)
                && SampleDynamoDb.keyedAsSample(definitions);
        if (grid) {
            String first = "field=" + FIELD + "&pageSize=2&project=project%23priming";
            APIGatewayV2HTTPResponse page = handler.handleRequest(event("/v1/grid", first), null);
            statuses.add(page.getStatusCode());
            String cursor = page.getBody().replaceFirst("(?s).*\"nextCursor\":\"([^\"]+)\".*", "$1");
            statuses.add(handler.handleRequest(event("/v1/grid", first + "&cursor=" + cursor), null).getStatusCode());
            statuses.add(handler.handleRequest(event("/v1/grid", "field=" + FIELD + "&missing=true&order=desc&project=project%23priming"),
                    null).getStatusCode());
            statuses.add(handler.handleRequest(event("/v1/grid", "field=" + FIELD + "&ge=1&project=project%23priming&type=number"),
                    null).getStatusCode());
            // the planner: predicates parsed, a plan chosen and explained
            statuses.add(handler.handleRequest(event("/v1/grid", "explain=true&field=" + FIELD + "&project=project%23priming&where="
                    + FIELD + "%20present&where=%40num%20%3E%3D%201"), null).getStatusCode());
        }
        statuses.add(handler.handleRequest(event("/v1/indexes", ""), null).getStatusCode());
        statuses.add(handler.handleRequest(event("/openapi.json", ""), null).getStatusCode());
        statuses.add(handler.handleRequest(event("/v1/grid", "pageSize=0"), null).getStatusCode());
        return statuses;
    }

    /** A payload format 2.0 event of a GET, as API Gateway sends it (IAM-authorized). */
    private static APIGatewayV2HTTPEvent event(String path, String query) {
        APIGatewayV2HTTPEvent.RequestContext.Http http = new APIGatewayV2HTTPEvent.RequestContext.Http();
        http.setMethod("GET");
        http.setPath(path);
        APIGatewayV2HTTPEvent.RequestContext context = new APIGatewayV2HTTPEvent.RequestContext();
        context.setHttp(http);
        return APIGatewayV2HTTPEvent.builder().withVersion("2.0").withRawPath(path).withRawQueryString(query)
                .withRequestContext(context).build();
    }

    /**
     * The reads the query library makes, answered from sample items of {@link #PROJECT} (a number, a text and a list in
     * field {@link #FIELD}, one item without it) and their index items as the indexer projects them: Query on
     * the index table by partition, in either order, up to its Limit; BatchGetItem by key; every other Query (the
     * missing tail's) answers the sample items; GetItem (the project's item, the grid layout's control item) answers none; Scan
     * (the grid layout's look for the original layout) finds nothing.
     */
    static final class SampleDynamoDb implements DynamoDbClient {

        private final String indexTable;
        private final List<Map<String, AttributeValue>> sampleItems = new ArrayList<>();
        private final List<Map<String, AttributeValue>> indexItems = new ArrayList<>();

        SampleDynamoDb(IndexDefinitions definitions, String indexTable) {
            this.indexTable = indexTable;
            if (!keyedAsSample(definitions)) {
                return;
            }
            sampleItems.add(sampleItem(1, AttributeValue.fromN("3")));
            sampleItems.add(sampleItem(2, AttributeValue.fromS("text")));
            sampleItems.add(sampleItem(3, AttributeValue.fromL(List.of(AttributeValue.fromN("1"), AttributeValue.fromBool(true)))));
            sampleItems.add(sampleItem(4, null));
            // the index items of both of the grid's layouts, so the grid is primed in whichever layout it reads
            IndexProjector projector = new IndexProjector(definitions.withGridState(GridState.MIGRATING));
            for (Map<String, AttributeValue> item : sampleItems) {
                projector.project(ItemKey.ofString("id", item.get("id").s()), item).items().stream().map(IndexItem::toItem)
                        .forEach(indexItems::add);
            }
        }

        /** Whether the definitions' table is keyed as the grid's sample items are: a string {@code id} alone. */
        static boolean keyedAsSample(IndexDefinitions definitions) {
            KeySchema table = definitions.table();
            return table.sortKey().isEmpty() && table.partitionKey().name().equals("id") && table.partitionKey().type() == KeySchema.KeyType.S;
        }

        /** A sample item of the grid, its key as the packaged definitions cover it. */
        private static Map<String, AttributeValue> sampleItem(int num, AttributeValue value) {
            return Map.of("id", AttributeValue.fromS("issue#priming" + num), "project", AttributeValue.fromS(PROJECT),
                    "num", AttributeValue.fromN(Integer.toString(num)),
                    "custom_fields", AttributeValue.fromM(value == null ? Map.of() : Map.of(FIELD, value)));
        }

        @Override
        public QueryResponse query(QueryRequest request) {
            if (!request.tableName().equals(indexTable) || request.indexName() != null) {
                return QueryResponse.builder().items(sampleItems).count(sampleItems.size()).scannedCount(sampleItems.size()).build();
            }
            String partition = request.expressionAttributeValues().get(":a").s();
            Comparator<Map<String, AttributeValue>> order = Comparator.comparing(item -> item.get(IndexKey.SORT_KEY).s(), KeyOrder.UTF8);
            List<Map<String, AttributeValue>> items = indexItems.stream()
                    .filter(item -> item.get(IndexKey.ATTRIB_ID).s().equals(partition))
                    .sorted(Boolean.FALSE.equals(request.scanIndexForward()) ? order.reversed() : order)
                    .limit(request.limit() == null ? Long.MAX_VALUE : request.limit())
                    .toList();
            return QueryResponse.builder().items(items).count(items.size()).scannedCount(items.size()).build();
        }

        @Override
        public BatchGetItemResponse batchGetItem(BatchGetItemRequest request) {
            Map<String, List<Map<String, AttributeValue>>> responses = new java.util.HashMap<>();
            request.requestItems().forEach((table, keys) -> responses.put(table, sampleItems.stream()
                    .filter(item -> keys.keys().stream().anyMatch(key -> key.get("id").equals(item.get("id")))).toList()));
            return BatchGetItemResponse.builder().responses(responses).build();
        }

        @Override
        public GetItemResponse getItem(GetItemRequest request) {
            return GetItemResponse.builder().build();
        }

        /** The grid layout's one-time look for items of the original layout: none, as on a new stack. */
        @Override
        public ScanResponse scan(ScanRequest request) {
            return ScanResponse.builder().items(List.of()).count(0).scannedCount(0).build();
        }

        @Override
        public String serviceName() {
            return SERVICE_NAME;
        }

        @Override
        public void close() {
        }
    }
}
