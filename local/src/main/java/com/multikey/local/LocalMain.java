package com.multikey.local;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.common.PlainJson;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.local.runtime.LambdaEvents;
import com.multikey.local.runtime.LocalDynamoDb;
import com.multikey.local.runtime.LocalEventBridge;
import com.multikey.local.runtime.LocalFunction;
import com.multikey.local.runtime.LocalHttpApi;
import com.multikey.local.runtime.LocalJwtIssuer;
import com.multikey.local.runtime.LocalLambdaApi;
import com.multikey.local.runtime.SamTemplate;
import com.multikey.local.runtime.TemplateException;
import com.multikey.local.runtime.TemplateRuntime;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * Runs template.yaml on this machine, with no Docker and no AWS account: tables in embedded DynamoDB
 * Local, functions from their deployable jars, each in its own class loader, stream event source mappings, the bus and its rules, TTL.
 */
@Command(name = "local.jar", mixinStandardHelpOptions = true,
        description = "Runs template.yaml on this machine: DynamoDB Local, the functions, their stream event sources, the bus and its rules.",
        subcommands = {LocalMain.Demo.class, LocalMain.Invoke.class, LocalMain.Start.class, LocalMain.Replay.class, LocalMain.Token.class})
public final class LocalMain implements Callable<Integer> {

    @Option(names = "--template", description = "the SAM template (default: template.yaml here or above)")
    Path template;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    final PrintStream out;

    LocalMain(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) throws IOException {
        PrintStream console = System.out;
        PrintStream consoleErrors = System.err;
        // the functions log JSON lines and metrics to standard output (and their libraries' warnings to
        // standard error), as on Lambda; keep them out of the way
        Path functionLogs = Files.createTempFile("multikey-functions-", ".log");
        PrintStream logs = new PrintStream(Files.newOutputStream(functionLogs), true, StandardCharsets.UTF_8);
        System.setOut(logs);
        System.setErr(logs);
        int status = run(args, console, consoleErrors);
        console.println("(function logs: " + functionLogs + ")");
        console.flush();
        // DynamoDB Local leaves non-daemon threads behind after shutdown
        System.exit(status);
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        CommandLine commandLine = new CommandLine(new LocalMain(out));
        commandLine.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        commandLine.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        commandLine.setExecutionExceptionHandler((e, line, parsed) -> {
            line.getErr().println("error: " + e.getMessage());
            return e instanceof IllegalArgumentException || e instanceof TemplateException ? 2 : 1;
        });
        return commandLine.execute(args.length == 0 ? new String[] {"demo"} : args);
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(out);
        return 2;
    }

    SamTemplate loadTemplate() {
        Path path = template != null ? template : SamTemplate.findUp("template.yaml");
        if (!Files.isRegularFile(path)) {
            throw new IllegalArgumentException("no template at " + path);
        }
        return SamTemplate.load(path);
    }

    @Command(name = "demo", description = {"Runs the whole pipeline on the grid sample and layer records and checks every outcome.",
            "With --example NAME, the example under examples/NAME instead: its table (created before the stack, as an existing "
                    + "table), its definitions file read by every function, its items, indexes and events."})
    static final class Demo implements Callable<Integer> {
        @CommandLine.ParentCommand
        LocalMain parent;

        @Option(names = "--example", paramLabel = "NAME", description = "an example under examples/ (" + SingleTableDemo.EXAMPLE + ")")
        String example;

        @Override
        public Integer call() throws InterruptedException {
            PrintStream out = parent.out;
            SamTemplate template = parent.loadTemplate();
            List<PipelineDemo.Check> checks;
            if (example == null) {
                try (TemplateRuntime runtime = new TemplateRuntime(template, 0, line -> out.println("  . " + line))) {
                    runtime.startPolling();
                    checks = new PipelineDemo(runtime, out).run();
                }
            } else {
                if (!example.equals(SingleTableDemo.EXAMPLE)) {
                    SingleTableDemo.directory(example);
                    throw new IllegalArgumentException("example '" + example + "' has no demo; the demo runs '" + SingleTableDemo.EXAMPLE + "'");
                }
                Path directory = SingleTableDemo.directory(example);
                IndexDefinitions definitions = DefinitionsYaml.read(directory.resolve("index-definitions.yaml"));
                Path json = SingleTableDemo.definitionsJson(directory);
                try (TemplateRuntime runtime = new TemplateRuntime(template.withParameterOverrides(SingleTableDemo.parameters()),
                        new TemplateRuntime.Ports("127.0.0.1", 0, 0, 0), line -> out.println("  . " + line), SingleTableDemo.existingTable(),
                        Map.of("INDEX_DEFINITIONS", json.toString()))) {
                    runtime.startPolling();
                    checks = new SingleTableDemo(runtime, definitions, out).run();
                }
            }
            long failed = checks.stream().filter(c -> !c.passed()).count();
            out.printf("%n%d of %d checks passed.%n", checks.size() - failed, checks.size());
            checks.stream().filter(c -> !c.passed()).forEach(c ->
                    out.printf("FAILED %s: expected %s, got %s%n", c.description(), c.expected(), c.actual()));
            return failed == 0 ? 0 : 1;
        }
    }

