package com.multikey.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.networknt.schema.SpecificationVersion;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

import static com.multikey.testkit.OpenApiResponses.OTHER_REQUESTS;

/**
 * An OpenAPI 3.1 document, read and checked, as a map from a request and a status to the response object describing
 * it: the operation a method and path name (or the responses of {@value OpenApiResponses#OTHER_REQUESTS}), the response
 * of a status, the headers it requires, each {@code $ref} within the document followed.
 */
final class OpenApiDocument {

    /** How documents and bodies are read: duplicate names and trailing tokens refused, decimals kept exact. */
    static final ObjectMapper JSON = JsonMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

    // OpenAPI 3.1's default dialect: JSON Schema 2020-12 and OpenAPI's annotations (discriminator, xml, example)
    private static final String OAS_BASE_DIALECT = "https://spec.openapis.org/oas/3.1/dialect/base";
    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "options", "head", "patch", "trace");

    private final JsonNode document;

    /** @throws IllegalArgumentException unless it is an OpenAPI 3.1 document in JSON, with paths, whose schemas are JSON Schema 2020-12 */
    OpenApiDocument(String documentText) {
        try {
            this.document = JSON.readTree(documentText);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the OpenAPI document is not JSON: " + e.getOriginalMessage(), e);
        }
        String version = document.path("openapi").asText();
        if (!version.startsWith("3.1.")) {
            throw new IllegalArgumentException("not an OpenAPI 3.1 document (openapi: '" + version + "')");
        }
        String dialect = document.path("jsonSchemaDialect").asText(OAS_BASE_DIALECT);
        if (!dialect.equals(OAS_BASE_DIALECT) && !dialect.equals(SpecificationVersion.DRAFT_2020_12.getDialectId())) {
            throw new IllegalArgumentException("jsonSchemaDialect " + dialect + ": only JSON Schema 2020-12 schemas are checked");
        }
        if (!document.path("paths").isObject()) {
            throw new IllegalArgumentException("the OpenAPI document has no paths");
        }
    }

    DocumentNode root() {
        return DocumentNode.root(document);
    }

    /** The responses object of the operation the request names, or else of {@value OpenApiResponses#OTHER_REQUESTS}. */
    Optional<DocumentNode> responsesOf(String method, String path) {
        DocumentNode paths = root().child("paths");
        Optional<String> template = pathTemplate(paths.node(), path);
        String operation = method.toLowerCase(Locale.ROOT);
        if (template.isPresent() && METHODS.contains(operation)) {
            DocumentNode pathItem = paths.child(template.get());
            if (pathItem.node().has(operation)) {
                return Optional.of(resolve(pathItem.child(operation)).child("responses"));
            }
        }
        DocumentNode other = root().child(OTHER_REQUESTS);
        return other.node().isObject() ? Optional.of(other) : Optional.empty();
    }

    /** The path a request's path matches: the same path, else a template whose {parameters} each match one segment. */
    private static Optional<String> pathTemplate(JsonNode paths, String path) {
        if (paths.has(path)) {
            return Optional.of(path);
        }
        for (Iterator<String> names = paths.fieldNames(); names.hasNext(); ) {
            String template = names.next();
            StringBuilder regex = new StringBuilder();
            for (String part : template.split("(?=\\{)|(?<=})")) {
                regex.append(part.startsWith("{") && part.endsWith("}") ? "[^/]+" : Pattern.quote(part));
            }
            if (path.matches(regex.toString())) {
                return Optional.of(template);
            }
        }
        return Optional.empty();
    }

    /** The response object of a status: its own, else its range's ({@code 4XX}), else {@code default}. */
    Optional<DocumentNode> responseOf(DocumentNode responses, int status) {
        for (String key : List.of(Integer.toString(status), status / 100 + "XX", "default")) {
            if (responses.node().has(key)) {
                return Optional.of(resolve(responses.child(key)));
            }
        }
        return Optional.empty();
    }

    /** The headers a response object marks required, as the document names them. */
    List<String> requiredHeaders(DocumentNode response) {
        List<String> required = new ArrayList<>();
        for (Iterator<String> names = response.node().path("headers").fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (resolve(response.child("headers").child(name)).node().path("required").asBoolean(false)) {
                required.add(name);
            }
        }
        return required;
    }

    /** Follows a {@code $ref} to another part of this document (a response, an operation, a header), as often as it is one. */
    private DocumentNode resolve(DocumentNode at) {
        DocumentNode current = at;
        for (int hops = 0; current.node().has("$ref"); hops++) {
            String ref = current.node().get("$ref").asText();
            if (!ref.startsWith("#/") || hops > 16) {
                throw new IllegalArgumentException("unsupported $ref '" + ref + "' at " + current.where() + ": a reference within this document");
            }
            JsonNode target = document.at(ref.substring(1));
            if (target.isMissingNode()) {
                throw new IllegalArgumentException("$ref '" + ref + "' at " + current.where() + " names nothing in the document");
            }
            current = new DocumentNode(target, ref.substring(1));
        }
        return current;
    }
}
