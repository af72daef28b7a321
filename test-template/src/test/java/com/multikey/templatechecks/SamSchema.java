package com.multikey.templatechecks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.emulator.template.SamTemplate;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SAM's own JSON schema ({@code schemas/sam.schema.json}, the one {@code sam validate} and cfn-lint use), applied to a
 * template as {@link SamTemplate} reads it: short intrinsic tags in their long form, as CloudFormation hands the
 * template to the SAM transform.
 */
final class SamSchema {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Where the schema tries each resource against every resource type in turn (an {@code anyOf}). */
    private static final Pattern RESOURCE_BRANCH = Pattern.compile("^/properties/Resources/additionalProperties/anyOf/(\\d+)/");
    private static final Pattern RESOURCE = Pattern.compile("^/Resources/([^/]+)(/.*)?$");

    private static final Schema SCHEMA = load();

    private SamSchema() {
    }

    private static Schema load() {
        try (InputStream in = SamSchema.class.getResourceAsStream("/schemas/sam.schema.json")) {
            if (in == null) {
                throw new IllegalStateException("schemas/sam.schema.json is not on the test class path");
            }
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4).getSchema(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read schemas/sam.schema.json", e);
        }
    }

    /**
     * What SAM's schema refuses in the template, one line each: the path of the value at fault
     * ({@code Resources.<logical id>.Properties...}), what is wrong and the value found. Empty when it accepts it.
     */
    static List<String> violations(SamTemplate template) {
        JsonNode document = JSON.valueToTree(template.root());
        return explain(SCHEMA.validate(document));
    }

    /**
     * The schema tries a resource against every resource type, so an error in one resource comes with an error from
     * every other type as well; only the errors of the types whose {@code Type} the resource has explain it (all
     * of them when no type matches, as for an unknown {@code AWS::Serverless::} type).
     */
    private static List<String> explain(List<Error> errors) {
        Map<String, List<Error>> byResource = new LinkedHashMap<>();
        List<Error> outside = new ArrayList<>();
        for (Error error : errors) {
            Matcher resource = RESOURCE.matcher(error.getInstanceLocation().toString());
            if (resource.matches() && RESOURCE_BRANCH.matcher(error.getEvaluationPath().toString()).find()) {
                byResource.computeIfAbsent(resource.group(1), id -> new ArrayList<>()).add(error);
            } else {
                outside.add(error);
            }
        }
        Set<String> lines = new TreeSet<>();
        outside.forEach(error -> lines.add(line(error)));
        byResource.forEach((logicalId, resourceErrors) -> {
            Set<String> typeRefused = new TreeSet<>();
            Set<String> tried = new TreeSet<>();
            for (Error error : resourceErrors) {
                String branch = branch(error);
                tried.add(branch);
                if (error.getInstanceLocation().toString().equals("/Resources/" + logicalId + "/Type")) {
                    typeRefused.add(branch);
                }
            }
            tried.removeAll(typeRefused);
            boolean typeMatched = !tried.isEmpty();
            for (Error error : resourceErrors) {
                if (!typeMatched || tried.contains(branch(error))) {
                    lines.add(line(error));
                }
            }
        });
        return List.copyOf(lines);
    }

    private static String branch(Error error) {
        Matcher matcher = RESOURCE_BRANCH.matcher(error.getEvaluationPath().toString());
        return matcher.find() ? matcher.group(1) : "";
    }

    private static String line(Error error) {
        String pointer = error.getInstanceLocation().toString();
        String path = pointer.isEmpty() || pointer.equals("/") ? "(the template)" : pointer.substring(1).replace('/', '.');
        JsonNode value = error.getInstanceNode();
        return path + ": " + error.getMessage() + (value == null || value.isContainerNode() && value.size() > 1 ? "" : " (found " + value + ")");
    }
}