    @Command(name = "invoke", description = "Invokes one function of the template with an event file, like 'sam local invoke', without Docker.")
    static final class Invoke implements Callable<Integer> {
        @CommandLine.ParentCommand
        LocalMain parent;

        @Parameters(index = "0", paramLabel = "FunctionLogicalId")
        String function;

        @Option(names = {"-e", "--event"}, required = true, paramLabel = "EVENT.json", description = "the event to invoke it with")
        Path event;

        @Override
        public Integer call() throws InterruptedException {
            PrintStream out = parent.out;
            if (!Files.isRegularFile(event)) {
                throw new IllegalArgumentException("no such event file: " + event);
            }
            SamTemplate template = parent.loadTemplate();
            try (TemplateRuntime runtime = new TemplateRuntime(template, 0, out::println)) {
                LocalFunction target = runtime.function(function);
                String input = readEvent(event);
                Map<String, Map<String, String>> before = snapshot(runtime);
                String response = invoke(target, input, event);
                runtime.awaitDispatch(Duration.ofSeconds(30));
                // what the function invoked asynchronously (e.g. the reindex worker's segments) runs to its end too
                runtime.lambdaApi().awaitAsyncIdle(Duration.ofMinutes(10));
                out.println(function + " answered: " + LocalFunction.display(response));
                printChanges(runtime, before, out);
                return 0;
            }
        }

        private static String readEvent(Path file) {
            try {
                return Files.readString(file, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
        }

        private static String invoke(LocalFunction target, String json, Path file) {
            try {
                return target.invoke(json);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file.getFileName() + ": " + e.getMessage(), e);
            }
        }
    }

    /** The line {@code start} prints once its tables exist and its event sources run. */
    static final String READY = "ready";

    @Command(name = "start", description = "Starts the local stack and keeps it running: DynamoDB Local on a port, the stream event sources, the bus, TTL.")
    static final class Start implements Callable<Integer> {
        @CommandLine.ParentCommand
        LocalMain parent;

        @Option(names = "--port", defaultValue = "8000", description = "DynamoDB Local's port (default ${DEFAULT-VALUE})")
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
                description = "how the read API authorizes: IAM (SigV4 with the local credentials local/local) or JWT (tokens from 'local.jar token'); default ${DEFAULT-VALUE}")
        String apiAuth;

        @Option(names = "--token-key", paramLabel = "FILE", description = "with --api-auth JWT, the key that signs local tokens (default ~/.multikey/local-token-key.json, made on first use)")
        Path tokenKey;

        @Option(names = "--host", defaultValue = "127.0.0.1", description = "address the PutEvents, Lambda API and read API endpoints listen on; 0.0.0.0 to reach them from containers (sam local invoke)")
        String host;

        @Option(names = "--seconds", description = "stop after this many seconds (default: run until interrupted)")
        Integer seconds;

