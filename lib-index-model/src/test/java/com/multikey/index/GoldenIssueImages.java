package com.multikey.index;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * The issue images of the upgrade proof: the design's sample grid and a fixed sequence of random issues
 * (seeded; the generator must not change, or the golden file no longer says what the index held before
 * index definitions), and a canonical text form of stored index items to compare byte for byte.
 */
final class GoldenIssueImages {

    static final long SEED = 20261124L;
    static final int RANDOM_ISSUES = 400;

    private GoldenIssueImages() {
    }

    /** The sample grid's issues, then the random ones. */
    static List<Map<String, AttributeValue>> all() throws IOException {
        List<Map<String, AttributeValue>> images = new ArrayList<>(sampleGrid());
        Random random = new Random(SEED);
        for (int i = 0; i < RANDOM_ISSUES; i++) {
            images.add(randomIssue(i, random));
        }
        return images;
    }

    static List<Map<String, AttributeValue>> sampleGrid() throws IOException {
        try (InputStream in = Files.newInputStream(Path.of("..", "fixtures", "grid", "sample-issues.json"))) {
            JsonNode root = new ObjectMapper().readTree(in);
            List<Map<String, AttributeValue>> issues = new ArrayList<>();
            for (JsonNode issue : root.get("issues")) {
                Map<String, AttributeValue> image = new LinkedHashMap<>();
                issue.fields().forEachRemaining(field -> image.put(field.getKey(), fromPlainJson(field.getValue())));
                issues.add(image);
            }
            return issues;
        }
    }

    private static AttributeValue fromPlainJson(JsonNode node) {
        if (node.isObject()) {
            Map<String, AttributeValue> map = new LinkedHashMap<>();
            node.fields().forEachRemaining(field -> map.put(field.getKey(), fromPlainJson(field.getValue())));
            return AttributeValue.fromM(map);
        }
        if (node.isArray()) {
            List<AttributeValue> list = new ArrayList<>();
            node.forEach(element -> list.add(fromPlainJson(element)));
            return AttributeValue.fromL(list);
        }
        if (node.isNumber()) {
            return AttributeValue.fromN(node.asText());
        }
        if (node.isBoolean()) {
            return AttributeValue.fromBool(node.asBoolean());
        }
        return AttributeValue.fromS(node.asText());
    }

    private static final String[] TEXT_PARTS = {"a", "ab", "Approved", "\u0000", "\u0001", "\u0002", "\u0003", "~", "é",
            "\uD83D\uDE00", "#", "2023-05-01", " ", "Z"};
    private static final String[] NUMBERS = {"0", "-0", "0.0", "1", "1.0", "1e0", "10", "-1", "-10.5", "42",
            "1E-130", "-1E-130", "9.9999999999999999999999999999999999999E+125", "-9.9999999999999999999999999999999999999E+125",
            "12345678901234567890123456789012345678", "0.000123", "1E+126", "1E-131"};

    static Map<String, AttributeValue> randomIssue(int i, Random random) {
        Map<String, AttributeValue> image = new LinkedHashMap<>();
        String id = random.nextInt(40) == 0 ? "issue#" + "x".repeat(260 + random.nextInt(10)) : "issue#" + Integer.toHexString(i);
        image.put("id", AttributeValue.fromS(id));
        int shape = random.nextInt(30);
        if (shape != 0) {
            image.put("project", shape == 1 ? AttributeValue.fromN("3") : AttributeValue.fromS("project#" + random.nextInt(4)));
        }
        if (shape != 2) {
            image.put("num", shape == 3 ? AttributeValue.fromS("seven") : AttributeValue.fromN(NUMBERS[random.nextInt(NUMBERS.length)]));
        }
        image.put("name", AttributeValue.fromS("issue " + i));
        if (shape == 4) {
            image.put("custom_fields", AttributeValue.fromS("not a map"));
            return image;
        }
        if (shape == 5) {
            return image;
        }
        Map<String, AttributeValue> fields = new LinkedHashMap<>();
        int count = random.nextInt(8);
        for (int f = 0; f < count; f++) {
            String fieldId = switch (random.nextInt(25)) {
                case 0 -> "";
                case 1 -> "f".repeat(2049);
                default -> "f" + random.nextInt(12);
            };
            fields.put(fieldId, randomValue(random, 0));
        }
        image.put("custom_fields", AttributeValue.fromM(fields));
        return image;
    }

    private static AttributeValue randomValue(Random random, int depth) {
        return switch (random.nextInt(depth > 0 ? 4 : 12)) {
            case 0 -> AttributeValue.fromS(text(random));
            case 1 -> AttributeValue.fromN(NUMBERS[random.nextInt(NUMBERS.length)]);
            case 2 -> AttributeValue.fromBool(random.nextBoolean());
            case 3 -> AttributeValue.fromNul(true);
            case 4 -> AttributeValue.fromSs(List.of(text(random), text(random) + "!"));
            case 5 -> AttributeValue.fromNs(List.of(NUMBERS[random.nextInt(5)], "7" + random.nextInt(9)));
            case 6, 7 -> {
                List<AttributeValue> list = new ArrayList<>();
                int n = random.nextInt(5);
                for (int e = 0; e < n; e++) {
                    list.add(randomValue(random, depth + 1));
                }
                yield AttributeValue.fromL(list);
            }
            case 8 -> AttributeValue.fromS("long " + "é".repeat(300 + random.nextInt(200)) + random.nextInt(3));
            case 9 -> AttributeValue.fromM(Map.of("k", AttributeValue.fromS("v")));
            case 10 -> AttributeValue.fromB(SdkBytes.fromUtf8String("bytes"));
            default -> AttributeValue.fromL(List.of(AttributeValue.fromL(List.of())));
        };
    }

    private static String text(Random random) {
        StringBuilder text = new StringBuilder();
        int parts = random.nextInt(4);
        for (int p = 0; p < parts; p++) {
            text.append(TEXT_PARTS[random.nextInt(TEXT_PARTS.length)]);
        }
        return text.toString();
    }

    /** One stored item as a line: attributes by name, each typed, strings with every non-ASCII or control character escaped. */
    static String canonical(Map<String, AttributeValue> item) {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, AttributeValue> attribute : new TreeMap<>(item).entrySet()) {
            out.append(escape(attribute.getKey())).append('=').append(canonical(attribute.getValue())).append(' ');
        }
        return out.toString().stripTrailing();
    }

    private static String canonical(AttributeValue value) {
        return switch (value.type()) {
            case S -> "S:" + escape(value.s());
            case N -> "N:" + value.n();
            case BOOL -> "BOOL:" + value.bool();
            default -> throw new IllegalArgumentException("index items hold S, N and BOOL only, not " + value.type());
        };
    }

    private static String escape(String text) {
        StringBuilder out = new StringBuilder();
        text.chars().forEach(c -> {
            if (c < 0x20 || c > 0x7e || c == '\\') {
                out.append(String.format("\\u%04x", c));
            } else {
                out.append((char) c);
            }
        });
        return out.toString();
    }
}
