package com.multikey.dynamodb.conformance;

import com.multikey.dynamodb.DynamoDbEngine;
import com.multikey.dynamodb.server.EngineServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One engine on a free port per test class, driven through the AWS SDK for Java v2 as an application would
 * (no retries, so that every error the engine answers reaches the test). Each test makes its own tables.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class EngineTestSupport {

    private static final AtomicInteger TABLES = new AtomicInteger();

    protected final MutableClock clock = new MutableClock(Instant.parse("2026-11-27T08:00:00Z"));
    protected DynamoDbEngine engine;
    protected EngineServer server;
    protected DynamoDbClient dynamoDb;
    protected DynamoDbStreamsClient streams;

    /** The tables this class made, deleted after it when the suite runs against another endpoint. */
    private final java.util.Set<String> created = RemoteEndpoint.newTableSet();

    @BeforeAll
    void startEngine() {
        java.util.Optional<java.net.URI> remote = RemoteEndpoint.configured();
        if (remote.isPresent()) {
            dynamoDb = RemoteEndpoint.dynamoDb(remote.get(), created);
            streams = RemoteEndpoint.streams(remote.get());
            return;
        }
        engine = new DynamoDbEngine(clock, "us-east-1");
        server = EngineServer.start(engine, 0);
        var credentials = StaticCredentialsProvider.create(AwsBasicCredentials.create("any", "thing"));
        var noRetries = ClientOverrideConfiguration.builder().retryStrategy(RetryMode.STANDARD)
                .retryStrategy(b -> b.maxAttempts(1)).build();
        dynamoDb = DynamoDbClient.builder().endpointOverride(server.endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(credentials).httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(noRetries).build();
        streams = DynamoDbStreamsClient.builder().endpointOverride(server.endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(credentials).httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(noRetries).build();
    }

    @AfterAll
    void stopEngine() {
        if (server == null) {
            RemoteEndpoint.deleteTables(dynamoDb, created);
        }
        dynamoDb.close();
        streams.close();
        if (server != null) {
            server.close();
        }
    }

    protected static String uniqueName(String prefix) {
        return (RemoteEndpoint.configured().isPresent() ? RemoteEndpoint.RUN + "-" : "") + prefix + "-" + TABLES.incrementAndGet();
    }

    /** A table keyed {@code id} (S), on demand, with a NEW_AND_OLD_IMAGES stream. */
    protected String hashTable() {
        String name = uniqueName("hash");
        dynamoDb.createTable(b -> b.tableName(name).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(attribute("id", ScalarAttributeType.S))
                .keySchema(key("id", KeyType.HASH))
                .streamSpecification(StreamSpecification.builder().streamEnabled(true)
                        .streamViewType(StreamViewType.NEW_AND_OLD_IMAGES).build()));
        return name;
    }

    /** A table keyed {@code pk} (S) and {@code sk} (N), with a GSI {@code ByGroup} on {@code grp} (S) and {@code rank} (N). */
    protected String rangeTable() {
        String name = uniqueName("range");
        dynamoDb.createTable(CreateTableRequest.builder().tableName(name).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(attribute("pk", ScalarAttributeType.S), attribute("sk", ScalarAttributeType.N),
                        attribute("grp", ScalarAttributeType.S), attribute("rank", ScalarAttributeType.N))
                .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))
                .globalSecondaryIndexes(g -> g.indexName("ByGroup")
                        .keySchema(key("grp", KeyType.HASH), key("rank", KeyType.RANGE))
                        .projection(p -> p.projectionType("ALL")))
                .build());
        return name;
    }

    protected static AttributeDefinition attribute(String name, ScalarAttributeType type) {
        return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
    }

    protected static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }

    protected static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    protected static AttributeValue n(String value) {
        return AttributeValue.fromN(value);
    }

    protected static <T> List<T> list(Iterable<T> values) {
        List<T> list = new ArrayList<>();
        values.forEach(list::add);
        return list;
    }
}
