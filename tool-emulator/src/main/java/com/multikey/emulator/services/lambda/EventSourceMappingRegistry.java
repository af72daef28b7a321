package com.multikey.emulator.services.lambda;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The event source mappings the local Lambda API lists: the template's own (the stream readers the stack deploys) and
 * those a caller creates with CreateEventSourceMapping (recorded only, never polled: a reader of someone else's, such as
 * the one a table already has before the stack is deployed). ListEventSourceMappings filters by {@code EventSourceArn}
 * and {@code FunctionName} and pages with {@code Marker} / {@code MaxItems} (at most 100 a page), as the API
 * reference says.
 */
final class EventSourceMappingRegistry {

    /** ListEventSourceMappings: "returns a maximum of 100 items in each response". */
    static final int MAX_ITEMS = 100;

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One mapping as ListEventSourceMappings describes it. */
    record Mapping(String uuid, String eventSourceArn, String functionArn, String state, String startingPosition, int batchSize) {
    }

    private final List<Mapping> mappings = new CopyOnWriteArrayList<>();

    Mapping add(String eventSourceArn, String functionArn, String startingPosition, int batchSize) {
        Mapping mapping = new Mapping(UUID.randomUUID().toString(), eventSourceArn, functionArn, "Enabled", startingPosition, batchSize);
        mappings.add(mapping);
        return mapping;
    }

    /** CreateEventSourceMapping: {@code EventSourceArn} and {@code FunctionName} required; answers 202 with the mapping. */
    LambdaApiResponse create(byte[] body) {
        JsonNode request;
        try {
            request = JSON.readTree(body);
        } catch (IOException e) {
            return LambdaApiResponse.error(400, "InvalidRequestContentException", "the request body is not JSON");
        }
        String source = request.path("EventSourceArn").asText("");
        String function = request.path("FunctionName").asText("");
        if (source.isEmpty() || function.isEmpty()) {
            return LambdaApiResponse.error(400, "InvalidParameterValueException", "EventSourceArn and FunctionName are required");
        }
        String functionArn = function.startsWith("arn:") ? function : "arn:aws:lambda:us-east-1:000000000000:function:" + function;
        Mapping mapping = add(source, functionArn, request.path("StartingPosition").asText("LATEST"), request.path("BatchSize").asInt(100));
        return json(202, describe(mapping));
    }

    /** ListEventSourceMappings, its query parameters as given. */
    LambdaApiResponse list(Map<String, String> query) {
        String source = query.get("EventSourceArn");
        String function = query.get("FunctionName");
        int start;
        int max;
        try {
            start = Integer.parseInt(query.getOrDefault("Marker", "0"));
            max = Math.min(MAX_ITEMS, Integer.parseInt(query.getOrDefault("MaxItems", "" + MAX_ITEMS)));
        } catch (NumberFormatException e) {
            return LambdaApiResponse.error(400, "InvalidParameterValueException", "Marker and MaxItems must be numbers here");
        }
        if (max < 1) {
            return LambdaApiResponse.error(400, "InvalidParameterValueException", "MaxItems must be between 1 and 10000");
        }
        List<Mapping> matching = new ArrayList<>();
        for (Mapping mapping : mappings) {
            if ((source == null || source.equals(mapping.eventSourceArn())) && (function == null || namesFunction(function, mapping))) {
                matching.add(mapping);
            }
        }
        ObjectNode answer = JSON.createObjectNode();
        ArrayNode page = answer.putArray("EventSourceMappings");
        int end = Math.min(matching.size(), start + max);
        for (int i = start; i < end; i++) {
            page.add(describe(matching.get(i)));
        }
        if (end < matching.size()) {
            answer.put("NextMarker", Integer.toString(end));
        }
        return json(200, answer);
    }

    private static boolean namesFunction(String function, Mapping mapping) {
        String arn = mapping.functionArn();
        String name = arn.substring(arn.indexOf(":function:") + ":function:".length());
        String unqualified = name.contains(":") ? name.substring(0, name.indexOf(':')) : name;
        return function.equals(arn) || function.equals(name) || function.equals(unqualified);
    }

    private static ObjectNode describe(Mapping mapping) {
        ObjectNode node = JSON.createObjectNode();
        node.put("UUID", mapping.uuid()).put("EventSourceArn", mapping.eventSourceArn()).put("FunctionArn", mapping.functionArn())
                .put("State", mapping.state()).put("StartingPosition", mapping.startingPosition()).put("BatchSize", mapping.batchSize());
        return node;
    }

    private static LambdaApiResponse json(int status, ObjectNode body) {
        return new LambdaApiResponse(status, Map.of("Content-Type", "application/json"), body.toString());
    }
}
