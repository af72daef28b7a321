package com.multikey.dynamodb.conformance;

import com.multikey.dynamodb.DynamoDbEngine;
import com.multikey.dynamodb.server.EngineServer;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static com.multikey.dynamodb.conformance.Errors.expect;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server: the wire protocol (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.LowLevelAPI.html),
 * one shared account whatever the credentials, injected faults, and a clean stop.
 */
@EngineOnly("the engine's server itself")
class EngineServerTest extends EngineTestSupport {

    @Test
    void anyCredentialsAndRegion_seeTheSameTables() {
        String table = hashTable();
        try (DynamoDbClient other = DynamoDbClient.builder().endpointOverride(server.endpoint()).region(Region.EU_WEST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("other", "key")))
                .httpClient(UrlConnectionHttpClient.create()).build()) {
            assertThat(other.listTables().tableNames()).contains(table);
        }
    }

    @Test
    void wireProtocol_errorsAsJsonWithType() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(server.endpoint() + "/"))
                .header("X-Amz-Target", "DynamoDB_20120810.GetItem").header("Content-Type", "application/x-amz-json-1.0")
                .POST(HttpRequest.BodyPublishers.ofString("{\"TableName\":\"missing-table\",\"Key\":{\"id\":{\"S\":\"a\"}}}")).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/x-amz-json-1.0");
        assertThat(response.body()).isEqualTo("{\"__type\":\"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException\",\"message\":\"Requested resource not found\"}");
        assertThat(engine.handle("DynamoDB_20120810.Nope", new byte[0]).bodyText()).contains("UnknownOperationException");
        assertThat(engine.handle("DynamoDB_20120810.ListTables", "{".getBytes(StandardCharsets.UTF_8)).bodyText()).contains("SerializationException");
    }

    /**
     * The error type's namespace is DynamoDB's own (as its responses and the open-source dynalite suite show):
     * validation and protocol errors come from the service framework ({@code com.amazon.coral.validate#},
     * {@code com.amazon.coral.service#}, {@code com.amazon.coral.availability#}), the others from DynamoDB's model;
     * the SDKs read the part after '#' alone.
     */
    @Test
    void errorTypes_carryDynamoDbsNamespaces() {
        assertThat(engine.handle("DynamoDB_20120810.GetItem", "{}".getBytes(StandardCharsets.UTF_8)).bodyText())
                .contains("\"__type\":\"com.amazon.coral.validate#ValidationException\"");
        assertThat(engine.handle("DynamoDB_20120810.ListTables", "{".getBytes(StandardCharsets.UTF_8)).bodyText())
                .contains("\"__type\":\"com.amazon.coral.service#SerializationException\"");
        assertThat(engine.handle("DynamoDB_20120810.Nope", new byte[0]).bodyText())
                .contains("\"__type\":\"com.amazon.coral.service#UnknownOperationException\"");
        assertThat(engine.handle("DynamoDB_20120810.DescribeTable", "{\"TableName\":\"missing-table\"}".getBytes(StandardCharsets.UTF_8)).bodyText())
                .contains("\"__type\":\"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException\"");
        engine.faults().throttleNext("ListTables", 1, "ThrottlingException");
        assertThat(engine.handle("DynamoDB_20120810.ListTables", "{}".getBytes(StandardCharsets.UTF_8)).bodyText())
                .contains("\"__type\":\"com.amazon.coral.availability#ThrottlingException\"");
        // the SDK reads the code after '#'
        String table = hashTable();
        Errors.expectValidation(() -> dynamoDb.getItem(b -> b.tableName(table)), "1 validation error detected: Value null at 'key' failed to satisfy constraint: Member must not be null");
    }

    /**
     * DynamoDB reads a whole request into its operation's input before validating it: a member of the wrong JSON
     * type anywhere is a SerializationException, even beside a missing required member or a missing table.
     */
    @Test
    void aMemberOfTheWrongJsonType_isASerializationError_beforeValidationOrTheTableLookup() {
        String table = hashTable();
        String[][] requests = {
                {"GetItem", "{\"TableName\":\"missing-table\",\"Key\":{\"id\":{\"S\":23}}}"},
                {"GetItem", "{\"Key\":{\"id\":{\"S\":\"a\"}},\"ConsistentRead\":23}"},
                {"PutItem", "{\"TableName\":\"missing-table\",\"Item\":{\"id\":{\"L\":[{\"BOOL\":1}]}}}"},
                {"Query", "{\"TableName\":\"" + table + "\",\"Limit\":true}"},
                {"Scan", "{\"TableName\":\"missing-table\",\"ExpressionAttributeNames\":{\"#a\":[]}}"},
                {"CreateTable", "{\"ProvisionedThroughput\":{\"ReadCapacityUnits\":\"5\"}}"},
                {"CreateTable", "{\"TableName\":\"t-wire\",\"KeySchema\":{}}"},
                {"BatchGetItem", "{\"RequestItems\":{\"missing-table\":{\"Keys\":[{\"id\":{\"N\":1}}]}}}"},
                {"BatchWriteItem", "{\"RequestItems\":{\"missing-table\":[{\"PutRequest\":[]}]}}"},
                {"UpdateItem", "{\"TableName\":\"" + table + "\",\"AttributeUpdates\":{\"a\":{\"Value\":\"x\"}}}"},
                {"ListTables", "{\"Limit\":1.5}"},
        };
        for (String[] request : requests) {
            var response = engine.handle("DynamoDB_20120810." + request[0], request[1].getBytes(StandardCharsets.UTF_8));
            assertThat(response.bodyText()).as(request[0] + " " + request[1]).contains("com.amazon.coral.service#SerializationException");
            assertThat(response.status()).isEqualTo(400);
        }
        // a Tag's Key and Value are strings, an item's Key a map
        var tagged = engine.handle("DynamoDB_20120810.CreateTable", ("{\"TableName\":\"" + uniqueName("tagged") + "\",\"BillingMode\":\"PAY_PER_REQUEST\","
                + "\"AttributeDefinitions\":[{\"AttributeName\":\"id\",\"AttributeType\":\"S\"}],\"KeySchema\":[{\"AttributeName\":\"id\",\"KeyType\":\"HASH\"}],"
                + "\"Tags\":[{\"Key\":\"team\",\"Value\":\"search\"}]}").getBytes(StandardCharsets.UTF_8));
        assertThat(tagged.status()).as(tagged.bodyText()).isEqualTo(200);
    }

    /**
     * ExpressionAttributeNames is a map of strings and NonKeyAttributes a list of strings
     * (API_PutItem.html, API_Projection.html): a number or null there is refused as a string member is, not read
     * as the attribute name "5" or "null".
     */
    @Test
    void stringMapsAndLists_refuseValuesThatAreNotStrings() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"), "5", s("x"), "null", s("y"))));
        for (String name : new String[] {"5", "null", "true"}) {
            String body = "{\"TableName\":\"" + table + "\",\"Key\":{\"id\":{\"S\":\"a\"}},\"ConditionExpression\":\"attribute_exists(#n)\","
                    + "\"ExpressionAttributeNames\":{\"#n\":" + name + "}}";
            var response = engine.handle("DynamoDB_20120810.DeleteItem", body.getBytes(StandardCharsets.UTF_8));
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.bodyText()).contains("SerializationException");
        }
        String create = "{\"TableName\":\"" + uniqueName("nonkey") + "\",\"BillingMode\":\"PAY_PER_REQUEST\","
                + "\"AttributeDefinitions\":[{\"AttributeName\":\"id\",\"AttributeType\":\"S\"},{\"AttributeName\":\"g\",\"AttributeType\":\"S\"}],"
                + "\"KeySchema\":[{\"AttributeName\":\"id\",\"KeyType\":\"HASH\"}],\"GlobalSecondaryIndexes\":[{\"IndexName\":\"ByG\","
                + "\"KeySchema\":[{\"AttributeName\":\"g\",\"KeyType\":\"HASH\"}],\"Projection\":{\"ProjectionType\":\"INCLUDE\",\"NonKeyAttributes\":[7]}}]}";
        assertThat(engine.handle("DynamoDB_20120810.CreateTable", create.getBytes(StandardCharsets.UTF_8)).bodyText()).contains("SerializationException");
        assertThat(dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("a")))).item()).containsKeys("5", "null");
    }

    @Test
    void requestOver16MB_refusedWith413() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String big = "{\"TableName\":\"t\",\"x\":\"" + "a".repeat(16 * 1024 * 1024) + "\"}";

        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(server.endpoint() + "/"))
                .header("X-Amz-Target", "DynamoDB_20120810.ListTables").POST(HttpRequest.BodyPublishers.ofString(big)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));

        assertThat(response.statusCode()).isEqualTo(413);
    }

    @Test
    void faults_throttleNextCallsOfAnOperation() {
        String table = hashTable();
        engine.faults().throttleNext("PutItem", 1);

        expect(() -> dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a")))),
                ProvisionedThroughputExceededException.class, "The level of configured provisioned throughput for the table was exceeded");
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"))));
        engine.faults().throttleNext("GetItem", 1, "ThrottlingException");
        expect(() -> dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("a")))),
                software.amazon.awssdk.services.dynamodb.model.DynamoDbException.class, "Rate of requests exceeds the allowed throughput");
    }

    @Test
    void close_leavesNoThreadOfItsOwn() throws Exception {
        Set<Thread> before = engineThreads();
        EngineServer other = EngineServer.start(new DynamoDbEngine().startTimeToLiveSweeper(Duration.ofMillis(50)), 0);
        try (DynamoDbClient client = DynamoDbClient.builder().endpointOverride(other.endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                .httpClient(UrlConnectionHttpClient.create()).build()) {
            client.listTables();
        }
        assertThat(engineThreads()).hasSizeGreaterThan(before.size());

        other.close();

        assertThat(engineThreads()).isSubsetOf(before);
    }

    private static Set<Thread> engineThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && (t.getName().startsWith("dynamodb-engine-") || t.getName().equals("HTTP-Dispatcher")))
                .collect(Collectors.toSet());
    }
}
