package com.multikey.local;

import com.multikey.clikit.Failure;
import com.multikey.emulator.TemplateRuntime;
import com.multikey.emulator.auth.LocalJwtIssuer;
import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import com.multikey.emulator.services.http.LocalHttpApi;
import com.multikey.emulator.services.kinesis.KinesisFaults;
import com.multikey.emulator.template.SamTemplate;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/** {@code start}: the local stack, kept running; prints its endpoints, then {@value LocalMain#READY}. */
@Command(name = "start", mixinStandardHelpOptions = true,
        description = "Starts the local stack and keeps it running: the DynamoDB engine on a port, the stream event sources, the bus, TTL.",
        footer = {"", "Standard output: the endpoints, then the line 'ready' once the tables exist and the event sources run (scripts wait "
                + "for it), then one line per batch, event and handler call. Standard error: the function-log path."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped (interrupted, or after --seconds)", LocalMain.BAD_USAGE, LocalMain.STACK_FAILED})
final class StartCommand implements Callable<Integer> {

    @CommandLine.ParentCommand
    LocalMain parent;

    @Option(names = "--port", defaultValue = "8000", description = "The DynamoDB engine's port (default ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--eventbridge-port", defaultValue = "4010", description = "the local PutEvents endpoint's port (default ${DEFAULT-VALUE}, as in sam/env.json)")
    int eventBridgePort;

    @Option(names = "--lambda-port", defaultValue = "4011", description = "the local Lambda API endpoint's port (default ${DEFAULT-VALUE}, as in sam/env.json)")
    int lambdaPort;

    @Option(names = "--sqs-port", defaultValue = "4012", description = "the local SQS endpoint's port, holding the template's queues (default ${DEFAULT-VALUE})")
    int sqsPort;

    @Option(names = "--api-port", defaultValue = "4013", description = "the read API's port, with the grid page at / (default ${DEFAULT-VALUE})")
    int apiPort;

    @Option(names = "--api-auth", defaultValue = "IAM", paramLabel = "IAM|JWT",
            description = "how the read API authorizes: IAM (SigV4 with the local credentials local/local) or JWT (tokens from 'local.jar token') (default ${DEFAULT-VALUE})")
    String apiAuth;

    @Option(names = "--token-key", paramLabel = "FILE", description = "with --api-auth JWT, the key that signs local tokens (default ~/.multikey/local-token-key.json, made on first use)")
    Path tokenKey;

    @Option(names = "--secrets-dir", paramLabel = "DIR", description = "where the template's secrets (the read API's cursor keys, "
            + "CursorKeySecret.json) are kept, each made on first use, readable by you only (default ~/.multikey/secrets)")
    Path secretsDirectory;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "address the PutEvents, Lambda API, SQS and read API endpoints listen on; "
            + "0.0.0.0 to reach them from containers (sam local invoke) (default ${DEFAULT-VALUE})")
    String host;

    @Option(names = "--stream-readers", defaultValue = "two", paramLabel = "two|one", description = "the template's StreamReaders: "
            + "two readers on the stream (the indexer and the router), or one consumer doing both jobs (default ${DEFAULT-VALUE})")
    String streamReaders;

    @Option(names = "--stream-source", defaultValue = "dynamodb", paramLabel = "dynamodb|kinesis", description = "the template's "
            + "StreamSource: the table's DynamoDB stream, or its Kinesis streaming destination on a local Kinesis data stream "
            + "(default ${DEFAULT-VALUE})")
    String streamSource;

    @Option(names = "--kinesis-duplicates", defaultValue = "0", paramLabel = "FRACTION", description = "with --stream-source kinesis, "
            + "the fraction of changes the destination puts twice, as AWS may (default ${DEFAULT-VALUE})")
    double kinesisDuplicates;

    @Option(names = "--kinesis-reorder-window", defaultValue = "0", paramLabel = "N", description = "with --stream-source kinesis, "
            + "put the changes in a random order within blocks of N, as AWS may put them out of order (default ${DEFAULT-VALUE}: in order)")
    int kinesisReorderWindow;

    @Option(names = "--seconds", description = "stop after this many seconds (default: run until interrupted)")
    Integer seconds;

    @Option(names = "--definitions", paramLabel = "FILE", description = "run on a table of your own shape: the key schema and "
            + "indexes this definitions file declares, every function reading it (default: the template's own AppTable)")
    Path definitions;

    @Option(names = "--table-name", defaultValue = "MyTable", description = "with --definitions, the table's name (default ${DEFAULT-VALUE})")
    String tableName;

    @Option(names = "--load", paramLabel = "FILE", description = "put these items (DynamoDB JSON: one a line, or the output of "
            + "'aws dynamodb scan') into the table once the stack runs (default: none)")
    Path load;

    /** A port the stack listens on, the option that sets it, and what listens there. */
    record Port(String option, int port, String what, String host) {
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintStream out = parent.out;
        Optional<OwnTable> own = Optional.ofNullable(definitions).map(file -> OwnTable.of(file, tableName));
        own.ifPresent(table -> parent.deletedAtTheEnd(table.json()));
        SamTemplate stack = parent.loadTemplate().withParameterOverrides(LocalReadApi.parameters(apiAuth))
                .withParameterOverrides(java.util.Map.of("StreamReaders", streamReaders, "StreamSource", streamSource));
        // a table of the user's own goes through the template's existing-table path, as a deployment on it does
        SamTemplate template = own.map(table -> stack.withParameterOverrides(table.parameters())).orElse(stack);
        Optional<List<Map<String, AttributeValue>>> items = Optional.ofNullable(load).map(ItemFile::read);
        checkFree(List.of(new Port("--port", port, "DynamoDB", host), new Port("--eventbridge-port", eventBridgePort, "PutEvents", host),
                new Port("--lambda-port", lambdaPort, "Lambda API", host), new Port("--sqs-port", sqsPort, "SQS", host),
                new Port("--api-port", apiPort, "read API", host)));
        parent.logs.name(parent.err);
        Optional<LocalJwtIssuer> tokens = apiAuth.equals("JWT")
                ? Optional.of(LocalJwtIssuer.loadOrCreate(tokenKey != null ? tokenKey : LocalReadApi.defaultKeyFile()))
                : Optional.empty();
        // the program's own INDEX_DEFINITIONS, then the table given by --definitions over it
        Map<String, String> functionEnvironment = new HashMap<>(parent.functionEnvironment());
        own.ifPresent(table -> functionEnvironment.putAll(table.environment()));
        try (TemplateRuntime runtime = new TemplateRuntime(template,
                new TemplateRuntime.Ports(host, port, eventBridgePort, lambdaPort, sqsPort), out::println,
                own.map(OwnTable::creation).orElse(dynamoDb -> { }), functionEnvironment,
                secretsDirectory != null ? secretsDirectory : LocalReadApi.defaultSecretsDirectory())) {
            if (streamSource.equals("kinesis")) {
                runtime.kinesisFaults(new KinesisFaults(kinesisDuplicates, kinesisReorderWindow, System.nanoTime()));
                out.printf("Kinesis: %s  streams: %s (duplicates %.2f, reorder window %d)%n", runtime.kinesis().endpoint(),
                        String.join(", ", runtime.kinesis().streams().list().stream().map(s -> s.name()).toList()),
                        kinesisDuplicates, kinesisReorderWindow);
            }
            runtime.startPolling();
            String table = own.map(OwnTable::name).orElseGet(() -> runtime.table("AppTable"));
            LocalHttpApi api = LocalReadApi.serve(runtime, apiAuth, host, apiPort, tokens);
            out.printf("DynamoDB: %s  tables: %s%n", runtime.dynamoDbLocal().endpoint(),
                    String.join(", ", runtime.names().entrySet().stream()
                            .filter(e -> template.typeOf(e.getKey()).equals("AWS::DynamoDB::Table")).map(Map.Entry::getValue).toList()));
            out.printf("EventBridge (PutEvents): %s  Lambda API: %s  SQS: %s%n", runtime.bus().endpoint(), runtime.lambdaApi().endpoint(),
                    runtime.sqs().endpoint());
            if (own.isPresent()) {
                out.printf("your table: %s (key %s), indexes: %s (from %s)%n", table, own.get().definitions().table().attributes().stream()
                        .map(a -> a.name() + " " + a.type()).collect(Collectors.joining(", ")),
                        own.get().definitions().indexes().stream().map(i -> i.name()).collect(Collectors.joining(", ")), definitions);
            }
            items.ifPresent(list -> out.printf("loaded %d items from %s into %s%n", ItemFile.load(runtime.dynamoDb(), table, list), load, table));
            out.printf("functions: %s; write to the tables with any client, e.g.%n", String.join(", ", runtime.functionIds()));
            if (own.isEmpty()) {
                out.printf("  aws dynamodb put-item --endpoint-url %s --table-name %s --item '{\"id\":{\"S\":\"issue#1\"},\"project\":{\"S\":\"project#1\"},\"num\":{\"N\":\"1\"},\"custom_fields\":{\"M\":{\"f1\":{\"S\":\"hello\"}}}}'%n",
                        runtime.dynamoDbLocal().endpoint(), table);
            } else {
                out.printf("  aws dynamodb put-item --endpoint-url %s --table-name %s --item '<an item of your table, in DynamoDB JSON>'%n",
                        runtime.dynamoDbLocal().endpoint(), table);
            }
            out.printf("read API: %s  grid page: %s/%n", api.endpoint(), api.endpoint());
            // on a table of your own there is no grid: the example lists the declared indexes, which the page browses
            String example = own.isPresent() ? "/v1/indexes" : "/v1/grid?field=f1&project=project%%231";
            if (apiAuth.equals("IAM")) {
                out.printf("  curl --aws-sigv4 aws:amz:%s:execute-api --user %s:%s '%s" + example + "'%n",
                        LocalDynamoDb.REGION.id(), LocalDynamoDb.ACCESS_KEY, LocalDynamoDb.SECRET_KEY, api.endpoint());
            } else {
                out.printf("  token=$(java -jar tool-local-cli/target/local.jar token --projects '%s')%n", own.isPresent() ? "*" : "project#1");
                out.printf("  curl -H \"Authorization: Bearer $token\" '%s" + example + "'%n", api.endpoint());
            }
            // the tables exist and the event sources poll: only now may a script waiting on us go on
            out.println(LocalMain.READY);
            CountDownLatch stop = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown));
            if (seconds == null) {
                stop.await();
            } else {
                stop.await(seconds, TimeUnit.SECONDS);
            }
            return LocalMain.DONE;
        }
    }

    /** Refuses, naming the option to change, a port something else already listens on (0: any free one, always free). */
    static void checkFree(List<Port> ports) {
        for (Port port : ports) {
            if (port.port() == 0) {
                continue;
            }
            InetAddress address;
            try {
                address = InetAddress.getByName(port.host());
            } catch (UnknownHostException e) {
                throw Failure.usage("--host " + port.host() + " is not an address: pass 127.0.0.1 (the default) or 0.0.0.0");
            }
            try (ServerSocket socket = new ServerSocket()) {
                socket.bind(new InetSocketAddress(address, port.port()));
            } catch (IOException e) {
                throw new Failure(LocalMain.STACK, "port " + port.port() + " (" + port.what() + ") is in use on " + port.host()
                        + ": pass another " + port.option() + " (0: any free port), or stop what listens there", e);
            }
        }
    }
}
