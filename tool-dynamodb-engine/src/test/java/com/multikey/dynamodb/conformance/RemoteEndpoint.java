package com.multikey.dynamodb.conformance;

import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.CreateTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DeleteTableResponse;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableResponse;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The conformance suite against another endpoint than the in-process engine, e.g. DynamoDB itself:
 * {@code -Dconformance.endpoint=https://dynamodb.eu-west-1.amazonaws.com} (the region is read from the host, or
 * {@code -Dconformance.region}), with the caller's credentials (the SDK's default chain). Its tables are named
 * {@code conformance-<run>-...}; the client waits after CreateTable and UpdateTable until the table and its indexes
 * are ACTIVE and after DeleteTable until the table is gone (the engine is at once, DynamoDB takes seconds), so the
 * tests run unchanged; each class deletes the tables it made that are left.
 */
final class RemoteEndpoint {

    static final String PROPERTY = "conformance.endpoint";
    /** A prefix of this run's tables, so that they are told apart from the account's own. */
    static final String RUN = "conformance-" + UUID.randomUUID().toString().substring(0, 8);

    private static final Pattern AWS_HOST = Pattern.compile("dynamodb\\.([a-z0-9-]+)\\.amazonaws\\.com(\\.cn)?");
    private static final Duration WAIT = Duration.ofMinutes(10);

    private RemoteEndpoint() {
    }

    /** The endpoint the suite runs against, when one is set. */
    static Optional<URI> configured() {
        String endpoint = System.getProperty(PROPERTY, "").trim();
        return endpoint.isEmpty() ? Optional.empty() : Optional.of(URI.create(endpoint));
    }

    static Region region(URI endpoint) {
        String region = System.getProperty("conformance.region", "").trim();
        if (!region.isEmpty()) {
            return Region.of(region);
        }
        Matcher aws = AWS_HOST.matcher(endpoint.getHost());
        return aws.matches() ? Region.of(aws.group(1)) : Region.US_EAST_1;
    }

    /** A client of the endpoint that waits for tables to settle, and records the tables it made in {@code created}. */
    static DynamoDbClient dynamoDb(URI endpoint, Set<String> created) {
        DynamoDbClient client = DynamoDbClient.builder().endpointOverride(endpoint).region(region(endpoint))
                .credentialsProvider(DefaultCredentialsProvider.builder().build()).httpClient(UrlConnectionHttpClient.create()).build();
        return (DynamoDbClient) Proxy.newProxyInstance(RemoteEndpoint.class.getClassLoader(), new Class<?>[] {DynamoDbClient.class},
                (proxy, method, args) -> {
                    Object result;
                    try {
                        result = method.invoke(client, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (result instanceof CreateTableResponse created1) {
                        created.add(created1.tableDescription().tableName());
                        awaitActive(client, created1.tableDescription().tableName());
                    } else if (result instanceof UpdateTableResponse updated) {
                        awaitActive(client, updated.tableDescription().tableName());
                    } else if (result instanceof DeleteTableResponse deleted) {
                        awaitGone(client, deleted.tableDescription().tableName());
                    }
                    return result;
                });
    }

    /** DynamoDB Streams of the same region: AWS's own streams endpoint for DynamoDB's, else the same endpoint. */
    static DynamoDbStreamsClient streams(URI endpoint) {
        var builder = DynamoDbStreamsClient.builder().region(region(endpoint))
                .credentialsProvider(DefaultCredentialsProvider.builder().build()).httpClient(UrlConnectionHttpClient.create());
        if (!AWS_HOST.matcher(endpoint.getHost()).matches()) {
            builder.endpointOverride(endpoint);
        }
        return builder.build();
    }

    /** Deletes the tables a class made that are still there. */
    static void deleteTables(DynamoDbClient dynamoDb, Set<String> created) {
        for (String table : created) {
            try {
                dynamoDb.deleteTable(b -> b.tableName(table));
            } catch (ResourceNotFoundException gone) {
                // deleted by its test
            }
        }
        created.clear();
    }

    static Set<String> newTableSet() {
        return ConcurrentHashMap.newKeySet();
    }

    private static void awaitActive(DynamoDbClient client, String table) throws InterruptedException {
        Instant deadline = Instant.now().plus(WAIT);
        while (Instant.now().isBefore(deadline)) {
            TableDescription description = client.describeTable(b -> b.tableName(table)).table();
            boolean indexesActive = !description.hasGlobalSecondaryIndexes() || description.globalSecondaryIndexes().stream()
                    .map(GlobalSecondaryIndexDescription::indexStatus).allMatch(IndexStatus.ACTIVE::equals);
            if (description.tableStatus() == TableStatus.ACTIVE && indexesActive) {
                return;
            }
            Thread.sleep(1_000);
        }
        throw new IllegalStateException(table + " is not ACTIVE after " + WAIT);
    }

    private static void awaitGone(DynamoDbClient client, String table) throws InterruptedException {
        Instant deadline = Instant.now().plus(WAIT);
        while (Instant.now().isBefore(deadline)) {
            try {
                client.describeTable(b -> b.tableName(table));
            } catch (ResourceNotFoundException gone) {
                return;
            }
            Thread.sleep(1_000);
        }
        throw new IllegalStateException(table + " is still there after " + WAIT);
    }
}
