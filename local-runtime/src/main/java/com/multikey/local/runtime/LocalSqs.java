package com.multikey.local.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * An HTTP endpoint on loopback that speaks the SQS API as the AWS SDK v2 calls it (AWS JSON 1.0,
 * {@code X-Amz-Target: AmazonSQS.<Operation>}): {@code SendMessage}, {@code ReceiveMessage} with a visibility
 * timeout, {@code DeleteMessage}, {@code ChangeMessageVisibility}, {@code GetQueueUrl} and
 * {@code GetQueueAttributes} ({@code ApproximateNumberOfMessages}, {@code ...NotVisible}). It enforces the
 * limits of the SQS API reference and answers with its error codes.
 */
public final class LocalSqs implements AutoCloseable {

    /** SendMessage: the queue's {@code MaximumMessageSize} default (CreateQueue, SQS API reference); 1 MiB at most. */
    public static final int MAX_MESSAGE_BYTES = 262_144;
    /** ReceiveMessage {@code MaxNumberOfMessages}: 1 to 10 (SQS API reference). */
    public static final int MAX_RECEIVE = 10;
    /** ReceiveMessage / ChangeMessageVisibility {@code VisibilityTimeout}: 0 to 43,200 s, 12 hours (SQS API reference). */
    public static final int MAX_VISIBILITY_SECONDS = 43_200;
    /** ReceiveMessage {@code WaitTimeSeconds}: 0 to 20 (SQS API reference). */
    public static final int MAX_WAIT_SECONDS = 20;
    /** The queue's {@code VisibilityTimeout} default: 30 s (CreateQueue, SQS API reference). */
    public static final int DEFAULT_VISIBILITY_SECONDS = 30;
    /** A queue name: 1 to 80 alphanumerics, hyphens and underscores (CreateQueue, SQS API reference). */
    private static final String QUEUE_NAME = "[A-Za-z0-9_-]{1,80}";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ACCOUNT = "000000000000";

    private final HttpServer server;
    private final Clock clock;
    private final Map<String, List<Message>> queues = new LinkedHashMap<>();

    private static final class Message {
        final String id = UUID.randomUUID().toString();
        final String body;
        Instant visibleAt = Instant.EPOCH;
        String receiptHandle;
        /** Handles of earlier receives: DeleteMessage accepts them and deletes nothing. */
        final java.util.Set<String> earlierHandles = new java.util.HashSet<>();
        int receiveCount;

        Message(String body) {
            this.body = body;
        }
    }

