package com.multikey.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks HTTP responses against an OpenAPI 3.1 document: the request's method and path must name an operation, the
 * response's status one of its responses ({@code 404}, else {@code 4XX}, else {@code default}), its content type one
 * of that response's media types, every header the response marks required must be there, and a JSON body must be
 * valid against the media type's schema, which json-schema-validator evaluates as JSON Schema 2020-12 (OpenAPI 3.1's
 * dialect) within the whole document, so its {@code $ref}s into {@code components} resolve. A response the document
 * does not describe is a failure.
 *
 * <p>A request no operation describes (a path the document does not list, or a method a listed path does not take)
 * is checked against the responses of the document's root extension {@value #OTHER_REQUESTS}, when it has one: what
 * the API answers such a request. Without it, any answer to such a request is a failure.
 *
 * <p>{@link OpenApiDocument} finds the response object describing a request and a status, {@link MediaTypes} the media
 * type of a content type, and {@link DocumentSchemas} validates against the document's schemas.
 */
public final class OpenApiResponses {

    /** The document's root extension holding the responses to a request no operation describes. */
    public static final String OTHER_REQUESTS = "x-other-requests";

    private final OpenApiDocument document;
    private final DocumentSchemas schemas;

    private OpenApiResponses(String documentText) {
        this.document = new OpenApiDocument(documentText);
        this.schemas = new DocumentSchemas(documentText);
    }

    /** The checks of the given OpenAPI 3.1 document (JSON). */
    public static OpenApiResponses of(String document) {
        return new OpenApiResponses(document);
    }

    /** The checks of the OpenAPI 3.1 document (JSON) at a class path resource, such as {@code /openapi.json}. */
    public static OpenApiResponses fromClasspath(String resource) {
        try (InputStream in = OpenApiResponses.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no class path resource " + resource);
            }
            return of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Fails (an {@link AssertionError} listing every problem) unless the document describes this response.
     *
     * @param path    the request's path, without the query string
     * @param headers the response's headers (names in any case)
     */
    public void check(String method, String path, int status, Map<String, String> headers, String body) {
        List<String> problems = problems(method, path, status, headers, body);
        if (!problems.isEmpty()) {
            throw new AssertionError(method + " " + path + " answered " + status + ", which the OpenAPI document does not describe:\n  "
                    + String.join("\n  ", problems) + "\nbody: " + body);
        }
    }

    /** What the document does not describe about this response; empty when it describes it. */
    public List<String> problems(String method, String path, int status, Map<String, String> headers, String body) {
        Optional<DocumentNode> responses = document.responsesOf(method, path);
        if (responses.isEmpty()) {
            return List.of("no operation " + method + " " + path + " in the document, and no " + OTHER_REQUESTS + " describes other requests");
        }
        Optional<DocumentNode> response = document.responseOf(responses.get(), status);
        if (response.isEmpty()) {
            return List.of("status " + status + " is not a response of " + responses.get().where());
        }
        List<String> problems = new ArrayList<>();
        for (String name : document.requiredHeaders(response.get())) {
            if (header(headers, name).isEmpty()) {
                problems.add("header " + name + " is required by " + response.get().where() + ", and missing");
            }
        }
        JsonNode content = response.get().node().path("content");
        Optional<String> contentType = header(headers, "content-type").map(MediaTypes::of);
        boolean hasBody = body != null && !body.isEmpty();
        if (content.isMissingNode() || content.isEmpty()) {
            if (hasBody) {
                problems.add(response.get().where() + " has no content, yet the response has a body");
            }
            return problems;
        }
        if (contentType.isEmpty()) {
            problems.add("no content-type header; " + response.get().where() + " has content " + names(content));
            return problems;
        }
        Optional<String> mediaType = MediaTypes.keyOf(content, contentType.get());
        if (mediaType.isEmpty()) {
            problems.add("content type " + contentType.get() + " is not one of " + response.get().where() + ": " + names(content));
            return problems;
        }
        DocumentNode media = response.get().child("content").child(mediaType.get());
        if (!media.node().has("schema")) {
            return problems;
        }
        if (!MediaTypes.isJson(contentType.get())) {
            problems.add("content type " + contentType.get() + " has a schema, and only JSON bodies are checked");
            return problems;
        }
        JsonNode instance;
        try {
            instance = OpenApiDocument.JSON.readTree(hasBody ? body : "");
        } catch (JsonProcessingException e) {
            problems.add("the body is not JSON: " + e.getOriginalMessage());
            return problems;
        }
        if (instance == null || instance.isMissingNode()) {
            problems.add("the body is empty; " + media.where() + " has a schema");
            return problems;
        }
        problems.addAll(schemas.problems(media.child("schema"), instance));
        return problems;
    }

    /**
     * What is wrong with the document's schemas: each one (the {@code components} schemas, and those of parameters,
     * headers and media types) checked against the JSON Schema 2020-12 meta-schema. Empty when they are all valid.
     */
    public List<String> schemaProblems() {
        return schemas.metaSchemaProblems(document.root());
    }

    private static Optional<String> header(Map<String, String> headers, String name) {
        if (headers == null) {
            return Optional.empty();
        }
        return headers.entrySet().stream().filter(h -> h.getKey().equalsIgnoreCase(name)).map(Map.Entry::getValue).findFirst();
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
