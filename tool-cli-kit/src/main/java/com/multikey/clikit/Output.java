package com.multikey.clikit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Option;

import java.io.OutputStream;
import java.io.PrintStream;

/**
 * {@code --output table|json}, a picocli mixin: a table or lines for people (the default), or one JSON document on one
 * line for scripts (shapes in docs/commands.md). Progress and errors never go to standard output, so it stays parseable.
 * A command line words the option's help in its own resource bundle, key {@code output} (the description here is
 * operator-cli's).
 */
public final class Output {

    public enum Format { table, json }

    public static final ObjectMapper JSON = new ObjectMapper();

    @Option(names = "--output", defaultValue = "table", paramLabel = "table|json", descriptionKey = "output",
            description = "table (for people) or json (one JSON document, for scripts) (default ${DEFAULT-VALUE})")
    private Format format = Format.table;

    public boolean json() {
        return format == Format.json;
    }

    /** Where the lines for people go: standard output, or nowhere when the result is a JSON document. */
    public PrintStream lines(PrintStream out) {
        return json() ? new PrintStream(OutputStream.nullOutputStream()) : out;
    }

    public static ObjectNode object() {
        return JSON.createObjectNode();
    }

    /** A JSON answer as JSON, any other text as a JSON string. */
    public static JsonNode parsedOrText(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            return JSON.getNodeFactory().textNode(text);
        }
    }

    public static void print(JsonNode document, PrintStream out) {
        try {
            out.println(JSON.writeValueAsString(document));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serialises", e);
        }
    }
}