    private LocalSqs(HttpServer server, Clock clock) {
        this.server = server;
        this.clock = clock;
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
    public synchronized String createQueue(String name) {
        if (!name.matches(QUEUE_NAME)) {
            throw new IllegalArgumentException("not a valid queue name: " + name);
        }
        queues.putIfAbsent(name, new ArrayList<>());
        return url(name);
    }

    public String url(String name) {
        return endpoint() + "/" + ACCOUNT + "/" + name;
    }

    public String arn(String name) {
        return "arn:aws:sqs:" + LocalDynamoDb.REGION.id() + ":" + ACCOUNT + ":" + name;
    }

    /** Sends as SendMessage does, from inside the runtime (an on-failure destination). */
    public synchronized void send(String name, String body) {
        List<Message> queue = queues.get(name);
        if (queue == null) {
            throw new IllegalArgumentException("no queue " + name);
        }
        String refusal = refusal(body);
        if (refusal != null) {
            throw new IllegalArgumentException(refusal);
        }
        queue.add(new Message(body));
    }

    /** The bodies of every message in the queue, visible or in flight. */
    public synchronized List<String> bodies(String name) {
        return queues.getOrDefault(name, List.of()).stream().map(m -> m.body).toList();
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private synchronized void handle(HttpExchange exchange) throws IOException {
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
                    default -> throw new Refused("UnsupportedOperation", operation + " is not served by the local SQS endpoint");
                });
            } catch (Refused e) {
                ObjectNode error = JSON.createObjectNode().put("__type", "com.amazonaws.sqs#" + e.code).put("message", e.getMessage());
                exchange.getResponseHeaders().add("x-amzn-query-error", e.code + ";Sender");
                respond(exchange, 400, error);
            }
        }
    }

    private static final class Refused extends Exception {
        final String code;

        Refused(String code, String message) {
            super(message);
            this.code = code;
        }
    }

    private ObjectNode sendMessage(JsonNode request) throws Refused {
        List<Message> queue = queue(request);
        String body = request.path("MessageBody").asText(null);
        if (body == null) {
            throw new Refused("MissingParameter", "The request must contain the parameter MessageBody.");
        }
        String refusal = refusal(body);
        if (refusal != null) {
            throw new Refused(refusal.startsWith("Invalid characters") ? "InvalidMessageContents" : "InvalidParameterValue", refusal);
        }
        Message message = new Message(body);
        queue.add(message);
        return JSON.createObjectNode().put("MessageId", message.id).put("MD5OfMessageBody", md5(body));
    }

    private ObjectNode receiveMessage(JsonNode request) throws Refused {
        List<Message> queue = queue(request);
        int max = request.path("MaxNumberOfMessages").asInt(1);
        if (max < 1 || max > MAX_RECEIVE) {
            throw new Refused("InvalidParameterValue", "Value " + max + " for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10, if provided.");
        }
        int wait = request.path("WaitTimeSeconds").asInt(0);
        if (wait < 0 || wait > MAX_WAIT_SECONDS) {
            throw new Refused("InvalidParameterValue", "Value " + wait + " for parameter WaitTimeSeconds is invalid. Reason: Must be >= 0 and <= 20, if provided.");
        }
        int visibility = visibility(request, DEFAULT_VISIBILITY_SECONDS);
        // messages are only ever added by calls answered before this one: waiting would find nothing new
        Instant now = clock.instant();
        ObjectNode response = JSON.createObjectNode();
        ArrayNode messages = response.putArray("Messages");
        for (Message message : queue) {
            if (messages.size() >= max) {
                break;
            }
            if (!message.visibleAt.isAfter(now)) {
                message.visibleAt = now.plusSeconds(visibility);
                if (message.receiptHandle != null) {
                    message.earlierHandles.add(message.receiptHandle);
                }
                message.receiptHandle = UUID.randomUUID() + "#" + message.id;
                message.receiveCount++;
                ObjectNode out = messages.addObject();
                out.put("MessageId", message.id).put("ReceiptHandle", message.receiptHandle).put("Body", message.body)
                        .put("MD5OfBody", md5(message.body));
                out.putObject("Attributes").put("ApproximateReceiveCount", String.valueOf(message.receiveCount));
            }
        }
        return response;
    }

    /**
     * DeleteMessage (SQS API reference): a handle that is no longer the latest (the message was received again
     * since) is accepted, "but the message might not be deleted": here it is not.
     */
    private ObjectNode deleteMessage(JsonNode request) throws Refused {
        List<Message> queue = queue(request);
        String handle = request.path("ReceiptHandle").asText("");
        if (queue.stream().anyMatch(m -> m.earlierHandles.contains(handle))) {
            return JSON.createObjectNode();
        }
        Message message = byReceiptHandle(queue, handle);
        queue.remove(message);
        return JSON.createObjectNode();
    }

    private ObjectNode changeVisibility(JsonNode request) throws Refused {
        List<Message> queue = queue(request);
        Message message = byReceiptHandle(queue, request.path("ReceiptHandle").asText(""));
        if (!message.visibleAt.isAfter(clock.instant())) {
            throw new Refused("MessageNotInflight", "The message is not in flight.");
        }
        message.visibleAt = clock.instant().plusSeconds(visibility(request, -1));
        return JSON.createObjectNode();
    }

    private ObjectNode getQueueUrl(JsonNode request) throws Refused {
        String name = request.path("QueueName").asText("");
        if (!queues.containsKey(name)) {
            throw new Refused("QueueDoesNotExist", "The specified queue does not exist.");
        }
        return JSON.createObjectNode().put("QueueUrl", url(name));
    }

    private ObjectNode getQueueAttributes(JsonNode request) throws Refused {
        List<Message> queue = queue(request);
        Instant now = clock.instant();
        long visible = queue.stream().filter(m -> !m.visibleAt.isAfter(now)).count();
        ObjectNode attributes = JSON.createObjectNode();
        attributes.put("ApproximateNumberOfMessages", String.valueOf(visible));
        attributes.put("ApproximateNumberOfMessagesNotVisible", String.valueOf(queue.size() - visible));
        attributes.put("VisibilityTimeout", String.valueOf(DEFAULT_VISIBILITY_SECONDS));
        attributes.put("MaximumMessageSize", String.valueOf(MAX_MESSAGE_BYTES));
        ObjectNode response = JSON.createObjectNode();
        response.set("Attributes", attributes);
        return response;
    }

    private List<Message> queue(JsonNode request) throws Refused {
        String url = request.path("QueueUrl").asText("");
        String name = url.substring(url.lastIndexOf('/') + 1);
        List<Message> queue = queues.get(name);
        if (queue == null) {
            throw new Refused("QueueDoesNotExist", "The specified queue does not exist.");
        }
        return queue;
    }

    private static Message byReceiptHandle(List<Message> queue, String handle) throws Refused {
        for (Message message : queue) {
            if (handle.equals(message.receiptHandle)) {
                return message;
            }
        }
        throw new Refused("ReceiptHandleIsInvalid", "The input receipt handle \"" + handle + "\" is not a valid receipt handle.");
    }

    private static int visibility(JsonNode request, int fallback) throws Refused {
        JsonNode value = request.get("VisibilityTimeout");
        if (value == null || value.isNull()) {
            if (fallback < 0) {
                throw new Refused("MissingParameter", "The request must contain the parameter VisibilityTimeout.");
            }
            return fallback;
        }
        int seconds = value.asInt();
        if (seconds < 0 || seconds > MAX_VISIBILITY_SECONDS) {
            throw new Refused("InvalidParameterValue", "Value " + seconds + " for parameter VisibilityTimeout is invalid. Reason: Must be between 0 and 43200.");
        }
        return seconds;
    }

    /** Why SendMessage refuses a body, or null. */
    private static String refusal(String body) {
        if (body.isEmpty()) {
            return "The message body must be at least one character.";
        }
        int bytes = body.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_MESSAGE_BYTES) {
            return "One or more parameters are invalid. Reason: Message must be shorter than " + MAX_MESSAGE_BYTES + " bytes.";
        }
        boolean allowed = body.codePoints().allMatch(c -> c == 0x9 || c == 0xA || c == 0xD || c >= 0x20 && c <= 0xD7FF
                || c >= 0xE000 && c <= 0xFFFD || c >= 0x10000 && c <= 0x10FFFF);
        return allowed ? null : "Invalid characters found in the message body (allowed: #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF).";
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
