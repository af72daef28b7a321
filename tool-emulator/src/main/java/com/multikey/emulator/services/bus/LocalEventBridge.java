package com.multikey.emulator.services.bus;

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
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An HTTP endpoint on loopback that speaks EventBridge's PutEvents (JSON 1.1 protocol), validates calls and
 * entries as strictly as PutEvents does ({@link PutEventsValidation}: whole calls refused with
 * {@code ValidationException}, entries with AWS's error codes such as {@code MalformedDetail}), records what
 * it accepts, and rejects entries or whole calls as a test tells it to.
 */
public final class LocalEventBridge implements AutoCloseable {

    /** Decides, per call and entry, whether to reject: an error code, or empty to accept. */
    @FunctionalInterface
    public interface Faults {
        Optional<String> reject(int call, JsonNode entry);

        Faults NONE = (call, entry) -> Optional.empty();
    }

    /** Decides, per call, whether to fail it as a whole: an AWS error type (its HTTP status is AWS's), or empty. */
    @FunctionalInterface
    public interface CallFaults {
        Optional<String> reject(int call, JsonNode request);

        CallFaults NONE = (call, request) -> Optional.empty();
    }

    /** An accepted event as a rule sees it: the EventBridge envelope. */
    public record Received(int call, ObjectNode envelope) {
        public String detailType() {
            return envelope.get("detail-type").asText();
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final List<Integer> callSizes = new CopyOnWriteArrayList<>();
    private volatile Faults faults = Faults.NONE;
    private volatile CallFaults callFaults = CallFaults.NONE;
    private volatile PutEventsValidation validation = new PutEventsValidation(PutEventsValidation.DEFAULT_MAX_ENTRY_BYTES);
    private final List<java.util.function.Consumer<Received>> listeners = new CopyOnWriteArrayList<>();
    private volatile int throttledCallsLeft;

    private LocalEventBridge(HttpServer server) {
        this.server = server;
    }

    public static LocalEventBridge start() {
        return start("127.0.0.1", 0);
    }

    /** On {@code host} (an address to bind, e.g. 0.0.0.0 to be reachable from containers) and {@code port} (0: any free one). */
    public static LocalEventBridge start(String host, int port) {
        try {
            HttpServer server = LoopbackServers.create(host, port);
            LocalEventBridge bus = new LocalEventBridge(server);
            server.createContext("/", bus::handle);
            server.start();
            return bus;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the local EventBridge endpoint", e);
        }
    }

    public URI endpoint() {
        String host = server.getAddress().getAddress().isAnyLocalAddress() ? "127.0.0.1" : server.getAddress().getHostString();
        return URI.create("http://" + host + ":" + server.getAddress().getPort());
    }

    public void faults(Faults faults) {
        this.faults = faults;
    }

    /** Fails whole calls as the test says, after the throttled calls and before validation. */
    public void callFaults(CallFaults callFaults) {
        this.callFaults = callFaults;
    }

    /** The PutEvents entry size quota (default 256 KB; 1 MB where that quota applies): requests totalling it or more are refused. */
    public void maxEntryBytes(int maxEntryBytes) {
        this.validation = new PutEventsValidation(maxEntryBytes);
    }

    /** Called, on the endpoint's thread, with every accepted event before the call is answered; keep it quick. */
    void onAccepted(java.util.function.Consumer<Received> listener) {
        listeners.add(listener);
    }

    /** The next {@code calls} PutEvents calls fail as a whole with ThrottlingException. */
    public void throttleCalls(int calls) {
        this.throttledCallsLeft = calls;
    }

    /** Accepted events, in the order they arrived. */
    public List<Received> received() {
        return List.copyOf(received);
    }

    /** The number of entries of every PutEvents call that reached the endpoint, throttled ones included. */
    public List<Integer> callSizes() {
        return List.copyOf(callSizes);
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private synchronized void handle(HttpExchange exchange) throws IOException {
        int before = received.size();
        try (exchange) {
            String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
            JsonNode request = JSON.readTree(exchange.getRequestBody());
            if (!"AWSEvents.PutEvents".equals(target)) {
                respond(exchange, 400, error("UnknownOperationException", "only PutEvents is served here"));
                return;
            }
            int call = callSizes.size();
            callSizes.add(request.path("Entries").size());
            if (throttledCallsLeft > 0) {
                throttledCallsLeft--;
                respond(exchange, 400, error("ThrottlingException", "Rate exceeded"));
                return;
            }
            Optional<String> callFault = callFaults.reject(call, request);
            if (callFault.isPresent()) {
                respond(exchange, statusOf(callFault.get()), error(callFault.get(), "rejected by the local endpoint"));
                return;
            }
            Optional<PutEventsValidation.Refusal> invalid = validation.callRefusal(request);
            if (invalid.isPresent()) {
                respond(exchange, 400, error(invalid.get().code(), invalid.get().message()));
                return;
            }
            ObjectNode response = JSON.createObjectNode();
            ArrayNode results = response.putArray("Entries");
            int failed = 0;
            for (JsonNode entry : request.path("Entries")) {
                Optional<PutEventsValidation.Refusal> refusal = validation.entryRefusal(entry);
                Optional<String> rejection = refusal.isPresent() ? Optional.empty() : faults.reject(call, entry);
                if (refusal.isPresent()) {
                    failed++;
                    results.addObject().put("ErrorCode", refusal.get().code()).put("ErrorMessage", refusal.get().message());
                } else if (rejection.isPresent()) {
                    failed++;
                    results.addObject().put("ErrorCode", rejection.get()).put("ErrorMessage", "rejected by the local endpoint");
                } else {
                    ObjectNode envelope = envelope(entry);
                    received.add(new Received(call, envelope));
                    results.addObject().put("EventId", envelope.get("id").asText());
                }
            }
            response.put("FailedEntryCount", failed);
            // listeners learn of the events before the caller gets its answer, so nothing races past them
            for (Received event : received.subList(before, received.size())) {
                listeners.forEach(listener -> listener.accept(event));
            }
            respond(exchange, 200, response);
        }
    }

    /** The event as EventBridge delivers it to rules and targets. */
    static ObjectNode envelope(JsonNode entry) throws IOException {
        ObjectNode envelope = JSON.createObjectNode();
        envelope.put("version", "0");
        envelope.put("id", UUID.randomUUID().toString());
        envelope.put("detail-type", entry.path("DetailType").asText());
        envelope.put("source", entry.path("Source").asText());
        envelope.put("account", "000000000000");
        envelope.put("time", time(entry.path("Time")).toString());
        envelope.put("region", "us-east-1");
        envelope.set("resources", entry.has("Resources") ? entry.get("Resources") : JSON.createArrayNode());
        envelope.set("detail", JSON.readTree(entry.path("Detail").asText("{}")));
        return envelope;
    }

    private static Instant time(JsonNode time) {
        if (time.isNumber()) {
            BigDecimal seconds = time.decimalValue();
            return Instant.ofEpochSecond(seconds.longValue(), seconds.remainder(BigDecimal.ONE).movePointRight(9).longValue());
        }
        return time.isTextual() ? Instant.parse(time.asText()) : Instant.now();
    }

    /** AWS's HTTP status for an error type: 500 for internal failures, 503 when unavailable, else 400. */
    private static int statusOf(String type) {
        return switch (type) {
            case "InternalException", "InternalFailure", "InternalServerError" -> 500;
            case "ServiceUnavailable", "ServiceUnavailableException" -> 503;
            default -> 400;
        };
    }

    private static ObjectNode error(String type, String message) {
        return JSON.createObjectNode().put("__type", type).put("message", message);
    }

    private static void respond(HttpExchange exchange, int status, JsonNode body) throws IOException {
        byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.1");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

}
