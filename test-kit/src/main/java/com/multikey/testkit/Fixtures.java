package com.multikey.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.emulator.fixtures.GridSample;
import com.multikey.emulator.template.SamTemplate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The repository's {@code fixtures/} for tests: the design's grid sample and the external stream and EventBridge events. */
public final class Fixtures {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Fixtures() {
    }

    public static Path root() {
        return SamTemplate.findUp("fixtures");
    }

    /** The grid sample of the design: projects, issues and the order their index must give. */
    public static GridSample grid() {
        return GridSample.read(root());
    }

    /** The external DynamoDB stream events that parse as JSON (the malformed one is left out), in name order. */
    public static List<Path> externalStreamEvents() {
        try (Stream<Path> files = Files.walk(root().resolve("external"))) {
            return files.filter(f -> f.toString().endsWith(".json")).sorted().filter(Fixtures::isStreamEvent).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A fixture as the event Lambda delivers: a UTF-8 byte order mark dropped, and a single record (as some
     * fixtures hold) put in the {@code Records} envelope Lambda always sends.
     */
    public static String asLambdaEvent(Path fixture) {
        JsonNode root = readLenient(fixture);
        if (root.has("Records")) {
            return root.toString();
        }
        ObjectNode event = JSON.createObjectNode();
        event.putArray("Records").add(root);
        return event.toString();
    }

    /** Every record of every external stream event. */
    public static List<JsonNode> externalStreamRecords() {
        List<JsonNode> records = new ArrayList<>();
        for (Path fixture : externalStreamEvents()) {
            JsonNode root = readLenient(fixture);
            if (root.has("Records")) {
                root.get("Records").forEach(records::add);
            } else {
                records.add(root);
            }
        }
        return records;
    }

    private static boolean isStreamEvent(Path fixture) {
        try {
            JsonNode root = readLenient(fixture);
            return root.has("Records") ? root.get("Records").path(0).has("dynamodb") : root.has("dynamodb");
        } catch (UncheckedIOException malformed) {
            return false;
        }
    }

    private static JsonNode readLenient(Path file) {
        try {
            return JSON.readTree(Files.readString(file, StandardCharsets.UTF_8).replaceFirst("^\uFEFF", ""));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
