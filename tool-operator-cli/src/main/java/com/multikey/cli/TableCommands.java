package com.multikey.cli;

import com.multikey.clikit.Output;
import com.multikey.common.ClientFactory;
import com.multikey.index.GridLayoutStore;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.reindex.IndexScope;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the commands on the tables of a running stack share ({@link QueryCommand}, {@link BackfillCommand},
 * {@link VerifyCommand}, {@link RemoveIndexCommand}): the tables' options ({@link Tables}), the options of the commands
 * that scan them ({@link ScanOptions}) and their exit codes. They talk to {@code --endpoint} (a local stack from
 * {@code start}) or, without it, to DynamoDB in the account and region of the usual AWS environment (credentials,
 * {@code AWS_REGION}) — pass the deployed stack's table names then.
 */
final class TableCommands {

    static final String BAD_USAGE = OperatorCli.BAD_USAGE;
    static final String SERVICE_FAILED = OperatorCli.SERVICE_FAILED;

    private TableCommands() {
    }

    /** A table a command uses: the option that names it and the stack output that holds its name on AWS. */
    record TableRef(String option, String name, String stackOutput) {
    }

    /** Where the tables are. */
    static final class Tables {
        @Option(names = "--endpoint", description = "DynamoDB endpoint, e.g. http://localhost:8000 (default: AWS, in AWS_REGION)")
        String endpoint;

        @Option(names = "--app-table", defaultValue = "AppTable", description = "app table name: on AWS the stack output AppTableName "
                + "(default ${DEFAULT-VALUE}, as the local stack names it)")
        String appTable;

        @Option(names = "--index-table", defaultValue = "IssueAttribIndexTable", description = "index table name: on AWS the stack "
                + "output IndexTableName (default ${DEFAULT-VALUE}, as the local stack names it)")
        String indexTable;

        @Option(names = "--definitions", description = "index definitions file (default: $INDEX_DEFINITIONS, else the packaged "
                + "index-definitions.yaml)")
        Path definitions;

        List<ClientEnvironment.Endpoint> endpoints() {
            return List.of(new ClientEnvironment.Endpoint("--endpoint", endpoint, List.of("DYNAMODB")));
        }

        DynamoDbClient client(Map<String, String> environment) {
            return new ClientFactory(ClientEnvironment.of(environment, endpoints())).dynamoDb();
        }

        IndexDefinitions definitions(Map<String, String> environment) {
            return definitions != null ? DefinitionsYaml.read(definitions) : IndexDefinitions.fromEnvironment(environment);
        }

        /** Every declared index, or the one named (checked without reading the tables). */
        IndexScope scope(Map<String, String> environment, String index) {
            return IndexScope.of(definitions(environment), Optional.ofNullable(index));
        }

        /** Every index the stack keeps in its recorded grid layout state (the grid's layout), or the one named. */
        IndexScope scope(Map<String, String> environment, String index, DynamoDbClient client) {
            return IndexScope.of(current(environment, client), Optional.ofNullable(index));
        }

        /** The definitions in the stack's recorded grid layout state (recorded now when the stack never did). */
        IndexDefinitions current(Map<String, String> environment, DynamoDbClient client) {
            return new GridLayoutStore(client, indexTable, definitions(environment), true, Duration.ZERO, System::nanoTime).current();
        }

        List<TableRef> tables() {
            return List.of(new TableRef("--app-table", appTable, "AppTableName"), new TableRef("--index-table", indexTable, "IndexTableName"));
        }

        /** Where these tables are, and which of {@code tables} a "not found" means (found out by describing each). */
        Failures.Context context(Map<String, String> environment, List<TableRef> tables) {
            Map<String, String> given = ClientEnvironment.given(endpoints());
            String region = environment.getOrDefault("AWS_REGION", endpoint != null ? "us-east-1" : null);
            return new Failures.Context(region, given, e -> e instanceof ResourceNotFoundException ? missing(environment, tables, given, region)
                    : Optional.empty());
        }

        private Optional<String> missing(Map<String, String> environment, List<TableRef> tables, Map<String, String> given, String region) {
            Failures.Context context = new Failures.Context(region, given, e -> Optional.empty());
            try (DynamoDbClient client = client(environment)) {
                for (TableRef table : tables) {
                    try {
                        client.describeTable(b -> b.tableName(table.name()));
                    } catch (ResourceNotFoundException notThere) {
                        return Optional.of("table " + table.name() + " does not exist " + context.where() + ": " + (endpoint != null
                                ? "start the local stack (" + Failures.START_LOCAL + "), which creates the template's tables, or pass "
                                + table.option() + " <name>"
                                : "pass " + table.option() + " with the stack output " + table.stackOutput() + " (" + Failures.STACK_OUTPUTS + ")"));
                    }
                }
            } catch (RuntimeException cannotTell) {
                return Optional.empty();
            }
            return Optional.empty();
        }
    }

    /**
     * The options the commands that scan the tables share ({@link BackfillCommand}, {@link VerifyCommand},
     * {@link RemoveIndexCommand}): where the tables are, {@code --output}, the scan segments in this process, and the
     * options of a job of the stack's reindex worker function.
     */
    static final class ScanOptions {
        @Mixin
        Tables tables = new Tables();

        @Mixin
        Output output = new Output();

        @Option(names = "--segments", defaultValue = "4", description = "parallel scan segments (default ${DEFAULT-VALUE})")
        int segments;

        @ArgGroup(exclusive = false, heading = "On AWS, by the stack's reindex worker function:%n")
        WorkerJobs.Options aws = new WorkerJobs.Options();

        /** Where the command talks to: its tables, and on AWS the worker function and its jobs table. */
        Failures.Context context(Map<String, String> environment) {
            return aws.context(environment, tables);
        }
    }

    /** The item count DynamoDB last reported (it lags by hours: a progress estimate only). */
    static long itemCount(DynamoDbClient client, String table) {
        Long count = client.describeTable(b -> b.tableName(table)).table().itemCount();
        return count == null ? 0 : count;
    }

}
