package com.multikey.local.runtime;

import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.event.ruler.Machine;

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
 * template.yaml running on this machine: its tables in DynamoDB Local, its functions in this JVM, its
 * DynamoDB event source mappings polling the streams, its bus as a local PutEvents endpoint whose rules
 * (matched with event-ruler) invoke their target functions, TTL honoured within about a second, and the
 * Lambda API (DeleteLayerVersion) answered by a local endpoint that records the calls.
 */
public final class TemplateRuntime implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private record Source(StreamEventSource mapping, StreamTail tail, String table) {
    }

    private final SamTemplate template;
    private final LocalDynamoDb dynamoDbLocal;
    private final DynamoDbClient dynamoDb;
    private final LocalEventBridge bus;
    private final LocalLambdaApi lambdaApi;
    private final Map<String, String> names = new LinkedHashMap<>();
    private final Map<String, LocalFunction> functions = new LinkedHashMap<>();
    private final DynamoDbStreamsClient streams;
    private final TtlSweeper ttlSweeper;
    private BusRules busRules;
    private final Consumer<String> out;
    private final List<Source> sources = new ArrayList<>();
    private final ExecutorService dispatcher = Executors.newSingleThreadExecutor(daemon("local-bus"));
    private final AtomicInteger dispatching = new AtomicInteger();
    private ScheduledExecutorService poller;
    private volatile boolean closing;
    private volatile int quietCycles;
    private Instant lastSweep = Instant.EPOCH;

    /** Ports of the local endpoints (0: any free one) and the address they listen on. */
    public record Ports(String host, int dynamoDb, int eventBridge, int lambda) {
    }

    /** With DynamoDB Local on {@code port} (0: any free one) and the other endpoints on any free port of loopback. */
    public TemplateRuntime(SamTemplate template, int port, Consumer<String> out) {
        this(template, new Ports("127.0.0.1", port, 0, 0), out);
    }

    public TemplateRuntime(SamTemplate template, Ports ports, Consumer<String> out) {
        int port = ports.dynamoDb();
        this.template = template;
        this.out = out;
        this.dynamoDbLocal = port == 0 ? LocalDynamoDb.start() : LocalDynamoDb.start(port);
        try {
            this.dynamoDb = dynamoDbLocal.client();
            this.streams = dynamoDbLocal.streamsClient();
            this.ttlSweeper = new TtlSweeper(dynamoDb, out);
            this.bus = LocalEventBridge.start(ports.host(), ports.eventBridge());
            this.lambdaApi = LocalLambdaApi.start(ports.host(), ports.lambda());
            template.resources().keySet().forEach(id -> names.put(id, id));
            names.putAll(TemplateTables.create(template, dynamoDb));
            for (String busId : template.resourcesOfType("AWS::Events::EventBus")) {
                Object name = template.properties(busId).get("Name");
                if (name != null) {
                    names.put(busId, TemplateEnvironment.resolve(name, template, names, busId + ".Name"));
                }
            }
            for (String table : template.resourcesOfType(TemplateTables.TABLE_TYPE)) {
                if (template.properties(table).get("TimeToLiveSpecification") instanceof Map<?, ?> ttl
                        && Boolean.TRUE.equals(ttl.get("Enabled"))) {
                    ttlSweeper.watch(names.get(table), (String) ttl.get("AttributeName"));
                }
            }
            for (String function : template.resourcesOfType("AWS::Serverless::Function")) {
                functions.put(function, LocalFunction.create(template, function, environment(function)));
            }
            for (String function : functions.keySet()) {
                bindEventSources(function);
            }
            this.busRules = new BusRules(template, names, functions, out);
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

    public SamTemplate template() {
        return template;
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

    public BusRules busRules() {
        return busRules;
    }

    /** A function's environment as deployed, its AWS endpoints pointed at the local ones. */
    public Map<String, String> environment(String function) {
        return TemplateEnvironment.forLocalRun(template, function, names, Map.of(
                "DYNAMODB", dynamoDbLocal.endpoint(), "EVENTBRIDGE", bus.endpoint(), "LAMBDA", lambdaApi.endpoint()));
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

    /** Waits for the bus's targets only (for a single invoke). */
    public void awaitDispatch(Duration timeout) throws InterruptedException {
        Instant end = Instant.now().plus(timeout);
        while (dispatching.get() > 0 && Instant.now().isBefore(end)) {
            Thread.sleep(50);
        }
    }

    private synchronized void pollOnce() {
        try {
            boolean busy = false;
            if (Duration.between(lastSweep, Instant.now()).toMillis() >= 1000) {
                busy |= ttlSweeper.sweep() > 0;
                lastSweep = Instant.now();
            }
            for (Source source : sources) {
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

    private void bindEventSources(String function) {
        Object events = template.properties(function).get("Events");
        if (events == null) {
            return;
        }
        SamTemplate.map(events, function + ".Events").forEach((eventId, value) -> {
            Map<String, Object> event = SamTemplate.map(value, function + ".Events." + eventId);
            String where = function + ".Events." + eventId;
            if (!"DynamoDB".equals(event.get("Type"))) {
                throw new TemplateException(where + ": event type " + event.get("Type") + " is not emulated (DynamoDB only)");
            }
            Map<String, Object> properties = SamTemplate.map(event.get("Properties"), where + ".Properties");
            if (!(properties.get("Stream") instanceof Map<?, ?> stream) || !(stream.get("Fn::GetAtt") instanceof List<?> parts)
                    || !"StreamArn".equals(parts.get(1))) {
                throw new TemplateException(where + ".Stream must be !GetAtt <Table>.StreamArn");
            }
            String table = names.get((String) parts.get(0));
            Machine filter = filter(properties, where);
            int batchSize = number(properties.get("BatchSize"), 100, where + ".BatchSize");
            int retries = number(properties.get("MaximumRetryAttempts"), 10000, where + ".MaximumRetryAttempts");
            boolean bisect = Boolean.TRUE.equals(properties.get("BisectBatchOnFunctionError"));
            boolean partial = properties.get("FunctionResponseTypes") instanceof List<?> types && types.contains("ReportBatchItemFailures");
            LocalFunction target = functions.get(function);
            StreamTail tail = new StreamTail(dynamoDb, streams, table);
            StreamEventSource mapping = new StreamEventSource(function, tail.streamArn(), filter, batchSize, retries, bisect,
                    (String batch) -> {
                        String answer = target.invoke(batch);
                        return partial ? batchItemFailures(answer) : new StreamsEventResponse(List.of());
                    }, out);
            sources.add(new Source(mapping, tail, table));
        });
    }

    /** The batch item failures of a function's answer, as Lambda reads a partial batch response. */
    private static StreamsEventResponse batchItemFailures(String answer) {
        List<StreamsEventResponse.BatchItemFailure> failures = new ArrayList<>();
        try {
            JsonNode response = JSON.readTree(answer);
            response.path("batchItemFailures").forEach(failure ->
                    failures.add(new StreamsEventResponse.BatchItemFailure(failure.path("itemIdentifier").asText())));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the function's answer is not JSON: " + e.getOriginalMessage(), e);
        }
        return new StreamsEventResponse(failures);
    }

    private Machine filter(Map<String, Object> properties, String where) {
        if (!(properties.get("FilterCriteria") instanceof Map<?, ?> criteria)) {
            return null;
        }
        Machine machine = new Machine();
        int n = 0;
        for (Object filter : (List<?>) criteria.get("Filters")) {
            String pattern = (String) ((Map<?, ?>) filter).get("Pattern");
            try {
                machine.addRule(where + "#" + n++, pattern);
            } catch (Exception e) {
                throw new TemplateException(where + ".FilterCriteria: pattern is not valid: " + e.getMessage());
            }
        }
        return machine;
    }

    private int number(Object value, int fallback, String where) {
        if (value == null) {
            return fallback;
        }
        return Integer.parseInt(TemplateEnvironment.resolve(value, template, names, where));
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
        if (poller != null) {
            poller.shutdownNow();
        }
        dispatcher.shutdownNow();
        if (bus != null) {
            bus.close();
        }
        if (lambdaApi != null) {
            lambdaApi.close();
        }
        if (dynamoDb != null) {
            dynamoDb.close();
        }
        if (streams != null) {
            streams.close();
        }
        dynamoDbLocal.close();
    }
}
