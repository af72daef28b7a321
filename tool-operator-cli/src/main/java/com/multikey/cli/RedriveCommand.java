package com.multikey.cli;

import com.multikey.clikit.Failure;
import com.multikey.clikit.Output;
import com.multikey.redrive.QueueKind;
import com.multikey.redrive.Redrive;
import com.multikey.redrive.Redrives;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;

import java.io.PrintStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code redrive --queue indexer|router|delete-layer [--dry-run] [--max-messages n] [--drop-gone]}: works
 * through a failure queue as the deployed redrive function does, from the operator's machine. Against a
 * deployed stack pass the queue URL and function names from the stack's outputs; against a local stack
 * ({@code local.jar start}) pass the endpoints.
 */
@Command(name = "redrive", mixinStandardHelpOptions = true,
        description = "Acts on a failure queue: repairs the index of the items a failed indexer batch names, "
                + "re-sends a failed router batch's events, or re-invokes delete-layer with a dead-lettered event; deletes a message only "
                + "after its work succeeded.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every message handled was redriven (with --dry-run: would be), or the queue was empty",
                "1:a message was not redriven (failed, unreadable, or its range is gone from the stream); it stays in the queue "
                        + "unless --drop-gone dropped it", OperatorCli.BAD_USAGE, OperatorCli.SERVICE_FAILED})
final class RedriveCommand implements Callable<Integer>, Failures.Located {

    @CommandLine.ParentCommand
    OperatorCli parent;

    @CommandLine.Mixin
    Output output = new Output();

    @Option(names = "--queue", required = true, paramLabel = "indexer|router|delete-layer", description = "the failure queue to work on")
    String queue;

    @Option(names = "--dry-run", description = "write, invoke and delete nothing; print what would be done")
    boolean dryRun;

    @Option(names = "--max-messages", defaultValue = "100", description = "the most messages to handle (default ${DEFAULT-VALUE})")
    int maxMessages;

    @Option(names = "--drop-gone", description = "delete messages whose records are gone from the stream, after reporting them")
    boolean dropGone;

    @Option(names = "--queue-url", description = "the queue's URL: the stack output StreamIndexerFailureQueueUrl, "
            + "RouterFailureQueueUrl or DeleteLayerDeadLetterQueueUrl, or its name (default: the template's queue, as the local stack "
            + "names it)")
    String queueUrl;

    @Option(names = "--endpoint", description = "DynamoDB and DynamoDB Streams endpoint, e.g. http://localhost:8000 (default: AWS)")
    String endpoint;

    @Option(names = "--sqs-endpoint", description = "SQS endpoint, e.g. http://localhost:4012 (default: AWS)")
    String sqsEndpoint;

    @Option(names = "--lambda-endpoint", description = "Lambda endpoint, e.g. http://localhost:4011 (default: AWS)")
    String lambdaEndpoint;

    @Option(names = "--kinesis-endpoint", description = "Kinesis endpoint, where messages of StreamSource kinesis (KinesisBatchInfo) are"
            + " read back: a local stack's, as 'local.jar start --stream-source kinesis' prints it (default: AWS)")
    String kinesisEndpoint;

    @Option(names = "--app-table", defaultValue = "AppTable", description = "app table name: on AWS the stack output AppTableName "
            + "(default ${DEFAULT-VALUE})")
    String appTable;

    @Option(names = "--index-table", defaultValue = "IssueAttribIndexTable", description = "index table name: on AWS the stack output "
            + "IndexTableName (default ${DEFAULT-VALUE})")
    String indexTable;

    @Option(names = "--router-function", defaultValue = "RouterFunction", description = "router function name: on AWS <stack>-router "
            + "(default ${DEFAULT-VALUE})")
    String routerFunction;

    @Option(names = "--delete-layer-function", defaultValue = "DeleteLayerFunction",
            description = "delete-layer function name: on AWS <stack>-delete-layer (default ${DEFAULT-VALUE})")
    String deleteLayerFunction;

    @Option(names = "--checkpoints-table", description = "with StreamReaders one: the consumer's checkpoints table, the stack output "
            + "StreamCheckpointsTableName; the indexer queue's records are then the consumer's, and redrive re-sends the events of those "
            + "its checkpoints do not mark routed (local stack: StreamCheckpointsTable)")
    String checkpointsTable;

    @Option(names = "--consumer-function", defaultValue = "StreamIndexerFunction", description = "with --checkpoints-table: the "
            + "consumer function that re-sends the events, on AWS <stack>-stream-indexer (default ${DEFAULT-VALUE})")
    String consumerFunction;

    private static final Map<QueueKind, String> QUEUE_OUTPUTS = Map.of(QueueKind.INDEXER, "StreamIndexerFailureQueueUrl",
            QueueKind.ROUTER, "RouterFailureQueueUrl", QueueKind.DELETE_LAYER, "DeleteLayerDeadLetterQueueUrl");

