package com.multikey.local;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.common.PlainJson;
import com.multikey.local.support.LocalDynamoDb;
import com.multikey.local.support.LocalEventBridge;
import com.multikey.local.support.LocalLambdaApi;
import com.multikey.local.support.SamTemplate;
import com.multikey.local.support.StreamTail;
import com.multikey.local.support.TemplateEnvironment;
import com.multikey.local.support.TemplateTables;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.Identity;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.event.ruler.Machine;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
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
final class TemplateRuntime implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Identity TTL_IDENTITY = Identity.builder().type("Service").principalId("dynamodb.amazonaws.com").build();
    private static final int LOCAL_MAX_TARGET_ATTEMPTS = 3;

    /** One event the bus accepted, the rules it matched, and what their targets answered. */
    record RoutedEvent(String detailType, List<String> rules) {
    }

    /** One rule-target invocation and its answer (or error). */
    record TargetCall(String rule, String function, String result) {
    }

    private record Source(StreamEventSource mapping, StreamTail tail, String table) {
    }

    private record Rule(String logicalId, List<String> targets) {
    }

    /** A table with TTL on: its name, TTL attribute and key attributes. */
    private record TtlTable(String name, String ttlAttribute, List<String> keyAttributes) {
    }

    final SamTemplate template;
    final LocalDynamoDb dynamoDbLocal;
    final DynamoDbClient dynamoDb;
    final LocalEventBridge bus;
    final LocalLambdaApi lambdaApi;
    final Map<String, String> names = new LinkedHashMap<>();
    final Map<String, LocalFunction> functions = new LinkedHashMap<>();
    final List<RoutedEvent> routed = new CopyOnWriteArrayList<>();
    final List<TargetCall> targetCalls = new CopyOnWriteArrayList<>();
    private final DynamoDbStreamsClient streams;
    private final Consumer<String> out;
    private final List<Source> sources = new ArrayList<>();
    private final List<Rule> rules = new ArrayList<>();
    private final Machine ruleMachine = new Machine();
    private final List<TtlTable> ttlTables = new ArrayList<>();
    private final Map<String, String> expiredKeys = new ConcurrentHashMap<>();
    private final ExecutorService dispatcher = Executors.newSingleThreadExecutor(daemon("local-bus"));
    private final AtomicInteger dispatching = new AtomicInteger();
    private ScheduledExecutorService poller;
    private volatile boolean closing;
    private volatile int quietCycles;
    private Instant lastSweep = Instant.EPOCH;

    /** Ports of the local endpoints (0: any free one) and the address they listen on. */
    record Ports(String host, int dynamoDb, int eventBridge, int lambda) {
    }

    TemplateRuntime(SamTemplate template, int port, Consumer<String> out) {
        this(template, new Ports("127.0.0.1", port, 0, 0), out);
    }

    TemplateRuntime(SamTemplate template, Ports ports, Consumer<String> out) {
        int port = ports.dynamoDb();
        this.template = template;
        this.out = out;
        this.dynamoDbLocal = port == 0 ? LocalDynamoDb.start() : LocalDynamoDb.start(port);
        try {
            this.dynamoDb = dynamoDbLocal.client();
            this.streams = dynamoDbLocal.streamsClient();
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
                    ttlTables.add(new TtlTable(names.get(table), (String) ttl.get("AttributeName"), keyAttributes(names.get(table))));
                }
            }
            for (String function : template.resourcesOfType("AWS::Serverless::Function")) {
                functions.put(function, LocalFunction.create(template, function, environment(function)));
            }
            for (String function : functions.keySet()) {
                bindEventSources(function);
            }
            for (String rule : template.resourcesOfType("AWS::Events::Rule")) {
                bindRule(rule);
            }
            bus.onAccepted(event -> {
                dispatching.incrementAndGet();
                dispatcher.submit(() -> {
                    try {
                        route(event);
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

    /** A function's environment as deployed, its AWS endpoints pointed at the local ones. */
    Map<String, String> environment(String function) {
        return TemplateEnvironment.forLocalRun(template, function, names, Map.of(
                "DYNAMODB", dynamoDbLocal.endpoint(), "EVENTBRIDGE", bus.endpoint(), "LAMBDA", lambdaApi.endpoint()));
    }

    String table(String logicalId) {
        return names.get(logicalId);
    }

    LocalFunction function(String logicalId) {
        LocalFunction function = functions.get(logicalId);
        if (function == null) {
            throw new IllegalArgumentException("template.yaml has no function '" + logicalId + "' (functions: "
                    + String.join(", ", functions.keySet()) + ")");
        }
        return function;
    }

    /** Starts polling the streams (every 200 ms) and expiring items whose TTL has passed (every second). */
    void startPolling() {
        poller = Executors.newSingleThreadScheduledExecutor(daemon("local-streams"));
        poller.scheduleWithFixedDelay(this::pollOnce, 0, 200, TimeUnit.MILLISECONDS);
    }

    /** Waits until the streams are drained, every batch delivered and every routed event handled. */
    boolean awaitQuiet(Duration timeout) throws InterruptedException {
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
    Map<String, List<List<String>>> onFailure() {
        Map<String, List<List<String>>> failures = new LinkedHashMap<>();
        for (int i = 0; i < sources.size(); i++) {
            failures.put(sources.get(i).table() + "#" + i, sources.get(i).mapping().onFailure());
        }
        return failures;
    }

    /** Waits for the bus's targets only (for a single invoke). */
    void awaitDispatch(Duration timeout) throws InterruptedException {
        Instant end = Instant.now().plus(timeout);
        while (dispatching.get() > 0 && Instant.now().isBefore(end)) {
            Thread.sleep(50);
        }
    }

    private synchronized void pollOnce() {
        try {
            boolean busy = false;
            if (Duration.between(lastSweep, Instant.now()).toMillis() >= 1000) {
                busy |= sweepExpired() > 0;
                lastSweep = Instant.now();
            }
            for (Source source : sources) {
                List<Record> records = source.tail().poll().stream().map(r -> withTtlIdentity(source.table(), r)).toList();
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

    /**
     * Deletes items whose TTL attribute is in the past, as DynamoDB's TTL process does (DynamoDB Local does
     * too, but only after seconds to minutes). Their REMOVE records get the TTL process's userIdentity, so
     * they look as on AWS.
     */
    int sweepExpired() {
        int expired = 0;
        long now = Instant.now().getEpochSecond();
        for (TtlTable table : ttlTables) {
            Map<String, String> ttlName = Map.of("#ttl", table.ttlAttribute());
            Map<String, AttributeValue> values = Map.of(":now", AttributeValue.fromN(Long.toString(now)));
            for (Map<String, AttributeValue> item : dynamoDb.scanPaginator(b -> b.tableName(table.name())
                    .filterExpression("#ttl < :now").expressionAttributeNames(ttlName).expressionAttributeValues(values)).items()) {
                Map<String, AttributeValue> key = new LinkedHashMap<>();
                table.keyAttributes().forEach(k -> key.put(k, item.get(k)));
                String keyJson = table.name() + " " + PlainJson.of(key);
                expiredKeys.put(keyJson, "");
                try {
                    dynamoDb.deleteItem(b -> b.tableName(table.name()).key(key).conditionExpression("#ttl < :now")
                            .expressionAttributeNames(ttlName).expressionAttributeValues(values));
                    expired++;
                    out.accept("TTL: expired " + PlainJson.of(key) + " in " + table.name());
                } catch (ConditionalCheckFailedException changed) {
                    expiredKeys.remove(keyJson);
                }
            }
        }
        return expired;
    }

    private Record withTtlIdentity(String table, Record record) {
        if (record.eventName() != OperationType.REMOVE || record.userIdentity() != null) {
            return record;
        }
        String keyJson = table + " " + PlainJson.of(record.dynamodb().keys());
        String bound = expiredKeys.get(keyJson);
        if (bound == null) {
            return record;
        }
        if (bound.isEmpty()) {
            expiredKeys.put(keyJson, record.dynamodb().sequenceNumber());
        } else if (!bound.equals(record.dynamodb().sequenceNumber())) {
            return record;
        }
        return record.toBuilder().userIdentity(TTL_IDENTITY).build();
    }

    private List<String> keyAttributes(String table) {
        return dynamoDb.describeTable(b -> b.tableName(table)).table().keySchema().stream()
                .map(k -> k.attributeName()).toList();
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
                    (DynamodbEvent batch) -> {
                        Object response = target.invoke(batch);
                        return partial && response instanceof StreamsEventResponse r ? r : new StreamsEventResponse(List.of());
                    }, out);
            sources.add(new Source(mapping, tail, table));
        });
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

    private void bindRule(String logicalId) {
        Map<String, Object> properties = template.properties(logicalId);
        Object pattern = TemplateEnvironment.resolveAll(properties.get("EventPattern"), template, names, logicalId + ".EventPattern");
        try {
            ruleMachine.addRule(logicalId, JSON.writeValueAsString(pattern));
        } catch (Exception e) {
            throw new TemplateException(logicalId + ".EventPattern is not a valid pattern: " + e.getMessage());
        }
        List<String> targets = new ArrayList<>();
        for (Object target : (List<?>) properties.getOrDefault("Targets", List.of())) {
            Object arn = ((Map<?, ?>) target).get("Arn");
            if (!(arn instanceof Map<?, ?> getAtt) || !(getAtt.get("Fn::GetAtt") instanceof List<?> parts)
                    || !functions.containsKey((String) parts.get(0))) {
                throw new TemplateException(logicalId + ".Targets: only !GetAtt <Function>.Arn targets are emulated");
            }
            targets.add((String) parts.get(0));
        }
        rules.add(new Rule(logicalId, targets));
    }

    private void route(LocalEventBridge.Received event) {
        List<String> matched;
        try {
            matched = ruleMachine.rulesForJSONEvent(event.envelope().toString());
        } catch (Exception e) {
            out.accept("bus: event could not be matched: " + e.getMessage());
            return;
        }
        routed.add(new RoutedEvent(event.detailType(), List.copyOf(matched)));
        out.accept("bus: " + event.detailType() + " " + event.envelope().path("detail").path("keys")
                + (matched.isEmpty() ? " (no rule matched)" : " -> " + String.join(", ", matched)));
        for (Rule rule : rules) {
            if (!matched.contains(rule.logicalId())) {
                continue;
            }
            for (String target : rule.targets()) {
                invokeTarget(rule.logicalId(), functions.get(target), event);
            }
        }
    }

    private void invokeTarget(String rule, LocalFunction function, LocalEventBridge.Received event) {
        for (int attempt = 1; ; attempt++) {
            try {
                Object result = function.invoke(function.readEvent(event.envelope().toString()));
                targetCalls.add(new TargetCall(rule, function.logicalId(), String.valueOf(result)));
                out.accept("  " + function.logicalId() + ": " + result);
                return;
            } catch (RuntimeException e) {
                if (attempt >= LOCAL_MAX_TARGET_ATTEMPTS) {
                    targetCalls.add(new TargetCall(rule, function.logicalId(), "failed: " + e.getMessage()));
                    out.accept("  " + function.logicalId() + " failed " + attempt + " times; sent to the dead-letter queue: " + e.getMessage());
                    return;
                }
                sleep(Duration.ofMillis(200L * attempt));
            }
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
