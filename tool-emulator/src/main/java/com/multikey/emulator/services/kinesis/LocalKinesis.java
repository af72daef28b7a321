package com.multikey.emulator.services.kinesis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.emulator.services.LoopbackServers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;

/**
 * An HTTP endpoint on loopback that speaks the Kinesis Data Streams API (AWS JSON 1.1, {@code X-Amz-Target:
 * Kinesis_20131202.<Operation>}) over {@link KinesisStreams}: {@code CreateStream}, {@code DescribeStream},
 * {@code DescribeStreamSummary}, {@code ListStreams}, {@code ListShards}, {@code PutRecord}, {@code PutRecords},
 * {@code GetShardIterator} and {@code GetRecords}: what a producer and an event source need. A stream is named by
 * {@code StreamName} or {@code StreamARN}. The AWS SDK for Java v2 speaks CBOR to Kinesis unless told not to
 * ({@code aws.cborEnabled=false}): this endpoint answers JSON only.
 */
public final class LocalKinesis implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TARGET_PREFIX = "Kinesis_20131202.";

    private final HttpServer server;
    private final KinesisStreams streams;
    private final Clock clock;

    private LocalKinesis(HttpServer server, KinesisStreams streams, Clock clock) {
        this.server = server;
        this.streams = streams;
        this.clock = clock;
    }

    /** On {@code host} and {@code port} (0: any free one). */
    public static LocalKinesis start(String host, int port, Clock clock, String region) {
        try {
            HttpServer server = LoopbackServers.create(host, port);
            LocalKinesis kinesis = new LocalKinesis(server, new KinesisStreams(clock, region), clock);
            server.createContext("/", kinesis::handle);
            server.setExecutor(Executors.newCachedThreadPool(LoopbackServers.daemonThreads("local-kinesis")));
            server.start();
            return kinesis;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the local Kinesis endpoint", e);
        }
    }

    public URI endpoint() {
        String host = server.getAddress().getAddress().isAnyLocalAddress() ? "127.0.0.1" : server.getAddress().getHostString();
        return URI.create("http://" + host + ":" + server.getAddress().getPort());
    }

    /** The streams behind the endpoint (the event sources read them in-process). */
    public KinesisStreams streams() {
        return streams;
    }

    private void handle(HttpExchange exchange) throws IOException {
        int status = 200;
        ObjectNode answer;
        try (exchange) {
            try {
                String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
                String contentType = String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type"));
                if (contentType.contains("cbor")) {
                    throw new KinesisError(400, "SerializationException", "the local Kinesis endpoint speaks AWS JSON 1.1 only: "
                            + "disable CBOR in the client (system property aws.cborEnabled=false or the environment variable CBOR_ENABLED=false)");
                }
                if (target == null || !target.startsWith(TARGET_PREFIX)) {
                    throw new KinesisError(400, "UnknownOperationException", "X-Amz-Target must be " + TARGET_PREFIX + "<Operation>");
                }
                byte[] body = exchange.getRequestBody().readAllBytes();
                JsonNode request = body.length == 0 ? JSON.createObjectNode() : JSON.readTree(body);
                answer = operation(target.substring(TARGET_PREFIX.length()), request);
            } catch (KinesisError e) {
                status = e.status;
                answer = JSON.createObjectNode().put("__type", e.type).put("message", e.getMessage());
            } catch (IOException | RuntimeException e) {
                status = e instanceof IOException ? 400 : 500;
                answer = JSON.createObjectNode().put("__type", e instanceof IOException ? "SerializationException" : "InternalFailure")
                        .put("message", String.valueOf(e.getMessage()));
            }
            byte[] bytes = JSON.writeValueAsBytes(answer);
            exchange.getResponseHeaders().set("Content-Type", "application/x-amz-json-1.1");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
        }
    }

    ObjectNode operation(String name, JsonNode request) {
        return switch (name) {
            case "CreateStream" -> createStream(request);
            case "DescribeStream" -> describeStream(request, false);
            case "DescribeStreamSummary" -> describeStream(request, true);
            case "ListStreams" -> listStreams();
            case "ListShards" -> listShards(request);
            case "PutRecord" -> putRecord(request);
            case "PutRecords" -> putRecords(request);
            case "GetShardIterator" -> getShardIterator(request);
            case "GetRecords" -> getRecords(request);
            default -> throw new KinesisError(400, "UnknownOperationException", "operation " + name + " is not served locally");
        };
    }

    private ObjectNode createStream(JsonNode request) {
        String name = required(request, "StreamName");
        boolean onDemand = "ON_DEMAND".equals(request.path("StreamModeDetails").path("StreamMode").asText());
        int shards = request.has("ShardCount") ? request.path("ShardCount").asInt() : onDemand ? 4 : 0;
        if (shards < 1) {
            throw new KinesisError(400, "ValidationException", "ShardCount is required for a PROVISIONED stream and must be at least 1");
        }
        if (!streams.create(name, shards)) {
            throw new KinesisError(400, "ResourceInUseException", "Stream " + name + " under account " + KinesisStreams.ACCOUNT + " already exists.");
        }
        return JSON.createObjectNode();
    }

    private ObjectNode describeStream(JsonNode request, boolean summary) {
        KinesisStreams.Stream stream = stream(request);
        ObjectNode answer = JSON.createObjectNode();
        ObjectNode description = answer.putObject(summary ? "StreamDescriptionSummary" : "StreamDescription");
        description.put("StreamName", stream.name()).put("StreamARN", stream.arn()).put("StreamStatus", "ACTIVE")
                .put("RetentionPeriodHours", 24).put("StreamCreationTimestamp", seconds(stream.created()))
                .put("EncryptionType", "NONE");
        description.putObject("StreamModeDetails").put("StreamMode", "PROVISIONED");
        description.putArray("EnhancedMonitoring").addObject().putArray("ShardLevelMetrics");
        if (summary) {
            description.put("OpenShardCount", stream.shards().size()).put("ConsumerCount", 0);
        } else {
            shards(description.putArray("Shards"), stream.shards());
            description.put("HasMoreShards", false);
        }
        return answer;
    }

    private ObjectNode listStreams() {
        ObjectNode answer = JSON.createObjectNode();
        ArrayNode names = answer.putArray("StreamNames");
        ArrayNode summaries = answer.putArray("StreamSummaries");
        for (KinesisStreams.Stream stream : streams.list()) {
            names.add(stream.name());
            summaries.addObject().put("StreamName", stream.name()).put("StreamARN", stream.arn()).put("StreamStatus", "ACTIVE")
                    .put("StreamCreationTimestamp", seconds(stream.created()));
        }
        answer.put("HasMoreStreams", false);
        return answer;
    }

    private ObjectNode listShards(JsonNode request) {
        ObjectNode answer = JSON.createObjectNode();
        String token = request.path("NextToken").asText(null);
        KinesisStreams.Stream stream = stream(token != null ? JSON.createObjectNode().put("StreamName", token) : request);
        shards(answer.putArray("Shards"), stream.shards());
        return answer;
    }

    private static void shards(ArrayNode array, List<KinesisStreams.Shard> shards) {
        for (KinesisStreams.Shard shard : shards) {
            ObjectNode node = array.addObject().put("ShardId", shard.id());
            node.putObject("HashKeyRange").put("StartingHashKey", shard.startingHashKey().toString())
                    .put("EndingHashKey", shard.endingHashKey().toString());
            node.putObject("SequenceNumberRange").put("StartingSequenceNumber", shard.startingSequenceNumber());
        }
    }

    private ObjectNode putRecord(JsonNode request) {
        KinesisStreams.Stream stream = stream(request);
        KinesisStreams.Shard[] shard = new KinesisStreams.Shard[1];
        KinesisStreams.Record record = streams.put(stream, partitionKey(request), data(request), shard);
        return JSON.createObjectNode().put("ShardId", shard[0].id()).put("SequenceNumber", record.sequenceNumber());
    }

    private ObjectNode putRecords(JsonNode request) {
        KinesisStreams.Stream stream = stream(request);
        JsonNode records = request.path("Records");
        if (!records.isArray() || records.isEmpty() || records.size() > 500) {
            throw new KinesisError(400, "ValidationException", "Records must hold 1 to 500 records");
        }
        ObjectNode answer = JSON.createObjectNode().put("FailedRecordCount", 0);
        ArrayNode results = answer.putArray("Records");
        for (JsonNode entry : records) {
            KinesisStreams.Shard[] shard = new KinesisStreams.Shard[1];
            KinesisStreams.Record record = streams.put(stream, partitionKey(entry), data(entry), shard);
            results.addObject().put("ShardId", shard[0].id()).put("SequenceNumber", record.sequenceNumber());
        }
        return answer;
    }

    private ObjectNode getShardIterator(JsonNode request) {
        KinesisStreams.Stream stream = stream(request);
        KinesisStreams.Shard shard = streams.shard(stream, required(request, "ShardId"))
                .orElseThrow(() -> new KinesisError(400, "ResourceNotFoundException", "Shard " + request.path("ShardId").asText()
                        + " in stream " + stream.name() + " under account " + KinesisStreams.ACCOUNT + " does not exist"));
        String type = required(request, "ShardIteratorType");
        int index;
        try {
            Instant timestamp = request.has("Timestamp") ? Instant.ofEpochMilli(new BigDecimal(request.path("Timestamp").asText())
                    .movePointRight(3).longValue()) : null;
            if (type.endsWith("SEQUENCE_NUMBER")) {
                required(request, "StartingSequenceNumber");
            }
            if (type.equals("AT_TIMESTAMP") && timestamp == null) {
                throw new KinesisError(400, "InvalidArgumentException", "Must specify timestampInMillis parameter for iterator of type AT_TIMESTAMP");
            }
            index = streams.startIndex(shard, type, request.path("StartingSequenceNumber").asText(null), timestamp);
        } catch (NumberFormatException e) {
            throw new KinesisError(400, "InvalidArgumentException", "StartingSequenceNumber is not a sequence number");
        } catch (IllegalArgumentException e) {
            throw new KinesisError(400, "ValidationException", e.getMessage());
        }
        return JSON.createObjectNode().put("ShardIterator", new KinesisStreams.Iterator(stream.name(), shard.id(), index).encode());
    }

    private ObjectNode getRecords(JsonNode request) {
        KinesisStreams.Iterator iterator = KinesisStreams.Iterator.decode(required(request, "ShardIterator"))
                .orElseThrow(() -> new KinesisError(400, "InvalidArgumentException", "Invalid ShardIterator"));
        int limit = request.has("Limit") ? request.path("Limit").asInt() : 10_000;
        if (limit < 1 || limit > 10_000) {
            throw new KinesisError(400, "ValidationException", "Limit must be between 1 and 10000");
        }
        KinesisStreams.Stream stream = streams.find(iterator.stream())
                .orElseThrow(() -> new KinesisError(400, "ResourceNotFoundException", "Stream " + iterator.stream() + " does not exist"));
        KinesisStreams.Shard shard = streams.shard(stream, iterator.shardId())
                .orElseThrow(() -> new KinesisError(400, "ResourceNotFoundException", "Shard " + iterator.shardId() + " does not exist"));
        KinesisStreams.Page page = streams.read(stream, shard, iterator, limit);
        ObjectNode answer = JSON.createObjectNode();
        ArrayNode records = answer.putArray("Records");
        for (KinesisStreams.Record record : page.records()) {
            records.addObject().put("SequenceNumber", record.sequenceNumber())
                    .put("ApproximateArrivalTimestamp", seconds(record.arrival()))
                    .put("Data", Base64.getEncoder().encodeToString(record.data()))
                    .put("PartitionKey", record.partitionKey());
        }
        answer.put("NextShardIterator", page.next().encode());
        answer.put("MillisBehindLatest", page.millisBehindLatest());
        return answer;
    }

    private KinesisStreams.Stream stream(JsonNode request) {
        String name = request.hasNonNull("StreamARN") ? request.path("StreamARN").asText() : request.path("StreamName").asText(null);
        if (name == null) {
            throw new KinesisError(400, "ValidationException", "StreamName or StreamARN must be given");
        }
        return streams.find(name).orElseThrow(() -> new KinesisError(400, "ResourceNotFoundException",
                "Stream " + name + " under account " + KinesisStreams.ACCOUNT + " not found."));
    }

    private static String partitionKey(JsonNode request) {
        String key = required(request, "PartitionKey");
        if (key.isEmpty() || key.length() > 256) {
            throw new KinesisError(400, "ValidationException", "PartitionKey must be 1 to 256 characters");
        }
        return key;
    }

    private static byte[] data(JsonNode request) {
        try {
            byte[] data = Base64.getDecoder().decode(required(request, "Data"));
            if (data.length > 1024 * 1024) {
                throw new KinesisError(400, "ValidationException", "Data must be at most 1 MiB");
            }
            return data;
        } catch (IllegalArgumentException e) {
            throw new KinesisError(400, "SerializationException", "Data is not base64");
        }
    }

    private static String required(JsonNode request, String member) {
        if (!request.hasNonNull(member)) {
            throw new KinesisError(400, "ValidationException", "1 validation error detected: Value null at '"
                    + Character.toLowerCase(member.charAt(0)) + member.substring(1) + "' failed to satisfy constraint: Member must not be null");
        }
        return request.path(member).asText();
    }

    private static BigDecimal seconds(Instant instant) {
        return BigDecimal.valueOf(instant.toEpochMilli()).movePointLeft(3);
    }

    /** Runs an operation in-process, as the endpoint would (tests, and the stack's own calls). */
    public JsonNode call(String operation, Map<String, ?> request) {
        return operation(operation, JSON.valueToTree(request));
    }

    Clock clock() {
        return clock;
    }

    @Override
    public void close() {
        server.stop(0);
    }

    /** An error answered as AWS JSON 1.1 does: {@code __type} and {@code message}. */
    static final class KinesisError extends RuntimeException {
        final int status;
        final String type;

        KinesisError(int status, String type, String message) {
            super(message);
            this.status = status;
            this.type = type;
        }
    }
}
