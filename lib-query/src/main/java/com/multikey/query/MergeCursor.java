package com.multikey.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where each group of a request of several groups stands ({@link PageRequest#withGroups}): not started, at a cursor of
 * its own ({@link Cursor}), or done. It leaves the library sealed as one cursor, bound to the whole request (its groups
 * and their order included), so that it opens for that request alone.
 */
record MergeCursor(List<Position> positions) {

    /**
     * Where one group stands, and, when a page read past it, its head: the sort key of the first item it lists from there
     * (an item lacking the field: {@link Head#tail}), so that a later page reads the group only once the merge reaches it.
     */
    sealed interface Position {

        Optional<Head> head();

        /** Nothing of the group consumed yet: its first page. */
        record Start(Optional<Head> head) implements Position {
        }

        /** The group resumes after this cursor's key. */
        record At(Cursor cursor, Optional<Head> head) implements Position {
        }

        /** Every item of the group was listed. */
        record Done() implements Position {
            @Override
            public Optional<Head> head() {
                return Optional.empty();
            }
        }
    }

    /** The first item a group lists from where it stands: its sort key, or null for an item lacking the field. */
    record Head(String sortKey) {
        static final Head TAIL = new Head(null);

        boolean tail() {
            return sortKey == null;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    MergeCursor {
        positions = List.copyOf(positions);
    }

    /** Whether every group is done: then the request has no next page. */
    boolean ended() {
        return positions.stream().allMatch(Position.Done.class::isInstance);
    }

    String encode(PageRequest request, CursorSealer sealer) {
        ObjectNode node = JSON.createObjectNode();
        ArrayNode groups = node.putArray("groups");
        for (Position position : positions) {
            ObjectNode group = switch (position) {
                case Position.Start start -> groups.addObject().put("start", true);
                case Position.Done done -> groups.addObject().put("done", true);
                case Position.At at -> groups.addObject().setAll(at.cursor().toJson());
            };
            position.head().ifPresent(head -> {
                if (head.tail()) {
                    group.put("headTail", true);
                } else {
                    group.put("head", head.sortKey());
                }
            });
        }
        return sealer.seal(node.toString().getBytes(StandardCharsets.UTF_8), request.identity());
    }

    /** @throws QueryException when the text is not a cursor this sealer's keys sealed for this request */
    static MergeCursor decode(String text, PageRequest request, CursorSealer sealer) {
        byte[] content = CursorBinding.open(sealer, text, request);
        JsonNode node;
        try {
            node = JSON.readTree(new String(content, StandardCharsets.UTF_8));
        } catch (java.io.IOException e) {
            throw malformed();
        }
        if (node == null || !node.path("groups").isArray() || node.get("groups").size() != request.groups().size()) {
            throw malformed();
        }
        List<Position> positions = new ArrayList<>();
        for (JsonNode group : node.get("groups")) {
            Optional<Head> head = group.path("headTail").asBoolean(false) ? Optional.of(Head.TAIL)
                    : group.path("head").isTextual() ? Optional.of(new Head(group.get("head").asText())) : Optional.empty();
            if (group.path("start").asBoolean(false)) {
                positions.add(new Position.Start(head));
            } else if (group.path("done").asBoolean(false)) {
                positions.add(new Position.Done());
            } else {
                positions.add(new Position.At(Cursor.fromJson(group, request.expressions().size()), head));
            }
        }
        return new MergeCursor(positions);
    }

    private static QueryException malformed() {
        return new QueryException(QueryException.Subject.CURSOR, "malformed cursor");
    }
}
