package com.multikey.index.definition;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.resolver.Resolver;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.protocols.jsoncore.JsonNodeParser;
import software.amazon.awssdk.thirdparty.jackson.core.JsonFactory;
import software.amazon.awssdk.thirdparty.jackson.core.StreamReadFeature;
import software.amazon.awssdk.thirdparty.jackson.core.json.JsonReadFeature;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The one reader of a definitions file, YAML or JSON, for the functions ({@code INDEX_DEFINITIONS}), the command lines
 * ({@code --definitions}), the build and the tests alike. A document that begins with {@code &#123;} is read as JSON
 * first (what the build packages); any other, or one JSON does not read (a YAML flow mapping), as YAML with SnakeYAML's
 * parser, which every function jar carries (its reading half only) without a second JSON library. YAML scalars are read as a JSON document would hold
 * them: {@code true}/{@code false} (and YAML 1.1's {@code yes}/{@code no}/{@code on}/{@code off}) booleans, numbers
 * with their exact digits, {@code null}/{@code ~}/nothing null, everything else (dates included) text. How each plain
 * scalar read as a number, a boolean or null was written is kept beside the JSON ({@link Document#written}), so a
 * setting that takes text can refuse one naming it as the file spells it ({@code name: 012} is the number 12).
 */
public final class DefinitionsFile {

    /** JSON's number grammar: what a YAML number must look like to be copied digit for digit. */
    private static final Pattern JSON_NUMBER = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?");
    /** Deeper than any definitions file goes; a bound on aliases that nest a node in itself. */
    private static final int MAX_DEPTH = 64;
    /** Larger than any definitions file; read no further (a file with no end, /dev/zero, included). */
    static final int MAX_BYTES = 1024 * 1024;
    /** More values than any definitions file holds; a bound on aliases that repeat a collection many times over. */
    static final int MAX_VALUES = 100_000;
    /** JSON as DynamoDB's SDK reads it, a name given twice in one object refused as YAML refuses it. */
    private static final JsonNodeParser JSON = JsonNode.parserBuilder().jsonFactory(JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).configure(JsonReadFeature.ALLOW_JAVA_COMMENTS, true).build()).build();

    private DefinitionsFile() {
    }

    /**
     * A definitions document as JSON text, and how the file wrote each value YAML read as a number, a boolean or null:
     * its plain scalar's text by the value's JSON pointer ({@code /indexes/0/name} → {@code 012}); empty for JSON.
     */
    record Document(String json, Map<String, String> written) {
        Document {
            written = Map.copyOf(written);
        }
    }

    /** Reads and checks a definitions file. */
    public static IndexDefinitions read(Path file) {
        return read(text(file), file.toString());
    }

    /**
     * Reads and checks definitions from a file's text.
     *
     * @param source what to call the file in errors
     */
    public static IndexDefinitions read(String text, String source) {
        Document document = document(text, source);
        return DefinitionsReader.read(JSON.parse(document.json()), source, document.written());
    }

    /** The document as JSON text, after checking that it is one definitions file that can work. */
    static String toJson(Path file) {
        Document document = document(text(file), file.toString());
        DefinitionsReader.read(JsonNode.parser().parse(document.json()), file.toString(), document.written());
        return document.json();
    }

    private static String text(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes(MAX_BYTES + 1);
            if (bytes.length > MAX_BYTES) {
                throw new DefinitionException(file + ": larger than " + MAX_BYTES + " bytes, more than a definitions file holds");
            }
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
        } catch (IOException e) {
            throw new DefinitionException(file + ": cannot be read (" + e.getClass().getSimpleName() + ")", e);
        }
    }

    /** The document as JSON text: itself when it is JSON, else its YAML made JSON. */
    private static Document document(String text, String source) {
        String document = text.startsWith("\uFEFF") ? text.substring(1) : text;
        String jsonRefusal = null;
        if (document.stripLeading().startsWith("{")) {
            try {
                JSON.parse(document);
                return new Document(document, Map.of());
            } catch (RuntimeException e) {
                jsonRefusal = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage().lines().findFirst().orElse(""));
            }
        }
        Node root;
        try {
            // SnakeYAML's reading half only (its node graph, no object construction): what the function jars carry of it
            LoaderOptions options = new LoaderOptions();
            root = new Composer(new ParserImpl(new StreamReader(new StringReader(document)), options), new Resolver(), options).getSingleNode();
        } catch (MarkedYAMLException e) {
            throw new DefinitionException(source + ": not valid YAML or JSON (line " + line(e.getProblemMark()) + "): " + e.getProblem()
                    + (jsonRefusal == null ? "" : "; as JSON: " + jsonRefusal));
        } catch (YAMLException e) {
            throw new DefinitionException(source + ": not valid YAML or JSON: " + e.getMessage());
        }
        StringBuilder json = new StringBuilder();
        Map<String, String> written = new HashMap<>();
        if (root == null) {
            json.append("null");
        } else {
            write(root, "", json, written, source, 0, new int[1]);
        }
        return new Document(json.toString(), written);
    }

    private static void write(Node node, String pointer, StringBuilder json, Map<String, String> written, String source, int depth,
                              int[] values) {
        if (++values[0] > MAX_VALUES) {
            throw new DefinitionException(source + ": more than " + MAX_VALUES + " values once its aliases are expanded (line "
                    + line(node.getStartMark()) + ")");
        }
        if (depth > MAX_DEPTH) {
            throw new DefinitionException(source + ": nested deeper than " + MAX_DEPTH + " levels (line " + line(node.getStartMark()) + ")");
        }
        switch (node) {
            case MappingNode mapping -> {
                json.append('{');
                Set<String> names = new HashSet<>();
                boolean first = true;
                for (NodeTuple entry : mapping.getValue()) {
                    if (!(entry.getKeyNode() instanceof ScalarNode key)) {
                        throw new DefinitionException(source + ": a setting's name must be text (line " + line(entry.getKeyNode().getStartMark()) + ")");
                    }
                    if (!names.add(key.getValue())) {
                        throw new DefinitionException(source + ": '" + key.getValue() + "' is given twice in one mapping (line "
                                + line(key.getStartMark()) + ")");
                    }
                    json.append(first ? "" : ",");
                    string(key.getValue(), json);
                    json.append(':');
                    write(entry.getValueNode(), pointer + "/" + pointerToken(key.getValue()), json, written, source, depth + 1, values);
                    first = false;
                }
                json.append('}');
            }
            case SequenceNode sequence -> {
                json.append('[');
                int index = 0;
                for (Node element : sequence.getValue()) {
                    json.append(index == 0 ? "" : ",");
                    write(element, pointer + "/" + index++, json, written, source, depth + 1, values);
                }
                json.append(']');
            }
            case ScalarNode scalar -> {
                if (!scalar(scalar, json)) {
                    written.put(pointer, scalar.getValue());
                }
            }
            default -> throw new DefinitionException(source + ": unexpected YAML node (line " + line(node.getStartMark()) + ")");
        }
    }

    /** Writes a scalar as JSON; whether it is text. */
    private static boolean scalar(ScalarNode scalar, StringBuilder json) {
        String value = scalar.getValue();
        Tag tag = scalar.getTag();
        if (Tag.NULL.equals(tag)) {
            json.append("null");
        } else if (Tag.BOOL.equals(tag)) {
            json.append(switch (value.toLowerCase(java.util.Locale.ROOT)) {
                case "true", "yes", "on" -> "true";
                default -> "false";
            });
        } else if ((Tag.INT.equals(tag) || Tag.FLOAT.equals(tag)) && number(value) != null) {
            json.append(number(value));
        } else {
            string(value, json);
            return true;
        }
        return false;
    }

    /** A mapping key as a JSON pointer's reference token (RFC 6901). */
    static String pointerToken(String name) {
        return name.replace("~", "~0").replace("/", "~1");
    }

    /** A YAML number as JSON: its own text when JSON's grammar allows it, else its exact value; null when it has none (.inf, 0x1F). */
    private static String number(String value) {
        String plain = value.replace("_", "");
        if (JSON_NUMBER.matcher(plain).matches()) {
            return plain;
        }
        try {
            return new BigDecimal(plain).toString();
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static void string(String value, StringBuilder json) {
        json.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        json.append('"');
    }

    private static int line(Mark mark) {
        return mark == null ? 0 : mark.getLine() + 1;
    }
}
