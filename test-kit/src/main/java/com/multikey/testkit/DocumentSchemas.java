package com.multikey.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An OpenAPI document's schemas as json-schema-validator evaluates them: JSON Schema 2020-12 (OpenAPI 3.1's dialect)
 * within the whole document, so their {@code $ref}s into {@code components} resolve. Validates a body against one, and
 * each against the meta-schema.
 */
final class DocumentSchemas {

    // The document's address for the schema registry: the schemas' "#/components/..." references resolve within it.
    private static final String DOCUMENT_IRI = "https://openapi.invalid/openapi.json";

    private final SchemaRegistry schemas;
    private final Map<String, Schema> schemaAt = new ConcurrentHashMap<>();

    DocumentSchemas(String documentText) {
        this.schemas = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                builder -> builder.schemas(Map.of(DOCUMENT_IRI, documentText)));
    }

    /** What is wrong with a JSON value against the schema at this node; empty when it is valid. */
    List<String> problems(DocumentNode schema, JsonNode instance) {
        List<String> problems = new ArrayList<>();
        for (Error error : schemaAt.computeIfAbsent(schema.pointer(), this::load).validate(instance)) {
            problems.add(error.getInstanceLocation() + ": " + error.getMessage() + " (" + error.getSchemaLocation() + ")");
        }
        return problems;
    }

    /** See {@link OpenApiResponses#schemaProblems}. */
    List<String> metaSchemaProblems(DocumentNode root) {
        Schema metaSchema = schemas.getSchema(SchemaLocation.of(SpecificationVersion.DRAFT_2020_12.getDialectId()));
        List<DocumentNode> found = new ArrayList<>();
        DocumentNode components = root.child("components").child("schemas");
        components.node().fieldNames().forEachRemaining(name -> found.add(components.child(name)));
        collectSchemas(root, found);
        List<String> problems = new ArrayList<>();
        for (DocumentNode schema : found) {
            for (Error error : metaSchema.validate(schema.node())) {
                problems.add(schema.where() + error.getInstanceLocation() + ": " + error.getMessage());
            }
        }
        return problems;
    }

    /** The values of the fields named schema, outside components/schemas (those are schemas themselves, not holders of one). */
    private static void collectSchemas(DocumentNode at, List<DocumentNode> found) {
        if (at.pointer().equals("/components/schemas")) {
            return;
        }
        if (at.node().isArray()) {
            for (int i = 0; i < at.node().size(); i++) {
                collectSchemas(new DocumentNode(at.node().get(i), at.pointer() + "/" + i), found);
            }
            return;
        }
        for (Iterator<String> names = at.node().fieldNames(); names.hasNext(); ) {
            String name = names.next();
            DocumentNode child = at.child(name);
            if (name.equals("schema")) {
                found.add(child);
            } else if (child.node().isContainerNode()) {
                collectSchemas(child, found);
            }
        }
    }

    private Schema load(String pointer) {
        return schemas.getSchema(SchemaLocation.of(DOCUMENT_IRI + "#" + pointer));
    }
}
