package com.multikey.index.definition;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads the definitions file people write: YAML (or JSON, which YAML reads too). For the build, the command lines and
 * tests; the functions read the JSON the build makes of it ({@link IndexDefinitions#packaged}), so their jars carry
 * no YAML parser. Needs {@code jackson-dataformat-yaml}, an optional dependency of this module.
 */
public final class DefinitionsYaml {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();

    private DefinitionsYaml() {
    }

    /** @param source what to call the file in errors */
    public static IndexDefinitions read(InputStream in, String source) throws IOException {
        return DefinitionsReader.read(sdkTree(tree(in, source)), source);
    }

    /** The same document as the AWS SDK's JSON nodes, which {@link DefinitionsReader} reads. */
    private static software.amazon.awssdk.protocols.jsoncore.JsonNode sdkTree(JsonNode tree) throws IOException {
        return software.amazon.awssdk.protocols.jsoncore.JsonNode.parser().parse(JSON.writeValueAsString(tree));
    }

    public static IndexDefinitions read(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in, file.toString());
        } catch (IOException e) {
            throw new DefinitionException(file + ": cannot be read (" + e.getClass().getSimpleName() + ")", e);
        }
    }

    /** Reads definitions from YAML text (tests, examples). */
    public static IndexDefinitions parse(String text) {
        try {
            return read(new java.io.ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "definitions");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The JSON a function reads ({@code INDEX_DEFINITIONS}, or the packaged resource) for a YAML file, after checking it.
     *
     * @throws DefinitionException when the file cannot work
     */
    public static String toJson(Path yaml) {
        try (InputStream in = Files.newInputStream(yaml)) {
            JsonNode tree = tree(in, yaml.toString());
            DefinitionsReader.read(sdkTree(tree), yaml.toString());
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(tree);
        } catch (IOException e) {
            throw new DefinitionException(yaml + ": cannot be read (" + e.getClass().getSimpleName() + ")", e);
        }
    }

    private static JsonNode tree(InputStream in, String source) throws IOException {
        try {
            return YAML.readTree(in);
        } catch (JsonProcessingException e) {
            throw new DefinitionException(source + ": not valid YAML or JSON (line "
                    + (e.getLocation() == null ? "?" : e.getLocation().getLineNr()) + "): " + e.getOriginalMessage());
        }
    }

    /**
     * The build's check and packaging of the definitions: {@code <yaml file> <json file>}. A file that cannot work
     * throws its {@link DefinitionException}, which fails the build with its message before any jar carries it.
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: DefinitionsYaml <index-definitions.yaml> <index-definitions.json>");
        }
        String json = toJson(Path.of(args[0]));
        Path out = Path.of(args[1]);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, json);
    }
}