        @Override
        public Integer call() throws InterruptedException {
            PrintStream out = parent.out;
            SamTemplate template = parent.loadTemplate().withParameterOverrides(LocalReadApi.parameters(apiAuth));
            java.util.Optional<LocalJwtIssuer> tokens = apiAuth.equals("JWT")
                    ? java.util.Optional.of(LocalJwtIssuer.loadOrCreate(tokenKey != null ? tokenKey : LocalReadApi.defaultKeyFile()))
                    : java.util.Optional.empty();
            try (TemplateRuntime runtime = new TemplateRuntime(template,
                    new TemplateRuntime.Ports(host, port, eventBridgePort, lambdaPort, sqsPort), out::println)) {
                runtime.startPolling();
                LocalHttpApi api = LocalReadApi.serve(runtime, apiAuth, host, apiPort, tokens);
                out.printf("DynamoDB Local: %s  tables: %s%n", runtime.dynamoDbLocal().endpoint(),
                        String.join(", ", runtime.names().entrySet().stream()
                                .filter(e -> template.typeOf(e.getKey()).equals("AWS::DynamoDB::Table")).map(Map.Entry::getValue).toList()));
                out.printf("EventBridge (PutEvents): %s  Lambda API: %s  SQS: %s%n", runtime.bus().endpoint(), runtime.lambdaApi().endpoint(),
                        runtime.sqs().endpoint());
                out.printf("functions: %s; write to the tables with any client, e.g.%n", String.join(", ", runtime.functionIds()));
                out.printf("  aws dynamodb put-item --endpoint-url %s --table-name %s --item '{\"id\":{\"S\":\"issue#1\"},\"project\":{\"S\":\"project#1\"},\"num\":{\"N\":\"1\"},\"custom_fields\":{\"M\":{\"f1\":{\"S\":\"hello\"}}}}'%n",
                        runtime.dynamoDbLocal().endpoint(), runtime.table("AppTable"));
                out.printf("read API: %s  grid page: %s/%n", api.endpoint(), api.endpoint());
                if (apiAuth.equals("IAM")) {
                    out.printf("  curl --aws-sigv4 aws:amz:%s:execute-api --user %s:%s '%s/v1/grid?field=f1&project=project%%231'%n",
                            LocalDynamoDb.REGION.id(), LocalDynamoDb.ACCESS_KEY, LocalDynamoDb.SECRET_KEY, api.endpoint());
                } else {
                    out.printf("  token=$(java -jar local/target/local.jar token --projects 'project#1')%n");
                    out.printf("  curl -H \"Authorization: Bearer $token\" '%s/v1/grid?field=f1&project=project%%231'%n", api.endpoint());
                }
                // the tables exist and the event sources poll: only now may a script waiting on us go on
                out.println(READY);
                CountDownLatch stop = new CountDownLatch(1);
                Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown));
                if (seconds == null) {
                    stop.await();
                } else {
                    stop.await(seconds, java.util.concurrent.TimeUnit.SECONDS);
                }
                return 0;
            }
        }
    }

    @Command(name = "token", description = {"Prints a token for the local read API started with --api-auth JWT: signed by the local key, "
            + "for the local issuer and audience, listing the projects the caller may read ('*': every one).",
            "Use it as 'Authorization: Bearer TOKEN', or open the grid page at /#token=TOKEN."})
    static final class Token implements Callable<Integer> {
        @CommandLine.ParentCommand
        LocalMain parent;

        @Option(names = "--projects", required = true, split = ",", paramLabel = "PROJECT", description = "the projects the token lets its holder read, comma-separated (names without spaces, commas, brackets or quotes)")
        List<String> projects;

        @Option(names = "--lifetime", defaultValue = "PT1H", paramLabel = "DURATION", description = "how long the token is valid, ISO-8601 (default ${DEFAULT-VALUE}; negative: already expired)")
        Duration lifetime;

        @Option(names = "--audience", defaultValue = LocalReadApi.AUDIENCE, description = "the audience (default ${DEFAULT-VALUE}, the one the local API accepts)")
        String audience;

        @Option(names = "--issuer", defaultValue = LocalReadApi.ISSUER, description = "the issuer (default ${DEFAULT-VALUE}, the one the local API accepts)")
        String issuer;

        @Option(names = "--token-key", paramLabel = "FILE", description = "the signing key (default ~/.multikey/local-token-key.json, made on first use)")
        Path tokenKey;

        @Override
        public Integer call() {
            LocalJwtIssuer key = LocalJwtIssuer.loadOrCreate(tokenKey != null ? tokenKey : LocalReadApi.defaultKeyFile());
            parent.out.println(key.mint(issuer, audience, LocalReadApi.PROJECTS_CLAIM, projects, java.time.Instant.now(), lifetime));
            return 0;
        }
    }

    @Command(name = "replay", description = "Delivers stream event files (e.g. sam/events/*.json) to the stream indexer and prints the index.")
    static final class Replay implements Callable<Integer> {
        @CommandLine.ParentCommand
        LocalMain parent;

        @Parameters(arity = "1..*", paramLabel = "EVENT.json")
        List<Path> files;

        @Override
        public Integer call() {
            PrintStream out = parent.out;
            for (Path file : files) {
                if (!Files.isRegularFile(file)) {
                    throw new IllegalArgumentException("no such event file: " + file);
                }
            }
            SamTemplate template = parent.loadTemplate();
            try (TemplateRuntime runtime = new TemplateRuntime(template, 0, line -> { })) {
                LocalFunction indexer = runtime.function("StreamIndexerFunction");
                for (Path file : files) {
                    DynamodbEvent event = LambdaEvents.read(file, DynamodbEvent.class);
                    String response = indexer.invoke(LambdaEvents.stripped(file));
                    out.printf("%s: %d record(s), answered %s%n", file,
                            event.getRecords() == null ? 0 : event.getRecords().size(), response);
                }
                out.println();
                IndexTablePrinter.print(out, IndexTablePrinter.scan(runtime.dynamoDb(), runtime.table("IssueAttribIndexTable")));
                return 0;
            }
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    static String json(Object value) {
        try {
            return value instanceof String text ? text : JSON.writeValueAsString(value);
        } catch (IOException e) {
            return String.valueOf(value);
        }
    }

    /** Every table's items, as plain JSON by key. */
    static Map<String, Map<String, String>> snapshot(TemplateRuntime runtime) {
        Map<String, Map<String, String>> tables = new LinkedHashMap<>();
        for (String table : runtime.dynamoDb().listTables().tableNames()) {
            List<String> keys = runtime.dynamoDb().describeTable(b -> b.tableName(table)).table().keySchema().stream()
                    .map(k -> k.attributeName()).toList();
            Map<String, String> items = new LinkedHashMap<>();
            for (Map<String, AttributeValue> item : runtime.dynamoDb().scanPaginator(b -> b.tableName(table)).items()) {
                Map<String, AttributeValue> key = new LinkedHashMap<>();
                keys.forEach(k -> key.put(k, item.get(k)));
                items.put(PlainJson.of(key).toString(), PlainJson.of(item).toString());
            }
            tables.put(table, items);
        }
        return tables;
    }

    static void printChanges(TemplateRuntime runtime, Map<String, Map<String, String>> before, PrintStream out) {
        Map<String, Map<String, String>> after = snapshot(runtime);
        out.println("\nItems written:");
        boolean none = true;
        for (String table : after.keySet()) {
            Map<String, String> was = before.getOrDefault(table, Map.of());
            Map<String, String> now = after.get(table);
            for (String key : now.keySet()) {
                if (!was.containsKey(key)) {
                    out.printf("  + %s %s%n", table, shorten(now.get(key)));
                    none = false;
                } else if (!was.get(key).equals(now.get(key))) {
                    out.printf("  ~ %s %s%n", table, shorten(now.get(key)));
                    none = false;
                }
            }
            for (String key : was.keySet()) {
                if (!now.containsKey(key)) {
                    out.printf("  - %s %s%n", table, key);
                    none = false;
                }
            }
        }
        if (none) {
            out.println("  (none)");
        }
        out.println("Events published:");
        List<LocalEventBridge.Received> events = runtime.bus().received();
        if (events.isEmpty()) {
            out.println("  (none)");
        }
        for (int i = 0; i < events.size(); i++) {
            List<String> rules = i < runtime.busRules().routed().size() ? runtime.busRules().routed().get(i).rules() : List.of();
            out.printf("  %s %s -> %s%n", events.get(i).detailType(), events.get(i).envelope().path("detail").path("keys"),
                    rules.isEmpty() ? "no rule matched" : String.join(", ", rules));
        }
        runtime.busRules().targetCalls().forEach(call -> out.printf("  rule %s invoked %s: %s%n", call.rule(), call.function(), call.result()));
        out.println("External calls:");
        List<LocalLambdaApi.Call> calls = runtime.lambdaApi().calls();
        if (calls.isEmpty()) {
            out.println("  (none)");
        }
        calls.forEach(call -> out.printf("  Lambda %s %s (%s) -> %d%n", call.method(), call.path(), call.region(), call.status()));
    }

    private static String shorten(String json) {
        return json.length() > 160 ? json.substring(0, 157) + "..." : json;
    }
}
