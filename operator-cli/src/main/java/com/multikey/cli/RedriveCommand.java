package com.multikey.cli;

import com.multikey.redrive.QueueKind;
import com.multikey.redrive.Redrive;
import com.multikey.redrive.Redrives;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code redrive --queue indexer|router|delete-layer [--dry-run] [--max-messages n] [--drop-gone]}: works
 * through a failure queue as the deployed redrive function does, from the operator's machine. Against a
 * deployed stack pass the queue URL and function names from the stack's outputs; against a local stack
 * ({@code local.jar start}) pass the endpoints.
 */
@Command(name = "redrive", description = "Acts on a failure queue: repairs the index of the issues a failed indexer batch names, "
        + "re-sends a failed router batch's events, or re-invokes delete-layer with a dead-lettered event; deletes a message only "
        + "after its work succeeded.")
final class RedriveCommand implements Callable<Integer> {

    @CommandLine.ParentCommand
    OperatorCli parent;

    @Option(names = "--queue", required = true, description = "indexer, router or delete-layer")
    String queue;

    @Option(names = "--dry-run", description = "write, invoke and delete nothing; print what would be done")
    boolean dryRun;

    @Option(names = "--max-messages", defaultValue = "100", description = "the most messages to handle (default ${DEFAULT-VALUE})")
    int maxMessages;

    @Option(names = "--drop-gone", description = "delete messages whose records are gone from the stream, after reporting them")
    boolean dropGone;

    @Option(names = "--queue-url", description = "the queue's URL (a deployed stack's output) or name "
            + "(default: the template's queue, as the local stack names it)")
    String queueUrl;

    @Option(names = "--endpoint", description = "DynamoDB and DynamoDB Streams endpoint, e.g. http://localhost:8000 (default: AWS)")
    String endpoint;

    @Option(names = "--sqs-endpoint", description = "SQS endpoint, e.g. http://localhost:4012 (default: AWS)")
    String sqsEndpoint;

    @Option(names = "--lambda-endpoint", description = "Lambda endpoint, e.g. http://localhost:4011 (default: AWS)")
    String lambdaEndpoint;

    @Option(names = "--app-table", defaultValue = "AppTable", description = "app table name (default ${DEFAULT-VALUE})")
    String appTable;

    @Option(names = "--index-table", defaultValue = "IssueAttribIndexTable", description = "index table name (default ${DEFAULT-VALUE})")
    String indexTable;

    @Option(names = "--router-function", defaultValue = "RouterFunction", description = "router function name (default ${DEFAULT-VALUE})")
    String routerFunction;

    @Option(names = "--delete-layer-function", defaultValue = "DeleteLayerFunction",
            description = "delete-layer function name (default ${DEFAULT-VALUE})")
    String deleteLayerFunction;

    @Override
    public Integer call() throws Exception {
        QueueKind kind = QueueKind.of(queue);
        if (maxMessages < 1) {
            throw new IllegalArgumentException("--max-messages must be at least 1");
        }
        try (Redrives redrives = Redrives.fromEnvironment(environment(kind))) {
            Redrive.Report report = redrives.forQueue(kind).run(dryRun, maxMessages, dropGone);
            print(report, parent.out);
            return report.allRedriven() ? 0 : 1;
        }
    }

    private Map<String, String> environment(QueueKind kind) {
        Map<String, String> env = new HashMap<>(System.getenv());
        if (endpoint != null || sqsEndpoint != null || lambdaEndpoint != null) {
            env.putIfAbsent("AWS_REGION", "us-east-1");
            env.putIfAbsent("AWS_ACCESS_KEY_ID", "local");
            env.putIfAbsent("AWS_SECRET_ACCESS_KEY", "local");
        }
        if (endpoint != null) {
            env.put("AWS_ENDPOINT_URL_DYNAMODB", endpoint);
            env.put("AWS_ENDPOINT_URL_DYNAMODB_STREAMS", endpoint);
        }
        if (sqsEndpoint != null) {
            env.put("AWS_ENDPOINT_URL_SQS", sqsEndpoint);
        }
        if (lambdaEndpoint != null) {
            env.put("AWS_ENDPOINT_URL_LAMBDA", lambdaEndpoint);
        }
        env.put("APP_TABLE_NAME", appTable);
        env.put("INDEX_TABLE_NAME", indexTable);
        env.put("ROUTER_FUNCTION_NAME", routerFunction);
        env.put("DELETE_LAYER_FUNCTION_NAME", deleteLayerFunction);
        env.put("INDEXER_FAILURE_QUEUE", kind == QueueKind.INDEXER && queueUrl != null ? queueUrl : "StreamIndexerFailureQueue");
        env.put("ROUTER_FAILURE_QUEUE", kind == QueueKind.ROUTER && queueUrl != null ? queueUrl : "RouterFailureQueue");
        env.put("DELETE_LAYER_DEAD_LETTER_QUEUE", kind == QueueKind.DELETE_LAYER && queueUrl != null ? queueUrl : "DeleteLayerDeadLetterQueue");
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
