package com.multikey.cli;

import com.multikey.common.ClientFactory;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.lambda.LambdaClient;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The user's own table a command reads (any key schema): {@code --table}, on AWS or at {@code --endpoint}. */
final class TableSource {

    @Option(names = "--endpoint", description = "DynamoDB endpoint, e.g. http://localhost:8000 (default: AWS, in AWS_REGION)")
    String endpoint;

    @Option(names = "--lambda-endpoint", description = "Lambda endpoint where the stream's readers (event source mappings) are listed, "
            + "e.g. http://localhost:4011 (default: AWS; with --endpoint alone they are not listed)")
    String lambdaEndpoint;

    List<ClientEnvironment.Endpoint> endpoints() {
        return List.of(new ClientEnvironment.Endpoint("--endpoint", endpoint, List.of("DYNAMODB")));
    }

    DynamoDbClient client(Map<String, String> environment) {
        return new ClientFactory(ClientEnvironment.of(environment, endpoints())).dynamoDb();
    }

    /**
     * The readers of the table's stream, as Lambda lists them (read-only: ListEventSourceMappings); not listed when the
     * table has no stream, or is local ({@code --endpoint}) without {@code --lambda-endpoint}.
     */
    StreamReaders readers(Map<String, String> environment, TableDescription table) {
        String streamArn = table.latestStreamArn();
        boolean enabled = table.streamSpecification() != null && Boolean.TRUE.equals(table.streamSpecification().streamEnabled());
        if (streamArn == null || !enabled) {
            return StreamReaders.notListed(null, "the table has no stream");
        }
        if (endpoint != null && lambdaEndpoint == null) {
            return StreamReaders.notListed(streamArn, "a table at --endpoint: pass --lambda-endpoint to list its readers");
        }
        List<ClientEnvironment.Endpoint> lambda = List.of(new ClientEnvironment.Endpoint("--endpoint", endpoint, List.of()),
                new ClientEnvironment.Endpoint("--lambda-endpoint", lambdaEndpoint, List.of("LAMBDA")));
        ClientFactory clients = new ClientFactory(ClientEnvironment.of(environment, lambda));
        try (LambdaClient client = clients.configure(LambdaClient.builder(), "LAMBDA").httpClient(ClientFactory.httpClient()).build()) {
            return StreamReaders.list(client, streamArn);
        }
    }

    /** Where the table is, and what a "not found" means: the table {@code table} (given by {@code option}) is not there. */
    Failures.Context context(Map<String, String> environment, String option, String table) {
        Map<String, String> given = ClientEnvironment.given(endpoints());
        String region = environment.getOrDefault("AWS_REGION", endpoint != null ? "us-east-1" : null);
        Failures.Context where = new Failures.Context(region, given, e -> Optional.empty());
        return new Failures.Context(region, given, e -> e instanceof ResourceNotFoundException
                ? Optional.of("table " + table + " does not exist " + where.where() + ": pass " + option
                + " with the name of an existing table (aws dynamodb list-tables" + (endpoint == null ? "" : " --endpoint-url " + endpoint) + ")")
                : Optional.empty());
    }

    /** "in AWS region …" or "at <endpoint>", for a file's header. */
    String where(Map<String, String> environment) {
        return context(environment, "", "").where();
    }
}
