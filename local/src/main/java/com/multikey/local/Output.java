package com.multikey.local;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Option;

import java.io.OutputStream;
import java.io.PrintStream;

/**
 * {@code --output table|json}: lines for people (the default), or one JSON document on one line for scripts
 * (shapes in docs/commands.md). Progress and errors never go to standard output, so it stays parseable.
 */
final class Output {

    enum Format { table, json }

    static final ObjectMapper JSON = new ObjectMapper();

    @Option(names = "--output", defaultValue = "table", paramLabel = "table|json",
            description = "table (lines for people) or json (one JSON document, for scripts) (default ${DEFAULT-VALUE})")
    Format format = Format.table;

    boolean json() {
        return format == Format.json;
    }

    /** Where the lines for people go: standard output, or nowhere when the result is a JSON document. */
    PrintStream lines(PrintStream out) {
        return json() ? new PrintStream(OutputStream.nullOutputStream()) : out;
    }

    static ObjectNode object() {
        return JSON.createObjectNode();
    }

    /** A JSON answer as JSON, any other text as a JSON string. */
    static JsonNode parsedOrText(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            return JSON.getNodeFactory().textNode(text);
        }
    }

    static void print(JsonNode document, PrintStream out) {
        try {
            out.println(JSON.writeValueAsString(document));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serialises", e);
        }
    }
}
