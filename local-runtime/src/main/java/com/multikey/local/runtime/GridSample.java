package com.multikey.local.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.common.PlainJson;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The design's issue-tracker sample ({@code fixtures/grid/sample-issues.json}): its projects and issues as
 * app table items, and the order their index must give, per custom field.
 */
public record GridSample(List<Map<String, AttributeValue>> projects, List<Map<String, AttributeValue>> issues,
                         Map<String, List<String>> expectedIndexOrder) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Reads the sample below a {@code fixtures} folder. */
    public static GridSample read(Path fixtures) {
        JsonNode grid;
        try {
            grid = JSON.readTree(fixtures.resolve("grid/sample-issues.json").toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the grid sample", e);
        }
        List<Map<String, AttributeValue>> projects = new ArrayList<>();
        grid.get("projects").fields().forEachRemaining(project -> {
            Map<String, AttributeValue> item = PlainJson.toItem(project.getValue());
            item.put("id", AttributeValue.fromS(project.getKey()));
            projects.add(item);
        });
        List<Map<String, AttributeValue>> issues = new ArrayList<>();
        grid.get("issues").forEach(issue -> issues.add(PlainJson.toItem(issue)));
        Map<String, List<String>> order = new LinkedHashMap<>();
        grid.get("expectedIndexOrder").fields().forEachRemaining(e -> {
            List<String> ids = new ArrayList<>();
            e.getValue().forEach(id -> ids.add(id.asText()));
            order.put(e.getKey(), List.copyOf(ids));
        });
        return new GridSample(projects, issues, order);
    }
}
