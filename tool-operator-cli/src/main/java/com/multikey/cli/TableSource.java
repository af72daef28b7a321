package com.multikey.cli;

import com.multikey.common.ClientFactory;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The user's own table a command reads (any key schema): {@code --table}, on AWS or at {@code --endpoint}. */
final class TableSource {

    @Option(names = "--endpoint", description = "DynamoDB endpoint, e.g. http://localhost:8000 (default: AWS, in AWS_REGION)")
    String endpoint;

    List<ClientEnvironment.Endpoint> endpoints() {
        return List.of(new ClientEnvironment.Endpoint("--endpoint", endpoint, List.of("DYNAMODB")));
    }

    DynamoDbClient client(Map<String, String> environment) {
        return new ClientFactory(ClientEnvironment.of(environment, endpoints())).dynamoDb();
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
