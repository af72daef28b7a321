package com.multikey.emulator;

import com.multikey.emulator.auth.LocalJwtIssuer;
import com.multikey.emulator.auth.SigV4Verifier;
import com.multikey.emulator.functions.LocalFunction;
import com.multikey.emulator.services.bus.BusDispatcher;
import com.multikey.emulator.services.bus.BusRules;
import com.multikey.emulator.services.bus.LocalEventBridge;
import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import com.multikey.emulator.services.http.LocalHttpApi;
import com.multikey.emulator.services.kinesis.KinesisDelivery;
import com.multikey.emulator.services.kinesis.KinesisFaults;
import com.multikey.emulator.services.kinesis.LocalKinesis;
import com.multikey.emulator.services.lambda.FunctionInvokeSettings;
import com.multikey.emulator.services.lambda.LocalLambdaApi;
import com.multikey.emulator.services.secrets.LocalSecretsManager;
import com.multikey.emulator.services.sqs.LocalSqs;
import com.multikey.emulator.services.streams.InvocationFaults;
import com.multikey.emulator.services.streams.StreamPolling;
import com.multikey.emulator.template.HttpApiRoutes;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateEnvironment;
import com.multikey.emulator.template.TemplateSecrets;
import com.multikey.emulator.template.TemplateTables;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * template.yaml running on this machine: starts the local endpoints, deploys the template's resources onto them
 * and owns them until {@link #close()}. Its tables are in the local DynamoDB engine, its functions run from their
 * deployable jars (each in its own class loader), its DynamoDB event source mappings poll the streams and TTL is
 * honoured within about a second ({@link StreamPolling}), its bus is a local PutEvents endpoint whose rules (matched
 * with event-ruler) invoke their target functions ({@link BusRules}, {@link BusDispatcher}), the Lambda API
 * (DeleteLayerVersion, and Invoke of any of its functions, synchronous or asynchronous, as
 * {@link FunctionInvokeSettings} reads them) is answered by a local endpoint that records the calls, and its
 * Secrets Manager secrets, generated as the template says into files made on first use, are served by a local
 * {@code GetSecretValue} endpoint.
 */
public final class TemplateRuntime implements AutoCloseable {

    private final SamTemplate template;
    private final SamTemplate deployed;
    private final LocalDynamoDb dynamoDbLocal;
    private final DynamoDbClient dynamoDb;
    private final LocalEventBridge bus;
    private final LocalLambdaApi lambdaApi;
    private final LocalSqs sqs;
    private final LocalSecretsManager secrets;
    private final LocalKinesis kinesis;
    private final KinesisDelivery kinesisDelivery;
    /** Where the secrets' files are; a temporary directory deleted at close unless given. */
    private final Path secretsDirectory;
    private final boolean temporarySecrets;
    private final Map<String, String> names = new LinkedHashMap<>();
    private final Map<String, LocalFunction> functions = new LinkedHashMap<>();
    private final DynamoDbStreamsClient streams;
    private final StreamPolling polling;
    private BusRules busRules;
    private BusDispatcher busDispatcher;
    private final Consumer<String> out;
    private final Map<String, String> functionEnvironment;
    private final List<LocalHttpApi> httpApis = new CopyOnWriteArrayList<>();

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
                           Map<String, String> functionEnvironment, Path secretsDirectory) {
        this.template = template;
        this.temporarySecrets = secretsDirectory == null;
        this.secretsDirectory = temporarySecrets ? temporarySecretsDirectory() : secretsDirectory;
        this.functionEnvironment = Map.copyOf(functionEnvironment);
        template.checkRules();
        this.deployed = template.deployed();
        this.out = out;
        this.dynamoDbLocal = LocalDynamoDb.start(ports.host(), ports.dynamoDb());
        try {
            this.dynamoDb = dynamoDbLocal.client();
            this.streams = dynamoDbLocal.streamsClient();
            this.polling = new StreamPolling(dynamoDb, out, () -> busDispatcher != null && busDispatcher.busy());
            this.bus = LocalEventBridge.start(ports.host(), ports.eventBridge());
            this.lambdaApi = LocalLambdaApi.start(ports.host(), ports.lambda());
            this.sqs = LocalSqs.start(ports.host(), ports.sqs(), Clock.systemUTC());
            this.secrets = LocalSecretsManager.start(ports.host(), 0);
            this.kinesis = LocalKinesis.start(ports.host(), 0, Clock.systemUTC(), LocalDynamoDb.REGION.id());
            this.kinesisDelivery = new KinesisDelivery(kinesis.streams());
            dynamoDbLocal.engine().kinesisSink(kinesisDelivery);
            existing.accept(dynamoDb);
            deployResources();
            connectFunctions();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private static Path temporarySecretsDirectory() {
        try {
            return Files.createTempDirectory("local-secrets");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a directory for the local secrets", e);
        }
    }

    /** The template's resources on the local endpoints, each under its physical name (its logical id unless named). */
    private void deployResources() {
        deployed.resources().keySet().forEach(id -> names.put(id, id));
        TemplateSecrets.create(deployed, secretsDirectory).forEach((id, file) -> secrets.put(names.get(id), file));
        deployed.resourcesOfType("AWS::SQS::Queue").forEach(sqs::createQueue);
        createKinesisStreams();
        names.putAll(TemplateTables.create(deployed, dynamoDb, names));
        nameEventBuses();
        watchTableTtl();
        loadFunctions();
    }

    /**
     * The template's {@code AWS::Kinesis::Stream} resources on the local Kinesis endpoint, each named after its logical
     * id: {@code ShardCount} shards, or 4 for an on-demand stream (the shards an on-demand stream starts with).
     */
    private void createKinesisStreams() {
        for (String streamId : deployed.resourcesOfType("AWS::Kinesis::Stream")) {
            Object shardCount = deployed.properties(streamId).get("ShardCount");
            int shards = shardCount == null ? 4 : Integer.parseInt(TemplateEnvironment.resolve(shardCount, deployed, names, streamId + ".ShardCount"));
            kinesis.streams().create(names.get(streamId), shards);
        }
    }

    /** An {@code AWS::Events::EventBus} with a {@code Name} is known by that name. */
    private void nameEventBuses() {
        for (String busId : deployed.resourcesOfType("AWS::Events::EventBus")) {
            Object name = deployed.properties(busId).get("Name");
            if (name != null) {
                names.put(busId, TemplateEnvironment.resolve(name, deployed, names, busId + ".Name"));
            }
        }
    }

    /** The template's tables whose {@code TimeToLiveSpecification} is enabled have their expired items deleted. */
    private void watchTableTtl() {
        for (String table : deployed.resourcesOfType(TemplateTables.TABLE_TYPE)) {
            if (deployed.properties(table).get("TimeToLiveSpecification") instanceof Map<?, ?> ttl
                    && Boolean.TRUE.equals(ttl.get("Enabled"))) {
                polling.watchTtl(names.get(table), (String) ttl.get("AttributeName"));
            }
        }
    }

    /** Each function from its deployable jar, with its environment as deployed (see {@link #environment}). */
    private void loadFunctions() {
        for (String function : deployed.resourcesOfType("AWS::Serverless::Function")) {
            functions.put(function, LocalFunction.create(deployed, function, environment(function)));
        }
    }

    /**
     * Connects the functions to what invokes them: the Lambda API (Invoke), the streams (each event source mapping
     * polled) and the bus (each accepted event handed to the rules); what they give up on goes to the template's queues.
     */
    private void connectFunctions() {
        functions.forEach((function, target) -> lambdaApi.register(target,
                FunctionInvokeSettings.invocableNames(deployed, function, names),
                FunctionInvokeSettings.asyncSettings(deployed, function, names, sqs::send)));
        polling.bind(deployed, names, streams, sqs, functions, kinesis.streams(), kinesisDelivery);
        // ListEventSourceMappings lists the stack's stream readers, bound to the alias SAM publishes when it has one
        for (StreamPolling.Reader reader : polling.readers()) {
            String arn = TemplateEnvironment.resolve(Map.of("Fn::GetAtt", List.of(reader.function(), "Arn")), deployed, names,
                    reader.function() + ".Arn");
            Object alias = deployed.properties(reader.function()).get("AutoPublishAlias");
            lambdaApi.addEventSourceMapping(reader.streamArn(), alias == null ? arn : arn + ":" + alias, reader.startingPosition(),
                    reader.batchSize());
        }
        this.busRules = new BusRules(deployed, names, functions, out, sqs::send);
        this.busDispatcher = new BusDispatcher(bus, busRules);
    }

    /** The template as given (its parameter values included). */
    public SamTemplate template() {
        return template;
    }

    /** The template as deployed with its parameter values: see {@link SamTemplate#deployed()}. */
    public SamTemplate deployed() {
        return deployed;
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

    /** The local Kinesis endpoint: the template's data streams, the table's Kinesis streaming destination writing into them. */
    public LocalKinesis kinesis() {
        return kinesis;
    }

    /**
     * What the table's Kinesis streaming destinations do to its changes from now on (duplicates, reordering within a
     * window: see {@link KinesisFaults}); {@link KinesisFaults#NONE} to stop.
     */
    public void kinesisFaults(KinesisFaults faults) {
        kinesisDelivery.faults(faults);
    }

    /** How many changes the Kinesis streaming destinations have put twice so far. */
    public long kinesisDuplicates() {
        return kinesisDelivery.duplicates();
    }

    /** The physical name of each resource, by logical id. */
    public Map<String, String> names() {
        return Collections.unmodifiableMap(names);
    }

    /** The template's function ids. */
    public Set<String> functionIds() {
        return Collections.unmodifiableSet(functions.keySet());
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
        Map<String, String> environment = new HashMap<>(TemplateEnvironment.forLocalRun(deployed, function, names, Map.of(
                "DYNAMODB", dynamoDbLocal.endpoint(), "DYNAMODB_STREAMS", dynamoDbLocal.endpoint(), "EVENTBRIDGE", bus.endpoint(),
                "LAMBDA", lambdaApi.endpoint(), "SQS", sqs.endpoint(), "SECRETS_MANAGER", secrets.endpoint(),
                "KINESIS", kinesis.endpoint())));
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
    public LocalHttpApi serveHttpApi(String api, String host, int port, Optional<LocalJwtIssuer> tokens) {
        HttpApiRoutes routes = HttpApiRoutes.of(deployed, api, names);
        LocalHttpApi served = LocalHttpApi.start(routes, this::function,
                new SigV4Verifier(Map.of(LocalDynamoDb.ACCESS_KEY, LocalDynamoDb.SECRET_KEY), LocalDynamoDb.REGION.id(), "execute-api", Clock.systemUTC()),
                tokens, Clock.systemUTC(), out, host, port);
        httpApis.add(served);
        return served;
    }

    /** Starts polling the streams (every 200 ms) and expiring items whose TTL has passed (every second). */
    public void startPolling() {
        polling.start();
    }

    /** Waits until the streams are drained, every batch delivered and every routed event handled. */
    public boolean awaitQuiet(Duration timeout) throws InterruptedException {
        polling.resetQuietPolls();
        Instant end = Instant.now().plus(timeout);
        while (Instant.now().isBefore(end)) {
            // 7 polls of 200 ms span more than the 1 s TTL sweep, so a quiet spell has seen a sweep
            if (polling.quietPolls() >= 7 && !busDispatcher.busy()) {
                return true;
            }
            Thread.sleep(100);
        }
        return false;
    }

    /** The on-failure destinations' contents, by function. */
    public Map<String, List<List<String>>> onFailure() {
        return polling.onFailure();
    }

    /**
     * Makes the event source mappings of {@code function} answer a delivery as a function error after the
     * function ran, when {@code faults} says so for the batch's sequence numbers (fault injection for tests;
     * {@link InvocationFaults#NONE} to stop).
     */
    public void invocationFaults(String function, InvocationFaults faults) {
        function(function);
        polling.invocationFaults(function, faults);
    }

    /** Waits for the bus's targets only (for a single invoke). */
    public void awaitDispatch(Duration timeout) throws InterruptedException {
        busDispatcher.awaitIdle(timeout);
    }

    @Override
    public void close() {
        httpApis.forEach(LocalHttpApi::close);
        if (polling != null) {
            polling.close();
        }
        if (busDispatcher != null) {
            busDispatcher.close();
        }
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
        if (kinesis != null) {
            kinesis.close();
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
    public Path secretsDirectory() {
        return secretsDirectory;
    }

    private void deleteSecrets() {
        try (var files = Files.list(secretsDirectory)) {
            for (Path file : files.toList()) {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(secretsDirectory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the local secrets in " + secretsDirectory, e);
        }
    }
}
