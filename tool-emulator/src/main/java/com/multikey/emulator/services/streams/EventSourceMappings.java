package com.multikey.emulator.services.streams;

import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.emulator.functions.LocalFunction;
import com.multikey.emulator.services.kinesis.KinesisStreams;
import com.multikey.emulator.services.sqs.LocalSqs;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateEnvironment;
import com.multikey.emulator.template.TemplateException;
import com.multikey.emulator.template.TemplateTables;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.event.ruler.Machine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The template's stream event sources ({@code AWS::Lambda::EventSourceMapping} resources, and SAM's {@code DynamoDB}
 * and {@code Kinesis} function events), read as Lambda's event source mappings read them: the table
 * stream (a table of the template's, or one that exists before it, by its stream ARN), {@code BatchSize}, {@code FilterCriteria} (event-ruler), {@code MaximumRetryAttempts},
 * {@code BisectBatchOnFunctionError}, {@code FunctionResponseTypes} and {@code ParallelizationFactor} (a
 * number, or {@code !Ref} to a parameter, resolved through its default or override like every other
 * property); each bound to {@link ConcurrentBatches} of that many {@link StreamEventSource} lanes.
 */
final class EventSourceMappings {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern KINESIS_ARN = Pattern.compile("arn:[^:]+:kinesis:[^:]*:[^:]*:stream/[^/]+(/consumer/.+)?");
    private static final Pattern SQS_ARN = Pattern.compile("arn:[^:]+:sqs:[^:]*:[^:]*:[^:]+");
    private static final String MAPPING_TYPE = "AWS::Lambda::EventSourceMapping";
    private static final String SERVERLESS_FUNCTION = "AWS::Serverless::Function";
    private static final Pattern STREAM_ARN = Pattern.compile("arn:[^:]+:dynamodb:[^:]*:[^:]*:table/([^/]+)/stream/.+");

    /** A bound mapping, the tail of the stream it reads, its table and the function it delivers to. */
    record Source(ConcurrentBatches mapping, StreamTail tail, String table, String function, FaultSwitch faults,
                  String startingPosition, int batchSize) {
    }

    /** A bound Kinesis mapping: the stream (or consumer) ARN it names and the function it delivers to. */
    record KinesisSource(KinesisMapping mapping, String function, FaultSwitch faults, String eventSourceArn,
                         String startingPosition, int batchSize) {
    }

    /** The faults of one mapping, replaceable while it runs. */
    static final class FaultSwitch implements InvocationFaults {
        private volatile InvocationFaults faults = InvocationFaults.NONE;

        void set(InvocationFaults faults) {
            this.faults = faults;
        }

        @Override
        public boolean failAfterInvoke(List<String> sequenceNumbers) {
            return faults.failAfterInvoke(sequenceNumbers);
        }
    }

    private final SamTemplate template;
    private final Map<String, String> names;
    private final DynamoDbClient dynamoDb;
    private final DynamoDbStreamsClient streams;
    private final Consumer<String> out;
    private final LocalSqs sqs;
    private final KinesisStreams kinesis;
    private final List<KinesisSource> kinesisSources = new ArrayList<>();

    EventSourceMappings(SamTemplate template, Map<String, String> names, DynamoDbClient dynamoDb,
                        DynamoDbStreamsClient streams, Consumer<String> out, LocalSqs sqs, KinesisStreams kinesis) {
        this.sqs = sqs;
        this.kinesis = kinesis;
        this.template = template;
        this.names = names;
        this.dynamoDb = dynamoDb;
        this.streams = streams;
        this.out = out;
    }

    /** The mappings of one function's {@code DynamoDB} and {@code Kinesis} events (SAM's), delivering to it. */
    List<Source> bind(String function, LocalFunction target) {
        List<Source> sources = new ArrayList<>();
        Object events = template.properties(function).get("Events");
        if (events == null) {
            return sources;
        }
        SamTemplate.map(events, function + ".Events").forEach((eventId, value) -> {
            Map<String, Object> event = SamTemplate.map(value, function + ".Events." + eventId);
            String where = function + ".Events." + eventId;
            if (!"DynamoDB".equals(event.get("Type")) && !"Kinesis".equals(event.get("Type"))) {
                throw new TemplateException(where + ": event type " + event.get("Type") + " is not emulated (DynamoDB and Kinesis only)");
            }
            Map<String, Object> properties = SamTemplate.map(event.get("Properties"), where + ".Properties");
            Source source = bindOne(function, target, properties, properties.get("Stream"), where, where + ".Stream");
            if (source != null) {
                sources.add(source);
            }
        });
        return sources;
    }

    /**
     * The template's {@code AWS::Lambda::EventSourceMapping} resources (those a deploy creates: their {@code Condition}
     * holds), each read as Lambda reads it: {@code EventSourceArn} a DynamoDB stream or a Kinesis data stream (or
     * enhanced fan-out consumer), {@code FunctionName} a function of the template, its alias SAM publishes
     * ({@code !Ref <function>.Alias}, {@code !Ref <function>Alias<name>}) or its ARN; the other properties as a SAM
     * stream event's, and {@code DestinationConfig.OnFailure.Destination} an SQS queue's ARN.
     */
    List<Source> bindResources(Map<String, LocalFunction> functions) {
        List<Source> sources = new ArrayList<>();
        for (String mapping : template.resourcesOfType(MAPPING_TYPE)) {
            Map<String, Object> properties = template.properties(mapping);
            String function = functionOf(properties.get("FunctionName"), mapping + ".FunctionName");
            LocalFunction target = functions.get(function);
            if (target == null) {
                throw new TemplateException(mapping + ".FunctionName: " + function + " is not a function the stack deploys");
            }
            Object stream = properties.get("EventSourceArn");
            checkAStream(stream, mapping + ".EventSourceArn");
            Source source = bindOne(function, target, properties, stream, mapping, mapping + ".EventSourceArn");
            if (source != null) {
                sources.add(source);
            }
        }
        return sources;
    }

    /** Refuses an event source the emulator does not serve (an SQS queue, a Kafka topic...), naming its service. */
    private void checkAStream(Object stream, String where) {
        if (stream instanceof Map<?, ?> map && map.get("Fn::GetAtt") instanceof List<?> parts && parts.size() == 2
                && template.resources().get(parts.get(0)) instanceof Map<?, ?> resource && TemplateTables.TABLE_TYPE.equals(resource.get("Type"))) {
            return;
        }
        String arn;
        try {
            arn = TemplateEnvironment.resolve(stream, template, names, where);
        } catch (IllegalArgumentException e) {
            throw new TemplateException(e.getMessage());
        }
        String[] parts = arn.split(":", 4);
        String service = parts.length > 2 ? parts[2] : arn;
        if (!service.equals("dynamodb") && !service.equals("kinesis")) {
            throw new TemplateException(where + ": an event source of " + service + " is not emulated (DynamoDB streams and Kinesis data streams only)");
        }
    }

    /** The function's logical id that an event source mapping's {@code FunctionName} names. */
    private String functionOf(Object functionName, String where) {
        if (functionName instanceof Map<?, ?> map && map.get("Fn::GetAtt") instanceof List<?> parts && parts.size() == 2
                && "Arn".equals(parts.get(1)) && isFunction(String.valueOf(parts.get(0)))) {
            return String.valueOf(parts.get(0));
        }
        if (functionName instanceof Map<?, ?> map && map.get("Ref") instanceof String ref) {
            if (isFunction(ref)) {
                return ref;
            }
            if (ref.endsWith(".Alias") && isFunction(ref.substring(0, ref.length() - ".Alias".length()))) {
                return ref.substring(0, ref.length() - ".Alias".length());
            }
            // the alias's logical id SAM generates: <function>Alias<AutoPublishAlias>
            for (String function : template.resourcesOfType(SERVERLESS_FUNCTION)) {
                Object alias = template.properties(function).get("AutoPublishAlias");
                if (alias != null && ref.equals(function + "Alias" + alias)) {
                    return function;
                }
            }
        }
        throw new TemplateException(where + " must name a function of the template (!Ref <function>, !Ref <function>.Alias or "
                + "!GetAtt <function>.Arn), not " + functionName);
    }

    private boolean isFunction(String logicalId) {
        return template.resources().get(logicalId) instanceof Map<?, ?> resource
                && (SERVERLESS_FUNCTION.equals(resource.get("Type")) || "AWS::Lambda::Function".equals(resource.get("Type")));
    }

    /**
     * One mapping of {@code function} on the stream {@code stream} names, with a SAM stream event's {@code properties}:
     * a DynamoDB stream's is returned, a Kinesis stream's is kept in {@link #kinesisSources()} (null returned).
     */
    private Source bindOne(String function, LocalFunction target, Map<String, Object> properties, Object stream, String where,
                           String streamWhere) {
        String kinesisArn = kinesisArn(stream, streamWhere);
        if (kinesisArn != null) {
            kinesisSources.add(bindKinesis(function, target, properties, kinesisArn, where));
            return null;
        }
        String table = streamTable(stream, streamWhere);
        Machine filter = filter(properties, where);
        int batchSize = number(properties.get("BatchSize"), 100, where + ".BatchSize");
        int retries = number(properties.get("MaximumRetryAttempts"), 10000, where + ".MaximumRetryAttempts");
        boolean bisect = Boolean.TRUE.equals(properties.get("BisectBatchOnFunctionError"));
        boolean partial = properties.get("FunctionResponseTypes") instanceof List<?> types && types.contains("ReportBatchItemFailures");
        int factor = number(properties.get("ParallelizationFactor"), 1, where + ".ParallelizationFactor");
        StreamTail tail = new StreamTail(dynamoDb, streams, table);
        FaultSwitch faults = new FaultSwitch();
        // every lane reports under the function's name: a line says what happened to a batch, not where
        ConcurrentBatches mapping = new ConcurrentBatches(function, factor, tail.partitionKey(), lane -> new StreamEventSource(function,
                tail.streamArn(), filter, batchSize, retries, bisect,
                (String batch) -> {
                    String answer = target.invoke(batch);
                    if (faults.failAfterInvoke(sequenceNumbers(batch))) {
                        throw new IllegalStateException("injected function error");
                    }
                    return partial ? batchItemFailures(answer) : new StreamsEventResponse(List.of());
                }, out, onFailure(properties, function, tail.streamArn(), where)));
        Object position = properties.get("StartingPosition");
        return new Source(mapping, tail, table, function, faults,
                position == null ? "LATEST" : TemplateEnvironment.resolve(position, template, names, where + ".StartingPosition"), batchSize);
    }

    /** The Kinesis mappings bound so far (by {@link #bind}). */
    List<KinesisSource> kinesisSources() {
        return List.copyOf(kinesisSources);
    }

    /**
     * The ARN of the Kinesis data stream (or enhanced fan-out consumer) {@code stream} names, or null when it names a
     * DynamoDB stream.
     */
    private String kinesisArn(Object stream, String where) {
        if (stream instanceof Map<?, ?> map && map.get("Fn::GetAtt") instanceof List<?> parts && parts.size() == 2
                && template.resources().get(parts.get(0)) instanceof Map<?, ?> resource
                && TemplateTables.TABLE_TYPE.equals(resource.get("Type"))) {
            return null;
        }
        String arn;
        try {
            arn = TemplateEnvironment.resolve(stream, template, names, where);
        } catch (IllegalArgumentException e) {
            throw new TemplateException(e.getMessage());
        }
        return KINESIS_ARN.matcher(arn).matches() ? arn : null;
    }

    /** A Kinesis event source: the stream's shards polled in-process, each shard's lanes delivering to the function. */
    private KinesisSource bindKinesis(String function, LocalFunction target, Map<String, Object> properties, String arn, String where) {
        if (kinesis == null) {
            throw new TemplateException(where + ": a Kinesis event source needs the local Kinesis endpoint");
        }
        KinesisStreams.Stream stream = kinesis.find(arn).orElseThrow(() -> new TemplateException(where + ": the Kinesis stream of "
                + arn + " does not exist locally (a stream the stack does not create must exist before it)"));
        int batchSize = number(properties.get("BatchSize"), 100, where + ".BatchSize");
        int retries = number(properties.get("MaximumRetryAttempts"), 10000, where + ".MaximumRetryAttempts");
        boolean bisect = Boolean.TRUE.equals(properties.get("BisectBatchOnFunctionError"));
        boolean partial = properties.get("FunctionResponseTypes") instanceof List<?> types && types.contains("ReportBatchItemFailures");
        int factor = number(properties.get("ParallelizationFactor"), 1, where + ".ParallelizationFactor");
        if (factor < ConcurrentBatches.MIN_PARALLELIZATION_FACTOR || factor > ConcurrentBatches.MAX_PARALLELIZATION_FACTOR) {
            throw new TemplateException(where + ".ParallelizationFactor: " + factor + " is outside Lambda's range 1 to 10");
        }
        if (properties.get("FilterCriteria") instanceof Map<?, ?>) {
            throw new TemplateException(where + ".FilterCriteria: filters on a Kinesis event source are not emulated");
        }
        Object position = properties.get("StartingPosition");
        String startingPosition = position == null ? "LATEST" : TemplateEnvironment.resolve(position, template, names, where + ".StartingPosition");
        KinesisEventSource.OnFailure onFailure = kinesisOnFailure(properties, function, where);
        FaultSwitch faults = new FaultSwitch();
        KinesisMapping mapping = new KinesisMapping(kinesis, stream, startingPosition, factor, (shardId, lane) -> new KinesisEventSource(
                function, arn, shardId, batchSize, retries, bisect, (String batch) -> {
                    String answer = target.invoke(batch);
                    if (faults.failAfterInvoke(kinesisSequenceNumbers(batch))) {
                        throw new IllegalStateException("injected function error");
                    }
                    return partial ? batchItemFailures(answer) : new StreamsEventResponse(List.of());
                }, out, onFailure));
        return new KinesisSource(mapping, function, faults, arn, startingPosition, batchSize);
    }

    private KinesisEventSource.OnFailure kinesisOnFailure(Map<String, Object> properties, String function, String where) {
        if (!(properties.get("DestinationConfig") instanceof Map<?, ?> config) || !(config.get("OnFailure") instanceof Map<?, ?> onFailure)) {
            return null;
        }
        String arn = sqsDestination(onFailure, where);
        String functionArn = TemplateEnvironment.resolve(Map.of("Fn::GetAtt", List.of(function, "Arn")), template, names, where);
        return new KinesisEventSource.OnFailure(sqs, arn.substring(arn.lastIndexOf(':') + 1), functionArn);
    }

    private static List<String> kinesisSequenceNumbers(String batch) {
        List<String> sequenceNumbers = new ArrayList<>();
        try {
            JSON.readTree(batch).path("Records").forEach(r -> sequenceNumbers.add(r.path("kinesis").path("sequenceNumber").asText()));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the batch is not JSON: " + e.getOriginalMessage(), e);
        }
        return sequenceNumbers;
    }

    /**
     * The table whose stream {@code stream} names: {@code !GetAtt <Table>.StreamArn} of a table of the template, or
     * a stream ARN (e.g. a parameter's) of a table that exists in the local DynamoDB engine with a stream; of that one the
     * latest stream is read, whatever label the ARN has (the engine labels a stream when it is enabled).
     */
    private String streamTable(Object stream, String where) {
        if (stream instanceof Map<?, ?> map && map.get("Fn::GetAtt") instanceof List<?> parts && parts.size() == 2) {
            boolean ofATable = template.resources().get(parts.get(0)) instanceof Map<?, ?> resource
                    && TemplateTables.TABLE_TYPE.equals(resource.get("Type"));
            if (!ofATable || !"StreamArn".equals(parts.get(1))) {
                throw new TemplateException(where + " must be !GetAtt <Table>.StreamArn of a table of the template, or a stream ARN");
            }
            return names.get((String) parts.get(0));
        }
        String arn;
        try {
            arn = TemplateEnvironment.resolve(stream, template, names, where);
        } catch (IllegalArgumentException e) {
            throw new TemplateException(e.getMessage());
        }
        Matcher matcher = STREAM_ARN.matcher(arn);
        if (!matcher.matches()) {
            throw new TemplateException(where + ": '" + arn + "' is not a DynamoDB stream ARN (arn:aws:dynamodb:<region>:<account>:table/<table>/stream/<label>)");
        }
        String table = matcher.group(1);
        TableDescription description;
        try {
            description = dynamoDb.describeTable(b -> b.tableName(table)).table();
        } catch (ResourceNotFoundException e) {
            throw new TemplateException(where + ": the stream ARN names table " + table + ", which does not exist in the local DynamoDB engine "
                    + "(a table the stack does not create must exist before it)");
        }
        if (description.latestStreamArn() == null || description.streamSpecification() == null
                || !Boolean.TRUE.equals(description.streamSpecification().streamEnabled())) {
            throw new TemplateException(where + ": table " + table + " has no stream enabled (StreamViewType NEW_AND_OLD_IMAGES)");
        }
        return table;
    }

    private static List<String> sequenceNumbers(String batch) {
        List<String> sequenceNumbers = new ArrayList<>();
        try {
            JSON.readTree(batch).path("Records").forEach(r -> sequenceNumbers.add(r.path("dynamodb").path("SequenceNumber").asText()));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the batch is not JSON: " + e.getOriginalMessage(), e);
        }
        return sequenceNumbers;
    }

    /** {@code DestinationConfig.OnFailure} of type SQS as a queue of the local SQS endpoint; none without one. */
    private OnFailureDestination onFailure(Map<String, Object> properties, String function, String streamArn, String where) {
        if (!(properties.get("DestinationConfig") instanceof Map<?, ?> config) || !(config.get("OnFailure") instanceof Map<?, ?> onFailure)) {
            return OnFailureDestination.NONE;
        }
        String arn = sqsDestination(onFailure, where);
        String functionArn = TemplateEnvironment.resolve(Map.of("Fn::GetAtt", List.of(function, "Arn")), template, names, where);
        return new StreamOnFailureRecord(streams, streamArn, functionArn, sqs, arn.substring(arn.lastIndexOf(':') + 1));
    }

    /**
     * The queue ARN of an on-failure destination: SAM's event names its {@code Type} SQS, an
     * {@code AWS::Lambda::EventSourceMapping} has no {@code Type} and its {@code Destination} is the queue's ARN.
     */
    private String sqsDestination(Map<?, ?> onFailure, String where) {
        if (onFailure.containsKey("Type") && !"SQS".equals(onFailure.get("Type"))) {
            throw new TemplateException(where + ".DestinationConfig.OnFailure: only Type SQS is emulated");
        }
        String arn = TemplateEnvironment.resolve(onFailure.get("Destination"), template, names, where + ".DestinationConfig.OnFailure.Destination");
        if (!SQS_ARN.matcher(arn).matches()) {
            throw new TemplateException(where + ".DestinationConfig.OnFailure.Destination: only an SQS queue is emulated, not " + arn);
        }
        return arn;
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
            String pattern = TemplateEnvironment.resolve(((Map<?, ?>) filter).get("Pattern"), template, names, where + ".Pattern");
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
}
