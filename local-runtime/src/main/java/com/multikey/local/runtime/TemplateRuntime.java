package com.multikey.local.runtime;

import com.multikey.emulator.auth.LocalJwtIssuer;
import com.multikey.emulator.auth.SigV4Verifier;
import com.multikey.emulator.functions.LocalFunction;
import com.multikey.emulator.template.HttpApiRoutes;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateEnvironment;
import com.multikey.emulator.template.TemplateException;
import com.multikey.emulator.template.TemplateSecrets;
import com.multikey.emulator.template.TemplateTables;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * template.yaml running on this machine: its tables in the local DynamoDB engine, its functions from their deployable
 * jars (each in its own class loader), its
 * DynamoDB event source mappings polling the streams, its bus as a local PutEvents endpoint whose rules
 * (matched with event-ruler) invoke their target functions, TTL honoured within about a second, and the
 * Lambda API (DeleteLayerVersion, and Invoke of any of its functions, synchronous or asynchronous) answered by
 * a local endpoint that records the calls, and its Secrets Manager secrets, generated as the template says into
 * files made on first use, served by a local {@code GetSecretValue} endpoint.
 */
public final class TemplateRuntime implements AutoCloseable {

    private final SamTemplate template;
    private final SamTemplate deployed;
    private final LocalDynamoDb dynamoDbLocal;
    private final DynamoDbClient dynamoDb;
    private final LocalEventBridge bus;
    private final LocalLambdaApi lambdaApi;
    private final LocalSqs sqs;
    private LocalSecretsManager secrets;
    /** Where the secrets' files are; a temporary directory deleted at close unless given. */
    private final java.nio.file.Path secretsDirectory;
    private final boolean temporarySecrets;
    private final Map<String, String> names = new LinkedHashMap<>();
    private final Map<String, LocalFunction> functions = new LinkedHashMap<>();
    private final DynamoDbStreamsClient streams;
    private final TtlSweeper ttlSweeper;
    private BusRules busRules;
    private final Consumer<String> out;
    private final List<EventSourceMappings.Source> sources = new ArrayList<>();
    private final ExecutorService dispatcher = Executors.newSingleThreadExecutor(daemon("local-bus"));
    private final AtomicInteger dispatching = new AtomicInteger();
    private ScheduledExecutorService poller;
    private volatile boolean closing;
    private volatile int quietCycles;
    private Instant lastSweep = Instant.EPOCH;
    private final Map<String, String> functionEnvironment;
    private final List<LocalHttpApi> httpApis = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Ports of the local endpoints (0: any free one) and the address they listen on. */
    public record Ports(String host, int dynamoDb, int eventBridge, int lambda, int sqs) {
        /** SQS on the port after the Lambda API's when that one is fixed (4011: SQS on 4012), else any free one. */
        public Ports(String host, int dynamoDb, int eventBridge, int lambda) {
            this(host, dynamoDb, eventBridge, lambda, lambda == 0 ? 0 : lambda + 1);
        }
    }

    /** With the DynamoDB engine on {@code port} (0: any free one) and the other endpoints on any free port of loopback. */
    public TemplateRuntime(SamTemplate template, int port, Consumer<String> out) {
        this(template, new Ports("127.0.0.1", port, 0, 0), out);
    }

    public TemplateRuntime(SamTemplate template, Ports ports, Consumer<String> out) {
        this(template, ports, out, dynamoDb -> { });
    }

    /**
     * With {@code existing} creating, before the template's resources, what the account holds before the stack is
     * deployed: e.g. the table {@code ExistingTableName} names, with its stream, when the template is given one
     * instead of creating {@code AppTable}. A stream event source whose {@code Stream} is such a table's stream ARN
     * reads that table's latest stream (whatever label the ARN has), and a TTL enabled on such a table is honoured
     * like a template table's.
     */
    public TemplateRuntime(SamTemplate template, Ports ports, Consumer<String> out, Consumer<DynamoDbClient> existing) {
        this(template, ports, out, existing, Map.of());
    }

    /**
     * With {@code functionEnvironment} set in every function's environment over what the template gives it: e.g.
     * {@code INDEX_DEFINITIONS}, the definitions file the functions read instead of the one packaged in their jars.
     */
    public TemplateRuntime(SamTemplate template, Ports ports, Consumer<String> out, Consumer<DynamoDbClient> existing,
                           Map<String, String> functionEnvironment) {
        this(template, ports, out, existing, functionEnvironment, null);
    }

