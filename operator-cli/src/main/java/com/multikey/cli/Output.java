package com.multikey.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Option;

import java.io.PrintStream;

/**
 * {@code --output table|json}: a table for people (the default), or one JSON document on one line for scripts
 * (shapes in docs/commands.md). Progress and errors never go to standard output, so it stays parseable.
 */
final class Output {

    enum Format { table, json }

    private static final ObjectMapper JSON = new ObjectMapper();

    @Option(names = "--output", defaultValue = "table", paramLabel = "table|json",
            description = "table (for people) or json (one JSON document, for scripts) (default ${DEFAULT-VALUE})")
    Format format = Format.table;

    boolean json() {
        return format == Format.json;
    }

    static ObjectNode object() {
        return JSON.createObjectNode();
    }

    static void print(JsonNode document, PrintStream out) {
        try {
            out.println(JSON.writeValueAsString(document));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serialises", e);
        }
    }
}
