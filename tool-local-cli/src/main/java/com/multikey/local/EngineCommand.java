package com.multikey.local;

import com.multikey.clikit.Failure;
import com.multikey.dynamodb.DynamoDbEngine;
import com.multikey.dynamodb.durable.CorruptLogException;
import com.multikey.dynamodb.durable.DurableEngine;
import com.multikey.dynamodb.server.EngineServer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code engine}: the DynamoDB engine alone (DynamoDB and DynamoDB Streams on one port), with no template and no
 * functions; its tables in memory, or kept in {@code --data-dir} across restarts.
 */
@Command(name = "engine", mixinStandardHelpOptions = true,
        description = {"Serves DynamoDB and DynamoDB Streams on one port, with no template and no functions: any client "
                + "(the AWS CLI, an SDK) with any credentials and region, pointed at the endpoint it prints.",
                "Tables live in memory, or with --data-dir in a directory they are kept in across restarts: every change "
                        + "is on the disk before it is answered."},
        footer = {"", "Standard output: 'endpoint URL', where the tables are, an example, then 'ready'. Stop it with Ctrl-C "
                + "(or after --seconds): it stops serving, then closes its data directory."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped (interrupted, or after --seconds)", LocalMain.BAD_USAGE,
                "3:the engine could not run: the port is in use, the data directory is damaged or used by another engine"})
final class EngineCommand implements Callable<Integer> {

    @CommandLine.ParentCommand
    LocalMain parent;

    @Option(names = "--port", defaultValue = "8000", description = "the port (0: any free one) (default ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "the address to listen on; 0.0.0.0 to be reached "
            + "from containers or other machines (default ${DEFAULT-VALUE})")
    String host;

    @Option(names = "--data-dir", paramLabel = "DIR", description = "keep the tables, their items, indexes, TTL settings and "
            + "stream records in this directory (made when missing) across restarts (default: in memory only)")
    Path dataDirectory;

    @Option(names = "--ttl-interval", defaultValue = "PT1S", paramLabel = "DURATION",
            description = "how often expired TTL items are deleted, ISO-8601 (default ${DEFAULT-VALUE})")
    Duration ttlInterval;

    @Option(names = "--seconds", description = "stop after this many seconds (default: run until interrupted)")
    Integer seconds;

    @Override
    public Integer call() throws InterruptedException {
        if (ttlInterval.isNegative() || ttlInterval.isZero()) {
            throw Failure.usage("--ttl-interval must be positive, e.g. PT1S");
        }
        StartCommand.checkFree(List.of(new StartCommand.Port("--port", port, "DynamoDB", host)));
        PrintStream out = parent.out;
        EngineServer server;
        if (dataDirectory == null) {
            server = EngineServer.start(new DynamoDbEngine().startTimeToLiveSweeper(ttlInterval), host, port);
        } else {
            DurableEngine durable;
            try {
                durable = DurableEngine.open(dataDirectory).startTimeToLiveSweeper(ttlInterval);
            } catch (CorruptLogException | IllegalStateException e) {
                throw new Failure(LocalMain.STACK, e.getMessage(), e);
            }
            try {
                server = EngineServer.start(durable, host, port);
            } catch (RuntimeException e) {
                durable.close();
                throw e;
            }
            describe(out, durable.startup());
        }
        out.println("endpoint " + server.endpoint());
        if (dataDirectory == null) {
            out.println("tables: in memory only (pass --data-dir DIR to keep them across restarts)");
        }
        out.printf("  aws dynamodb list-tables --endpoint-url %s%n", server.endpoint());
        out.println(LocalMain.READY);
        out.flush();
        CountDownLatch stopped = new CountDownLatch(1);
        // the hook closes the server itself: on Ctrl-C the JVM does not wait for this thread to return
        Thread hook = new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "dynamodb-engine-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        if (seconds == null) {
            stopped.await();
        } else if (!stopped.await(seconds, TimeUnit.SECONDS)) {
            Runtime.getRuntime().removeShutdownHook(hook);
            server.close();
        }
        return LocalMain.DONE;
    }

    private static void describe(PrintStream out, DurableEngine.Startup startup) {
        out.printf("data directory: %s (%d change%s replayed)%n", startup.log().getParent(), startup.replayed(),
                startup.replayed() == 1 ? "" : "s");
        if (startup.torn()) {
            out.printf("  the log's last record was torn (a crash while writing it, before it was answered): %d bytes "
                    + "cut off at byte %d%n", startup.tornBytes(), startup.tornOffset());
        }
    }
}