    private List<ClientEnvironment.Endpoint> endpoints() {
        return List.of(new ClientEnvironment.Endpoint("--endpoint", endpoint, List.of("DYNAMODB", "DYNAMODB_STREAMS")),
                new ClientEnvironment.Endpoint("--sqs-endpoint", sqsEndpoint, List.of("SQS")),
                new ClientEnvironment.Endpoint("--lambda-endpoint", lambdaEndpoint, List.of("LAMBDA")),
                new ClientEnvironment.Endpoint("--kinesis-endpoint", kinesisEndpoint, List.of("KINESIS")));
    }

    @Override
    public Failures.Context context() {
        Map<String, String> given = ClientEnvironment.given(endpoints());
        String region = parent.environment.getOrDefault("AWS_REGION", given.isEmpty() ? null : "us-east-1");
        Failures.Context where = new Failures.Context(region, given, e -> Optional.empty());
        return new Failures.Context(region, given, e -> {
            if (e instanceof QueueDoesNotExistException) {
                QueueKind kind = QueueKind.of(queue);
                return Optional.of("queue " + (queueUrl != null ? queueUrl : queueName(kind)) + " does not exist " + where.where() + ": "
                        + (sqsEndpoint != null ? "start the local stack (" + Failures.START_LOCAL + "), which creates the template's queues"
                        : "pass --queue-url with the stack output " + QUEUE_OUTPUTS.get(kind) + " (" + Failures.STACK_OUTPUTS + ")"));
            }
            if (e instanceof software.amazon.awssdk.services.lambda.model.ResourceNotFoundException) {
                return Optional.of("a function does not exist " + where.where() + " (" + e.awsErrorDetails().errorMessage()
                        + "): pass --router-function <stack>-router or --delete-layer-function <stack>-delete-layer");
            }
            if (e instanceof software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException) {
                return Optional.of("a table does not exist " + where.where() + ": pass --app-table and --index-table with the stack "
                        + "outputs AppTableName and IndexTableName (" + Failures.STACK_OUTPUTS + ")");
            }
            return Optional.empty();
        });
    }

    private static String queueName(QueueKind kind) {
        return switch (kind) {
            case INDEXER -> "StreamIndexerFailureQueue";
            case ROUTER -> "RouterFailureQueue";
            case DELETE_LAYER -> "DeleteLayerDeadLetterQueue";
        };
    }

    @Override
    public Integer call() throws Exception {
        QueueKind kind = QueueKind.of(queue);
        if (maxMessages < 1) {
            throw Failure.usage("--max-messages must be at least 1");
        }
        try (Redrives redrives = Redrives.fromEnvironment(environment(kind))) {
            Redrive.Report report = redrives.forQueue(kind).run(dryRun, maxMessages, dropGone);
            if (output.json()) {
                parent.out.println(report.toJson());
            } else {
                print(report, parent.out);
            }
            return report.allRedriven() ? OperatorCli.DONE : OperatorCli.FOUND;
        }
    }

    private Map<String, String> environment(QueueKind kind) {
        Map<String, String> env = new HashMap<>(ClientEnvironment.of(parent.environment, endpoints()));
        env.put("APP_TABLE_NAME", appTable);
        env.put("INDEX_TABLE_NAME", indexTable);
        env.put("ROUTER_FUNCTION_NAME", routerFunction);
        env.put("DELETE_LAYER_FUNCTION_NAME", deleteLayerFunction);
        if (checkpointsTable != null) {
            env.put("STREAM_CHECKPOINTS_TABLE", checkpointsTable);
            env.put("STREAM_CONSUMER_FUNCTION_NAME", consumerFunction);
        }
        env.put("INDEXER_FAILURE_QUEUE", kind == QueueKind.INDEXER && queueUrl != null ? queueUrl : queueName(QueueKind.INDEXER));
        env.put("ROUTER_FAILURE_QUEUE", kind == QueueKind.ROUTER && queueUrl != null ? queueUrl : queueName(QueueKind.ROUTER));
        env.put("DELETE_LAYER_DEAD_LETTER_QUEUE", kind == QueueKind.DELETE_LAYER && queueUrl != null ? queueUrl
                : queueName(QueueKind.DELETE_LAYER));
        return env;
    }

    static void print(Redrive.Report report, PrintStream out) {
        for (Redrive.Outcome outcome : report.outcomes()) {
            out.println(switch (outcome) {
                case Redrive.Outcome.Redriven r -> r.messageId() + "  redriven: " + r.what() + "; message deleted";
                case Redrive.Outcome.WouldRedrive w -> w.messageId() + "  dry run: " + w.what();
                case Redrive.Outcome.RangeGone g -> g.messageId() + "  RANGE GONE: " + g.range() + ": " + g.reason() + "; " + g.advice()
                        + (g.dropped() ? "; message deleted (--drop-gone)" : "; message kept (--drop-gone deletes it)");
                case Redrive.Outcome.Failed f -> f.messageId() + "  FAILED: " + f.reason() + "; message kept";
                case Redrive.Outcome.Unreadable u -> u.messageId() + "  UNREADABLE: " + u.reason() + "; message kept";
            });
        }
        out.printf("%s queue: %d messages handled%s, %d left in the queue%n", report.queue().label(), report.outcomes().size(),
                report.dryRun() ? " (dry run)" : "", report.remaining());
    }
}