    /**
     * With the template's secrets kept in {@code secretsDirectory} (each {@code <LogicalId>.json}, made on first use and
     * kept after: a stack started again keeps its secrets); null: in a temporary directory deleted at close.
     */
    public TemplateRuntime(SamTemplate template, Ports ports, Consumer<String> out, Consumer<DynamoDbClient> existing,
                           Map<String, String> functionEnvironment, java.nio.file.Path secretsDirectory) {
        int port = ports.dynamoDb();
        this.template = template;
        this.temporarySecrets = secretsDirectory == null;
        try {
            this.secretsDirectory = secretsDirectory != null ? secretsDirectory : java.nio.file.Files.createTempDirectory("local-secrets");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot make a directory for the local secrets", e);
        }
        this.functionEnvironment = Map.copyOf(functionEnvironment);
        template.checkRules();
        this.deployed = template.deployed();
        this.out = out;
        this.dynamoDbLocal = LocalDynamoDb.start(ports.host(), port);
        try {
            this.dynamoDb = dynamoDbLocal.client();
            this.streams = dynamoDbLocal.streamsClient();
            this.ttlSweeper = new TtlSweeper(dynamoDb, out);
            this.bus = LocalEventBridge.start(ports.host(), ports.eventBridge());
            this.lambdaApi = LocalLambdaApi.start(ports.host(), ports.lambda());
            this.sqs = LocalSqs.start(ports.host(), ports.sqs(), java.time.Clock.systemUTC());
            this.secrets = LocalSecretsManager.start(ports.host(), 0);
            existing.accept(dynamoDb);
            deployed.resources().keySet().forEach(id -> names.put(id, id));
            TemplateSecrets.create(deployed, this.secretsDirectory).forEach((id, file) -> secrets.put(names.get(id), file));
            deployed.resourcesOfType("AWS::SQS::Queue").forEach(sqs::createQueue);
            names.putAll(TemplateTables.create(deployed, dynamoDb));
            for (String busId : deployed.resourcesOfType("AWS::Events::EventBus")) {
                Object name = deployed.properties(busId).get("Name");
                if (name != null) {
                    names.put(busId, TemplateEnvironment.resolve(name, deployed, names, busId + ".Name"));
                }
            }
            java.util.Set<String> ttlWatched = new java.util.HashSet<>();
            for (String table : deployed.resourcesOfType(TemplateTables.TABLE_TYPE)) {
                if (deployed.properties(table).get("TimeToLiveSpecification") instanceof Map<?, ?> ttl
                        && Boolean.TRUE.equals(ttl.get("Enabled"))) {
                    ttlSweeper.watch(names.get(table), (String) ttl.get("AttributeName"));
                    ttlWatched.add(names.get(table));
                }
            }
            for (String function : deployed.resourcesOfType("AWS::Serverless::Function")) {
                functions.put(function, LocalFunction.create(deployed, function, environment(function)));
            }
            functions.forEach((function, target) -> lambdaApi.register(target, invocableNames(function), asyncSettings(function)));
            EventSourceMappings mappings = new EventSourceMappings(deployed, names, dynamoDb, streams, out, sqs);
            functions.forEach((function, target) -> sources.addAll(mappings.bind(function, target)));
            for (EventSourceMappings.Source source : sources) {
                if (ttlWatched.add(source.table())) {
                    watchExistingTtl(source.table());
                }
            }
            this.busRules = new BusRules(deployed, names, functions, out, sqs::send);
            bus.onAccepted(event -> {
                dispatching.incrementAndGet();
                dispatcher.submit(() -> {
                    try {
                        busRules.route(event);
                    } finally {
                        dispatching.decrementAndGet();
                    }
                });
            });
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** The template as given (its parameter values included). */
    public SamTemplate template() {
        return template;
    }

    /** The template as deployed with its parameter values: see {@link SamTemplate#deployed()}. */
    public SamTemplate deployed() {
        return deployed;
    }

    /** A table the stack reads but did not create: its TTL, when enabled, is honoured like a template table's. */
    private void watchExistingTtl(String table) {
        var ttl = dynamoDb.describeTimeToLive(b -> b.tableName(table)).timeToLiveDescription();
        if (ttl != null && ttl.attributeName() != null
                && ttl.timeToLiveStatus() == software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus.ENABLED) {
            ttlSweeper.watch(table, ttl.attributeName());
        }
    }

    public LocalDynamoDb dynamoDbLocal() {
        return dynamoDbLocal;
    }

    /** A client of the local DynamoDB, for whoever drives the stack. */
    public DynamoDbClient dynamoDb() {
        return dynamoDb;
    }

    public LocalEventBridge bus() {
        return bus;
    }

    public LocalLambdaApi lambdaApi() {
        return lambdaApi;
    }

    /** The physical name of each resource, by logical id. */
    public Map<String, String> names() {
        return java.util.Collections.unmodifiableMap(names);
    }

    /** The template's function ids. */
    public java.util.Set<String> functionIds() {
        return java.util.Collections.unmodifiableSet(functions.keySet());
    }

    /** The template's SQS queues (the on-failure destinations and the dead-letter queue), by logical id. */
    public LocalSqs sqs() {
        return sqs;
    }

    public BusRules busRules() {
        return busRules;
    }

    /** A function's environment as deployed, its AWS endpoints pointed at the local ones. */
    public Map<String, String> environment(String function) {
        Map<String, String> environment = new java.util.HashMap<>(TemplateEnvironment.forLocalRun(deployed, function, names, Map.of(
                "DYNAMODB", dynamoDbLocal.endpoint(), "DYNAMODB_STREAMS", dynamoDbLocal.endpoint(), "EVENTBRIDGE", bus.endpoint(),
                "LAMBDA", lambdaApi.endpoint(), "SQS", sqs.endpoint(), "SECRETS_MANAGER", secrets.endpoint())));
        environment.putAll(functionEnvironment);
        return Map.copyOf(environment);
    }

    public String table(String logicalId) {
        return names.get(logicalId);
    }

    public LocalFunction function(String logicalId) {
        LocalFunction function = functions.get(logicalId);
        if (function == null) {
            throw new IllegalArgumentException("template.yaml has no function '" + logicalId + "' (functions: "
                    + String.join(", ", functions.keySet()) + ")");
        }
        return function;
    }

    /**
     * Serves the HTTP API {@code api} of the template on {@code host}:{@code port} (0: any free port) until the
     * runtime closes: SigV4 signatures checked against the local credentials ({@code local}/{@code local}, the
     * ones the functions' clients use), JWT tokens against {@code tokens}.
     */
    public LocalHttpApi serveHttpApi(String api, String host, int port, java.util.Optional<LocalJwtIssuer> tokens) {
        HttpApiRoutes routes = HttpApiRoutes.of(deployed, api, names);
        LocalHttpApi served = LocalHttpApi.start(routes, this::function,
                new SigV4Verifier(Map.of(LocalDynamoDb.ACCESS_KEY, LocalDynamoDb.SECRET_KEY), LocalDynamoDb.REGION.id(), "execute-api", java.time.Clock.systemUTC()),
                tokens, java.time.Clock.systemUTC(), out, host, port);
        httpApis.add(served);
        return served;
    }

    /** Starts polling the streams (every 200 ms) and expiring items whose TTL has passed (every second). */
    public void startPolling() {
        poller = Executors.newSingleThreadScheduledExecutor(daemon("local-streams"));
        poller.scheduleWithFixedDelay(this::pollOnce, 0, 200, TimeUnit.MILLISECONDS);
    }

    /** Waits until the streams are drained, every batch delivered and every routed event handled. */
    public boolean awaitQuiet(Duration timeout) throws InterruptedException {
        quietCycles = 0;
        Instant end = Instant.now().plus(timeout);
        while (Instant.now().isBefore(end)) {
            // 7 polls of 200 ms span more than the 1 s TTL sweep, so a quiet spell has seen a sweep
            if (quietCycles >= 7 && dispatching.get() == 0) {
                return true;
            }
            Thread.sleep(100);
        }
        return false;
    }

    /** The on-failure destinations' contents, by function. */
    public Map<String, List<List<String>>> onFailure() {
        Map<String, List<List<String>>> failures = new LinkedHashMap<>();
        for (int i = 0; i < sources.size(); i++) {
            failures.put(sources.get(i).table() + "#" + i, sources.get(i).mapping().onFailure());
        }
        return failures;
    }

    /**
     * Makes the event source mappings of {@code function} answer a delivery as a function error after the
     * function ran, when {@code faults} says so for the batch's sequence numbers (fault injection for tests;
     * {@link InvocationFaults#NONE} to stop).
     */
    public void invocationFaults(String function, InvocationFaults faults) {
        function(function);
        sources.stream().filter(s -> s.function().equals(function)).forEach(s -> s.faults().set(faults));
    }

    /** Waits for the bus's targets only (for a single invoke). */
    public void awaitDispatch(Duration timeout) throws InterruptedException {
        Instant end = Instant.now().plus(timeout);
        while (dispatching.get() > 0 && Instant.now().isBefore(end)) {
            Thread.sleep(50);
        }
    }

    /** The names the Invoke API knows a function by: its logical id and its {@code FunctionName}. */
    private java.util.Set<String> invocableNames(String function) {
        java.util.Set<String> invocable = new java.util.LinkedHashSet<>(List.of(function));
        Object name = deployed.properties(function).get("FunctionName");
        if (name != null) {
            invocable.add(TemplateEnvironment.resolve(name, deployed, names, function + ".FunctionName"));
        }
        invocable.add(TemplateEnvironment.resolve(Map.of("Fn::GetAtt", List.of(function, "Arn")), deployed, names, function + ".Arn"));
        return invocable;
    }

    /**
     * Asynchronous invocations as the template configures them: at most {@code ReservedConcurrentExecutions} at
     * once (unreserved: {@value #LOCAL_UNRESERVED_CONCURRENCY}), {@code EventInvokeConfig.MaximumRetryAttempts}
     * retries (default 2, as Lambda's), spaced by {@value #LOCAL_ASYNC_RETRY_DELAY_MILLIS} ms instead of minutes; the
     * invocation record of an event given up on sent to {@code EventInvokeConfig.DestinationConfig.OnFailure} (SQS).
     */
    private LocalLambdaApi.AsyncSettings asyncSettings(String function) {
        Map<String, Object> properties = deployed.properties(function);
        int concurrency = LOCAL_UNRESERVED_CONCURRENCY;
        if (properties.get("ReservedConcurrentExecutions") != null) {
            concurrency = Integer.parseInt(TemplateEnvironment.resolve(properties.get("ReservedConcurrentExecutions"), deployed, names,
                    function + ".ReservedConcurrentExecutions"));
        }
        int retries = 2;
        if (properties.get("EventInvokeConfig") instanceof Map<?, ?> config && config.get("MaximumRetryAttempts") != null) {
            retries = Integer.parseInt(TemplateEnvironment.resolve(config.get("MaximumRetryAttempts"), deployed, names,
                    function + ".EventInvokeConfig.MaximumRetryAttempts"));
        }
        Consumer<String> onFailure = record -> { };
        if (properties.get("EventInvokeConfig") instanceof Map<?, ?> config && config.get("DestinationConfig") instanceof Map<?, ?> destinations
                && destinations.get("OnFailure") instanceof Map<?, ?> destination) {
            String where = function + ".EventInvokeConfig.DestinationConfig.OnFailure";
            if (!"SQS".equals(destination.get("Type"))) {
                throw new TemplateException(where + ": only Type SQS is emulated");
            }
            String arn = TemplateEnvironment.resolve(destination.get("Destination"), deployed, names, where + ".Destination");
            String queue = arn.substring(arn.lastIndexOf(':') + 1);
            onFailure = record -> sqs.send(queue, record);
        }
        return new LocalLambdaApi.AsyncSettings(concurrency, retries, Duration.ofMillis(LOCAL_ASYNC_RETRY_DELAY_MILLIS), onFailure);
    }

    private static final int LOCAL_UNRESERVED_CONCURRENCY = 4;
    private static final int LOCAL_ASYNC_RETRY_DELAY_MILLIS = 200;

    private synchronized void pollOnce() {
        try {
            boolean busy = false;
            if (Duration.between(lastSweep, Instant.now()).toMillis() >= 1000) {
                busy |= ttlSweeper.sweep() > 0;
                lastSweep = Instant.now();
            }
            for (EventSourceMappings.Source source : sources) {
                List<Record> records = source.tail().poll().stream().map(r -> ttlSweeper.withTtlIdentity(source.table(), r)).toList();
                source.mapping().offer(records);
                busy |= !records.isEmpty();
                for (int step = 0; step < 50 && !source.mapping().idle(); step++) {
                    busy |= source.mapping().deliverOnce();
                }
            }
            quietCycles = busy || dispatching.get() > 0 ? 0 : quietCycles + 1;
        } catch (RuntimeException e) {
            quietCycles = 0;
            if (Thread.currentThread().isInterrupted() || closing) {
                // close() stops the poller mid-call: that is shutting down, not a failure
                return;
            }
            out.accept("stream polling failed: " + e.getMessage());
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    @Override
    public void close() {
        closing = true;
        httpApis.forEach(LocalHttpApi::close);
        if (poller != null) {
            poller.shutdownNow();
        }
        sources.forEach(source -> source.mapping().close());
        dispatcher.shutdownNow();
        if (bus != null) {
            bus.close();
        }
        if (lambdaApi != null) {
            lambdaApi.close();
        }
        if (sqs != null) {
            sqs.close();
        }
        if (secrets != null) {
            secrets.close();
        }
        if (temporarySecrets) {
            deleteSecrets();
        }
        if (dynamoDb != null) {
            dynamoDb.close();
        }
        if (streams != null) {
            streams.close();
        }
        dynamoDbLocal.close();
    }

    /** The template's secrets' files, by logical id: what the local Secrets Manager endpoint answers. */
    public java.nio.file.Path secretsDirectory() {
        return secretsDirectory;
    }

    private void deleteSecrets() {
        try (var files = java.nio.file.Files.list(secretsDirectory)) {
            for (java.nio.file.Path file : files.toList()) {
                java.nio.file.Files.deleteIfExists(file);
            }
            java.nio.file.Files.deleteIfExists(secretsDirectory);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot delete the local secrets in " + secretsDirectory, e);
        }
    }
}
