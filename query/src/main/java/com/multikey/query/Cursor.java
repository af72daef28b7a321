package com.multikey.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.index.IndexKey;
import com.multikey.index.SortKeyCodec;
import com.multikey.index.UnindexableValueException;
import com.multikey.index.definition.IndexDefinitions;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Where the next page starts, as an opaque string: the part (issues with the field, then issues without
 * it), the key of the last item consumed there (empty: from the start of the part), and a digest of the
 * query it belongs to. The digest tells a cursor of another query; the key is checked on its own, since
 * a cursor passes through clients and anyone can edit it.
 */
record Cursor(Part part, Map<String, AttributeValue> startKey) {

    enum Part { INDEX, MISSING }

    private static final ObjectMapper JSON = new ObjectMapper();

    String encode(PageRequest request) {
        ObjectNode node = JSON.createObjectNode();
        node.put("v", 1);
        node.put("q", digest(request));
        node.put("part", part.name());
        ObjectNode key = node.putObject("key");
        startKey.forEach((name, value) -> {
            if (value.s() != null) {
                key.putObject(name).put("S", value.s());
            } else if (value.n() != null) {
                key.putObject(name).put("N", value.n());
            } else {
                throw new IllegalStateException("key attribute " + name + " is neither S nor N");
            }
        });
        return Base64.getUrlEncoder().withoutPadding().encodeToString(node.toString().getBytes(StandardCharsets.UTF_8));
    }

    static Cursor decode(String text, PageRequest request) {
        JsonNode node;
        try {
            node = JSON.readTree(new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException | java.io.IOException e) {
            throw new QueryException("malformed cursor");
        }
        if (node == null || node.path("v").asInt() != 1 || !node.path("key").isObject() || !node.has("part")) {
            throw new QueryException("malformed cursor");
        }
        if (!digest(request).equals(node.path("q").asText())) {
            throw new QueryException("the cursor belongs to another query (project, attribute, order, filter and "
                    + "includeMissing must stay the same across pages)");
        }
        Part part;
        try {
            part = Part.valueOf(node.get("part").asText());
        } catch (IllegalArgumentException e) {
            throw new QueryException("malformed cursor");
        }
        Map<String, AttributeValue> key = new LinkedHashMap<>();
        node.get("key").fields().forEachRemaining(field -> {
            JsonNode value = field.getValue();
            if (value.has("S")) {
                key.put(field.getKey(), AttributeValue.fromS(value.get("S").asText()));
            } else if (value.has("N")) {
                key.put(field.getKey(), AttributeValue.fromN(value.get("N").asText()));
            } else {
                throw new QueryException("malformed cursor");
            }
        });
        return new Cursor(part, key);
    }

    /**
     * Checks that the start key is one the part's Query accepts for this request, so that an edited cursor
     * is refused here instead of by DynamoDB: in the index part the index table's key, of the request's
     * partition, inside the filter's key range; in the missing part the {@code ByProject} key of an issue
     * of the request's project.
     *
     * @throws QueryException naming what is wrong
     */
    Cursor requireValid(GridQuery.Target target, Filter.KeyRange range, IndexDefinitions definitions) {
        if (startKey.isEmpty()) {
            return this;
        }
        switch (part) {
            case INDEX -> {
                requireNames(Set.of(IndexKey.ATTRIB_ID, IndexKey.SORT_KEY));
                if (!target.partition().equals(string(IndexKey.ATTRIB_ID))) {
                    throw new QueryException("malformed cursor: its key is of another attribute or group");
                }
                String sortKey = string(IndexKey.SORT_KEY);
                requireKeyString(IndexKey.SORT_KEY, sortKey, SortKeyCodec.MAX_KEY_BYTES);
                if (range != null && !range.contains(sortKey)) {
                    throw new QueryException("malformed cursor: its key is outside the filter's range");
                }
            }
            case MISSING -> {
                if (target.project().isEmpty()) {
                    throw new QueryException("malformed cursor: this index has no missing part");
                }
                GridQuery.GridNames names = GridQuery.GridNames.of(target.index(), definitions);
                requireNames(Set.of(names.key(), names.project(), names.num()));
                requireKeyString(names.key(), string(names.key()), 2048);
                if (!target.project().get().equals(string(names.project()))) {
                    throw new QueryException("malformed cursor: its key is of another project");
                }
                AttributeValue num = startKey.get(names.num());
                if (num.n() == null) {
                    throw new QueryException("malformed cursor: " + names.num() + " is not a number");
                }
                try {
                    SortKeyCodec.encodeNumber(new BigDecimal(num.n()));
                } catch (NumberFormatException | UnindexableValueException e) {
                    throw new QueryException("malformed cursor: " + names.num() + " is not a DynamoDB number");
                }
            }
        }
        return this;
    }

    private void requireNames(Set<String> names) {
        if (!startKey.keySet().equals(names)) {
            throw new QueryException("malformed cursor: its key must have exactly the attributes " + names.stream().sorted().toList());
        }
    }

    private String string(String name) {
        String value = startKey.get(name).s();
        if (value == null) {
            throw new QueryException("malformed cursor: " + name + " is not a string");
        }
        return value;
    }

    /** A key string DynamoDB accepts: not empty, well-formed UTF-16 (so it has a UTF-8 form), at most {@code maxBytes}. */
    private static void requireKeyString(String name, String value, int maxBytes) {
        boolean wellFormed = !value.isEmpty() && value.codePoints().noneMatch(c -> Character.getType(c) == Character.SURROGATE);
        if (!wellFormed || value.getBytes(StandardCharsets.UTF_8).length > maxBytes) {
            throw new QueryException("malformed cursor: " + name + " is not a valid key string");
        }
    }

    private static String digest(PageRequest request) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(request.identity().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }
}
