package com.multikey.index.definition;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The definitions file people write, YAML or JSON, read by {@link DefinitionsFile} (the same reader the functions use for
 * {@code INDEX_DEFINITIONS}); and the build's check and packaging of the repository's file as JSON ({@link #main}).
 */
public final class DefinitionsYaml {

    private DefinitionsYaml() {
    }

    /** @param source what to call the file in errors */
    public static IndexDefinitions read(InputStream in, String source) throws IOException {
        return DefinitionsFile.read(new String(in.readAllBytes(), StandardCharsets.UTF_8), source);
    }

    public static IndexDefinitions read(Path file) {
        return DefinitionsFile.read(file);
    }

    /** Reads definitions from YAML text (tests, examples). */
    public static IndexDefinitions parse(String text) {
        return DefinitionsFile.read(text, "definitions");
    }

    /**
     * The JSON of a definitions file (YAML or JSON), after checking it: what the build packages in the function jars.
     *
     * @throws DefinitionException when the file cannot work
     */
    public static String toJson(Path yaml) {
        return DefinitionsFile.toJson(yaml);
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
