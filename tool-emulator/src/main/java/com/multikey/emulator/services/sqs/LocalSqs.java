package com.multikey.emulator.services.sqs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.emulator.services.LoopbackServers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HexFormat;
import java.util.List;

/**
 * An HTTP endpoint on loopback that speaks the SQS API as the AWS SDK v2 calls it (AWS JSON 1.0,
 * {@code X-Amz-Target: AmazonSQS.<Operation>}): {@code SendMessage}, {@code ReceiveMessage} with a visibility
 * timeout, {@code DeleteMessage}, {@code ChangeMessageVisibility}, {@code GetQueueUrl} and
 * {@code GetQueueAttributes} ({@code ApproximateNumberOfMessages}, {@code ...NotVisible}). The queues behind it
 * ({@link SqsQueues}) enforce the limits of the SQS API reference; it answers their refusals with SQS's error codes.
 */
public final class LocalSqs implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ACCOUNT = "000000000000";

    private final HttpServer server;
    private final SqsQueues queues;

    private LocalSqs(HttpServer server, Clock clock) {
        this.server = server;
        this.queues = new SqsQueues(clock);
    }

    public static LocalSqs start() {
        return start("127.0.0.1", 0, Clock.systemUTC());
    }

    /** On {@code host} and {@code port} (0: any free one); visibility timeouts run on {@code clock}. */
    public static LocalSqs start(String host, int port, Clock clock) {
        try {
            HttpServer server = LoopbackServers.create(host, port);
            LocalSqs sqs = new LocalSqs(server, clock);
            server.createContext("/", sqs::handle);
            server.start();
            return sqs;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the local SQS endpoint", e);
        }
    }

    public URI endpoint() {
        String host = server.getAddress().getAddress().isAnyLocalAddress() ? "127.0.0.1" : server.getAddress().getHostString();
        return URI.create("http://" + host + ":" + server.getAddress().getPort());
    }

    /** Creates a queue (idempotent) and answers its URL. */
    public String createQueue(String name) {
        queues.create(name);
        return url(name);
    }

    String url(String name) {
        return endpoint() + "/" + ACCOUNT + "/" + name;
    }

    /** Sends as SendMessage does, from inside the runtime (an on-failure destination). */
    public void send(String name, String body) {
        queues.send(name, body);
    }

    /** The bodies of every message in the queue, visible or in flight. */
    public List<String> bodies(String name) {
        return queues.bodies(name);
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String target = String.valueOf(exchange.getRequestHeaders().getFirst("X-Amz-Target"));
            JsonNode request = JSON.readTree(exchange.getRequestBody());
            String operation = target.startsWith("AmazonSQS.") ? target.substring("AmazonSQS.".length()) : target;
            try {
                respond(exchange, 200, switch (operation) {
                    case "SendMessage" -> sendMessage(request);
                    case "ReceiveMessage" -> receiveMessage(request);
                    case "DeleteMessage" -> deleteMessage(request);
                    case "ChangeMessageVisibility" -> changeVisibility(request);
                    case "GetQueueUrl" -> getQueueUrl(request);
                    case "GetQueueAttributes" -> getQueueAttributes(request);
                    default -> throw new SqsQueues.Refused("UnsupportedOperation", operation + " is not served by the local SQS endpoint");
                });
            } catch (SqsQueues.Refused e) {
                ObjectNode error = JSON.createObjectNode().put("__type", "com.amazonaws.sqs#" + e.code).put("message", e.getMessage());
                exchange.getResponseHeaders().add("x-amzn-query-error", e.code + ";Sender");
                respond(exchange, 400, error);
            }
        }
    }

    private ObjectNode sendMessage(JsonNode request) throws SqsQueues.Refused {
        String body = request.path("MessageBody").asText(null);
        String id = queues.sendMessage(queueName(request), body);
        return JSON.createObjectNode().put("MessageId", id).put("MD5OfMessageBody", md5(body));
    }

    private ObjectNode receiveMessage(JsonNode request) throws SqsQueues.Refused {
        List<SqsQueues.Received> received = queues.receive(queueName(request), request.path("MaxNumberOfMessages").asInt(1),
                request.path("WaitTimeSeconds").asInt(0), visibility(request));
        ObjectNode response = JSON.createObjectNode();
        ArrayNode messages = response.putArray("Messages");
        for (SqsQueues.Received message : received) {
            ObjectNode out = messages.addObject();
            out.put("MessageId", message.messageId()).put("ReceiptHandle", message.receiptHandle()).put("Body", message.body())
                    .put("MD5OfBody", md5(message.body()));
            out.putObject("Attributes").put("ApproximateReceiveCount", String.valueOf(message.receiveCount()));
        }
        return response;
    }

    private ObjectNode deleteMessage(JsonNode request) throws SqsQueues.Refused {
        queues.delete(queueName(request), request.path("ReceiptHandle").asText(""));
        return JSON.createObjectNode();
    }

    private ObjectNode changeVisibility(JsonNode request) throws SqsQueues.Refused {
        queues.changeVisibility(queueName(request), request.path("ReceiptHandle").asText(""), visibility(request));
        return JSON.createObjectNode();
    }

    private ObjectNode getQueueUrl(JsonNode request) throws SqsQueues.Refused {
        String name = request.path("QueueName").asText("");
        queues.requireQueue(name);
        return JSON.createObjectNode().put("QueueUrl", url(name));
    }

    private ObjectNode getQueueAttributes(JsonNode request) throws SqsQueues.Refused {
        SqsQueues.Counts counts = queues.counts(queueName(request));
        ObjectNode attributes = JSON.createObjectNode();
        attributes.put("ApproximateNumberOfMessages", String.valueOf(counts.visible()));
        attributes.put("ApproximateNumberOfMessagesNotVisible", String.valueOf(counts.notVisible()));
        attributes.put("VisibilityTimeout", String.valueOf(SqsQueues.DEFAULT_VISIBILITY_SECONDS));
        attributes.put("MaximumMessageSize", String.valueOf(SqsQueues.MAX_MESSAGE_BYTES));
        ObjectNode response = JSON.createObjectNode();
        response.set("Attributes", attributes);
        return response;
    }

    /** The queue a request's {@code QueueUrl} names: its last path segment. */
    private static String queueName(JsonNode request) {
        String url = request.path("QueueUrl").asText("");
        return url.substring(url.lastIndexOf('/') + 1);
    }

    /** The request's {@code VisibilityTimeout}, or null when it has none. */
    private static Integer visibility(JsonNode request) {
        JsonNode value = request.get("VisibilityTimeout");
        return value == null || value.isNull() ? null : value.asInt();
    }

    private static String md5(String body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(body.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void respond(HttpExchange exchange, int status, JsonNode body) throws IOException {
        byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.0");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }
}
