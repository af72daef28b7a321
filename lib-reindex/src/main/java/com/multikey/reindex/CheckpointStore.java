package com.multikey.reindex;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Where each scan segment of a backfill got to, in a JSON file rewritten atomically after every page, so an
 * interrupted backfill resumes where it stopped. A segment is either at a start key or done; a start key's
 * attributes keep their type (S, N or B).
 */
public final class CheckpointStore {

    /** A segment's position: {@code done}, or the key to continue after (empty: from the start). */
    public record Position(boolean done, Map<String, AttributeValue> startKey) {
        static final Position START = new Position(false, Map.of());
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;
    private final int segments;
    private final Map<Integer, Position> positions = new HashMap<>();

    private CheckpointStore(Path file, int segments) {
        this.file = file;
        this.segments = segments;
    }

    /** Loads the file when it exists (it must be for the same number of segments), else starts afresh. */
    public static CheckpointStore open(Path file, int segments) {
        CheckpointStore store = new CheckpointStore(file, segments);
        if (file != null && Files.exists(file)) {
            try {
                JsonNode root = JSON.readTree(file.toFile());
                if (root.path("segments").asInt() != segments) {
                    throw new IllegalArgumentException("checkpoint " + file + " is for " + root.path("segments").asInt()
                            + " segments, not " + segments + "; resume with the same --segments or delete it");
                }
                root.path("positions").fields().forEachRemaining(entry -> {
                    JsonNode position = entry.getValue();
                    Map<String, AttributeValue> key = new LinkedHashMap<>();
                    position.path("startKey").fields().forEachRemaining(k -> key.put(k.getKey(), keyValue(k.getValue())));
                    store.positions.put(Integer.parseInt(entry.getKey()), new Position(position.path("done").asBoolean(), key));
                });
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read checkpoint " + file, e);
            }
        }
        return store;
    }

    /** A key attribute as saved: {@code {"S": …}}, {@code {"N": …}} or {@code {"B": base64}}; a plain string (older files) is S. */
    private static AttributeValue keyValue(JsonNode saved) {
        if (saved.isTextual()) {
            return AttributeValue.fromS(saved.asText());
        }
        if (saved.has("N")) {
            return AttributeValue.fromN(saved.get("N").asText());
        }
        if (saved.has("B")) {
            return AttributeValue.fromB(software.amazon.awssdk.core.SdkBytes.fromByteArray(java.util.Base64.getDecoder().decode(saved.get("B").asText())));
        }
        return AttributeValue.fromS(saved.path("S").asText());
    }

    public synchronized Position position(int segment) {
        return Optional.ofNullable(positions.get(segment)).orElse(Position.START);
    }

    public synchronized void save(int segment, Position position) {
        positions.put(segment, position);
        if (file == null) {
            return;
        }
        ObjectNode root = JSON.createObjectNode();
        root.put("segments", segments);
        ObjectNode all = root.putObject("positions");
        positions.forEach((s, p) -> {
            ObjectNode node = all.putObject(Integer.toString(s));
            node.put("done", p.done());
            ObjectNode key = node.putObject("startKey");
            p.startKey().forEach((name, value) -> {
                ObjectNode typed = key.putObject(name);
                switch (value.type()) {
                    case S -> typed.put("S", value.s());
                    case N -> typed.put("N", value.n());
                    case B -> typed.put("B", java.util.Base64.getEncoder().encodeToString(value.b().asByteArray()));
                    default -> throw new IllegalStateException("a key attribute is S, N or B; found " + name + " of type " + value.type());
                }
            });
        });
        try {
            Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(temporary, root.toString());
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write checkpoint " + file, e);
        }
    }

    public synchronized boolean allDone() {
        for (int s = 0; s < segments; s++) {
            if (!position(s).done()) {
                return false;
            }
        }
        return true;
    }
}
