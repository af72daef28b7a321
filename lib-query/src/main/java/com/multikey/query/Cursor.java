package com.multikey.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.index.DynamoDbLimits;
import com.multikey.index.IndexKey;
import com.multikey.index.SortKeyCodec;
import com.multikey.index.UnindexableValueException;
import com.multikey.index.definition.KeySchema;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Where the next page starts: the part (items with the field, then items without it) and the key of the last item
 * consumed there (empty: from the start of the part). It leaves the library sealed ({@link CursorSealer}): bound to
 * the query it belongs to, unreadable and unforgeable without the deployment's key. The key is still checked on its
 * own once opened, so that a reader sealing under the same key with other definitions cannot reach DynamoDB with a
 * key that does not fit the query.
 */
record Cursor(Part part, Map<String, AttributeValue> startKey, Knowledge knowledge) {

    enum Part { INDEX, MISSING }

    Cursor(Part part, Map<String, AttributeValue> startKey) {
        this(part, startKey, Knowledge.NONE);
    }

    Cursor with(Knowledge learned) {
        return new Cursor(part, startKey, learned);
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    String encode(PageRequest request, CursorSealer sealer) {
        return sealer.seal(toJson().toString().getBytes(StandardCharsets.UTF_8), request.identity());
    }

    /** The cursor's content before it is sealed: its part, key and knowledge (a request of several groups holds one each). */
    ObjectNode toJson() {
        ObjectNode node = JSON.createObjectNode();
        node.put("part", part.name());
        ObjectNode key = node.putObject("key");
        startKey.forEach((name, value) -> {
            switch (value.type()) {
                case S -> key.putObject(name).put("S", value.s());
                case N -> key.putObject(name).put("N", value.n());
                case B -> key.putObject(name).put("B", Base64.getEncoder().encodeToString(value.b().asByteArrayUnsafe()));
                default -> throw new IllegalStateException("key attribute " + name + " is neither S, N nor B");
            }
        });
        knowledge.write(node);
        return node;
    }

    /** @throws QueryException when the text is not a cursor this sealer's keys sealed for this query within its lifetime */
    static Cursor decode(String text, PageRequest request, CursorSealer sealer) {
        byte[] content = CursorBinding.open(sealer, text, request);
        JsonNode node;
        try {
            node = JSON.readTree(new String(content, StandardCharsets.UTF_8));
        } catch (java.io.IOException e) {
            throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor");
        }
        return fromJson(node, request.expressions().size());
    }

    /** The cursor whose content {@link #toJson} wrote. @throws QueryException when it is not one */
    static Cursor fromJson(JsonNode node, int predicates) {
        if (node == null || !node.path("key").isObject() || !node.has("part")) {
            throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor");
        }
        Part part;
        try {
            part = Part.valueOf(node.get("part").asText());
        } catch (IllegalArgumentException e) {
            throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor");
        }
        Map<String, AttributeValue> key = new LinkedHashMap<>();
        node.get("key").fields().forEachRemaining(field -> {
            JsonNode value = field.getValue();
            if (value.has("S")) {
                key.put(field.getKey(), AttributeValue.fromS(value.get("S").asText()));
            } else if (value.has("N")) {
                key.put(field.getKey(), AttributeValue.fromN(value.get("N").asText()));
            } else if (value.has("B")) {
                try {
                    key.put(field.getKey(), AttributeValue.fromB(SdkBytes.fromByteArray(Base64.getDecoder().decode(value.get("B").asText()))));
                } catch (IllegalArgumentException e) {
                    throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor");
                }
            } else {
                throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor");
            }
        });
        return new Cursor(part, key, Knowledge.read(node, predicates));
    }

    /**
     * Checks that the start key is one the part's Query accepts for this request, so that an edited cursor
     * is refused here instead of by DynamoDB: in the index part the index table's key, of the request's
     * partition, inside the filter's key range; in the missing part the {@code ByProject} key of an item
     * of the request's project, or the source table's key of an item of the request's group (and of the
     * index's sort key prefix). A cursor of the missing part is refused on a request that has none (one with a filter,
     * or one that did not ask for it): it would list items that lack the field, which match no filter.
     *
     * @param includeMissing whether the request asks for the missing part
     * @throws QueryException naming what is wrong
     */
    Cursor requireValid(Target target, Filter.KeyRange range, boolean includeMissing) {
        if (part == Part.MISSING && !includeMissing) {
            throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor: it is of the missing part, and this request does not ask for it");
        }
        if (startKey.isEmpty()) {
            return this;
        }
        switch (part) {
            case INDEX -> {
                requireNames(Set.of(IndexKey.ATTRIB_ID, IndexKey.SORT_KEY));
                if (!target.partition().equals(string(IndexKey.ATTRIB_ID))) {
                    throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor: its key is of another attribute or group");
                }
                String sortKey = string(IndexKey.SORT_KEY);
                requireKeyString(IndexKey.SORT_KEY, sortKey, SortKeyCodec.MAX_KEY_BYTES);
                if (range != null && !range.contains(sortKey)) {
                    throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor: its key is outside the filter's range");
                }
            }
            case MISSING -> {
                switch (target.missing()) {
                    case Target.MissingSource.ByProject grid -> requireByProjectKey(grid.names(), grid.project());
                    case Target.MissingSource.TablePartition table -> requireTableKey(table);
                    case Target.MissingSource.Unavailable unavailable ->
                            throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor: this index has no missing part");
                }
            }
        }
        return this;
    }

    private void requireByProjectKey(Target.GridNames names, String project) {
        requireNames(Set.of(names.key(), names.project(), names.num()));
        requireKeyString(names.key(), string(names.key()), 2048);
        if (!project.equals(string(names.project()))) {
            throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor: its key is of another project");
        }
        requireNumber(names.num());
    }

    private void requireTableKey(Target.MissingSource.TablePartition table) {
        KeySchema schema = table.table();
        requireNames(schema.attributes().stream().map(KeySchema.KeyAttribute::name).collect(Collectors.toSet()));
        requireKeyValue(schema.partitionKey(), DynamoDbLimits.MAX_PARTITION_KEY_BYTES);
        if (!sameKeyValue(startKey.get(schema.partitionKey().name()), table.group())) {
            throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor: its key is of another group");
        }
        schema.sortKey().ifPresent(sortKey -> {
            requireKeyValue(sortKey, DynamoDbLimits.MAX_SORT_KEY_BYTES);
            if (table.sortKeyPrefix().isPresent() && !string(sortKey.name()).startsWith(table.sortKeyPrefix().get())) {
                throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor: its key is of an item the index does not cover");
            }
        });
    }

    /** A key attribute of the schema's type that DynamoDB accepts. */
    private void requireKeyValue(KeySchema.KeyAttribute attribute, int maxBytes) {
        String name = attribute.name();
        switch (attribute.type()) {
            case S -> requireKeyString(name, string(name), maxBytes);
            case N -> requireNumber(name);
            case B -> {
                SdkBytes bytes = startKey.get(name).b();
                if (bytes == null) {
                    throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor: " + name + " is not binary");
                }
                if (bytes.asByteArrayUnsafe().length == 0 || bytes.asByteArrayUnsafe().length > maxBytes) {
                    throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor: " + name + " is not a valid key value");
                }
            }
        }
    }

    private void requireNumber(String name) {
        AttributeValue num = startKey.get(name);
        if (num.n() == null) {
            throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor: " + name + " is not a number");
        }
        try {
            SortKeyCodec.encodeNumber(new BigDecimal(num.n()));
        } catch (NumberFormatException | UnindexableValueException e) {
            throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor: " + name + " is not a DynamoDB number");
        }
    }

    /** Key values are equal as DynamoDB compares them: numbers by value. */
    private static boolean sameKeyValue(AttributeValue a, AttributeValue b) {
        if (a.type() == AttributeValue.Type.N && b.type() == AttributeValue.Type.N) {
            return new BigDecimal(a.n()).compareTo(new BigDecimal(b.n())) == 0;
        }
        return a.equals(b);
    }

    private void requireNames(Set<String> names) {
        if (!startKey.keySet().equals(names)) {
            throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor: its key must have exactly the attributes " + names.stream().sorted().toList());
        }
    }

    private String string(String name) {
        String value = startKey.get(name).s();
        if (value == null) {
            throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor: " + name + " is not a string");
        }
        return value;
    }

    /** A key string DynamoDB accepts: not empty, well-formed UTF-16 (so it has a UTF-8 form), at most {@code maxBytes}. */
    private static void requireKeyString(String name, String value, int maxBytes) {
        boolean wellFormed = !value.isEmpty() && value.codePoints().noneMatch(c -> Character.getType(c) == Character.SURROGATE);
        if (!wellFormed || value.getBytes(StandardCharsets.UTF_8).length > maxBytes) {
            throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor: " + name + " is not a valid key string");
        }
    }
}
