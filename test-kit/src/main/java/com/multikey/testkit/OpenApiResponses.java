package com.multikey.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

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
 */
public final class OpenApiResponses {

    /** The document's root extension holding the responses to a request no operation describes. */
    public static final String OTHER_REQUESTS = "x-other-requests";

    // The document's address for the schema registry: the schemas' "#/components/..." references resolve within it.
    private static final String DOCUMENT_IRI = "https://openapi.invalid/openapi.json";
    // OpenAPI 3.1's default dialect: JSON Schema 2020-12 and OpenAPI's annotations (discriminator, xml, example)
    private static final String OAS_BASE_DIALECT = "https://spec.openapis.org/oas/3.1/dialect/base";
    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "options", "head", "patch", "trace");
    private static final ObjectMapper JSON = JsonMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

    private final JsonNode document;
    private final SchemaRegistry schemas;
    private final Map<String, Schema> schemaAt = new ConcurrentHashMap<>();

    private OpenApiResponses(String documentText) {
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
        this.schemas = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                builder -> builder.schemas(Map.of(DOCUMENT_IRI, documentText)));
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
        Optional<Pointer> responses = responsesOf(method, path);
        if (responses.isEmpty()) {
            return List.of("no operation " + method + " " + path + " in the document, and no " + OTHER_REQUESTS + " describes other requests");
        }
        Optional<Pointer> response = responseOf(responses.get(), status);
        if (response.isEmpty()) {
            return List.of("status " + status + " is not a response of " + responses.get().where());
        }
        List<String> problems = new ArrayList<>(headerProblems(response.get(), headers));
        JsonNode content = response.get().node().path("content");
        Optional<String> contentType = header(headers, "content-type").map(OpenApiResponses::mediaType);
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
        Optional<String> mediaType = mediaTypeOf(content, contentType.get());
        if (mediaType.isEmpty()) {
            problems.add("content type " + contentType.get() + " is not one of " + response.get().where() + ": " + names(content));
            return problems;
        }
        Pointer media = response.get().child("content").child(mediaType.get());
        if (!media.node().has("schema")) {
            return problems;
        }
        if (!isJson(contentType.get())) {
            problems.add("content type " + contentType.get() + " has a schema, and only JSON bodies are checked");
            return problems;
        }
        JsonNode instance;
        try {
            instance = JSON.readTree(hasBody ? body : "");
        } catch (JsonProcessingException e) {
            problems.add("the body is not JSON: " + e.getOriginalMessage());
            return problems;
        }
        if (instance == null || instance.isMissingNode()) {
            problems.add("the body is empty; " + media.where() + " has a schema");
            return problems;
        }
        Pointer schema = media.child("schema");
        for (Error error : schemaAt.computeIfAbsent(schema.pointer(), this::load).validate(instance)) {
            problems.add(error.getInstanceLocation() + ": " + error.getMessage() + " (" + error.getSchemaLocation() + ")");
        }
        return problems;
    }

    /**
     * What is wrong with the document's schemas: each one (the {@code components} schemas, and those of parameters,
     * headers and media types) checked against the JSON Schema 2020-12 meta-schema. Empty when they are all valid.
     */
    public List<String> schemaProblems() {
        Schema metaSchema = schemas.getSchema(SchemaLocation.of(SpecificationVersion.DRAFT_2020_12.getDialectId()));
        List<Pointer> found = new ArrayList<>();
        Pointer components = new Pointer(document, "").child("components").child("schemas");
        components.node().fieldNames().forEachRemaining(name -> found.add(components.child(name)));
        collectSchemas(new Pointer(document, ""), found);
        List<String> problems = new ArrayList<>();
        for (Pointer schema : found) {
            for (Error error : metaSchema.validate(schema.node())) {
                problems.add(schema.where() + error.getInstanceLocation() + ": " + error.getMessage());
            }
        }
        return problems;
    }

    /** The values of the fields named schema, outside components/schemas (those are schemas themselves, not holders of one). */
    private static void collectSchemas(Pointer at, List<Pointer> found) {
        if (at.pointer().equals("/components/schemas")) {
            return;
        }
        if (at.node().isArray()) {
            for (int i = 0; i < at.node().size(); i++) {
                collectSchemas(new Pointer(at.node().get(i), at.pointer() + "/" + i), found);
            }
            return;
        }
        for (Iterator<String> names = at.node().fieldNames(); names.hasNext(); ) {
            String name = names.next();
            Pointer child = at.child(name);
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

    /** The responses object of the operation the request names, or else of {@value #OTHER_REQUESTS}. */
    private Optional<Pointer> responsesOf(String method, String path) {
        Pointer paths = new Pointer(document, "").child("paths");
        Optional<String> template = pathTemplate(paths.node(), path);
        String operation = method.toLowerCase(Locale.ROOT);
        if (template.isPresent() && METHODS.contains(operation)) {
            Pointer pathItem = paths.child(template.get());
            if (pathItem.node().has(operation)) {
                return Optional.of(resolve(pathItem.child(operation)).child("responses"));
            }
        }
        Pointer other = new Pointer(document, "").child(OTHER_REQUESTS);
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

    private Optional<Pointer> responseOf(Pointer responses, int status) {
        for (String key : List.of(Integer.toString(status), status / 100 + "XX", "default")) {
            if (responses.node().has(key)) {
                return Optional.of(resolve(responses.child(key)));
            }
        }
        return Optional.empty();
    }

    private List<String> headerProblems(Pointer response, Map<String, String> headers) {
        List<String> problems = new ArrayList<>();
        JsonNode documented = response.node().path("headers");
        for (Iterator<String> names = documented.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (resolve(response.child("headers").child(name)).node().path("required").asBoolean(false) && header(headers, name).isEmpty()) {
                problems.add("header " + name + " is required by " + response.where() + ", and missing");
            }
        }
        return problems;
    }

    /** Follows a {@code $ref} to another part of this document (a response, an operation, a header), as often as it is one. */
    private Pointer resolve(Pointer at) {
        Pointer current = at;
        for (int hops = 0; current.node().has("$ref"); hops++) {
            String ref = current.node().get("$ref").asText();
            if (!ref.startsWith("#/") || hops > 16) {
                throw new IllegalArgumentException("unsupported $ref '" + ref + "' at " + current.where() + ": a reference within this document");
            }
            JsonNode target = document.at(ref.substring(1));
            if (target.isMissingNode()) {
                throw new IllegalArgumentException("$ref '" + ref + "' at " + current.where() + " names nothing in the document");
            }
            current = new Pointer(target, ref.substring(1));
        }
        return current;
    }

    /** The media type key naming a content type: the same type, else {@code type/*}, else {@code *}{@code /*}. */
    private static Optional<String> mediaTypeOf(JsonNode content, String contentType) {
        for (Iterator<String> names = content.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (mediaType(name).equals(contentType)) {
                return Optional.of(name);
            }
        }
        String range = contentType.substring(0, contentType.indexOf('/') + 1) + "*";
        for (String key : List.of(range, "*/*")) {
            if (content.has(key)) {
                return Optional.of(key);
            }
        }
        return Optional.empty();
    }

    /** A content type without its parameters, lower case: {@code application/json; charset=utf-8} is application/json. */
    private static String mediaType(String contentType) {
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
    }

    private static boolean isJson(String mediaType) {
        return mediaType.equals("application/json") || mediaType.endsWith("+json");
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

    /** A node of the document and its JSON pointer. */
    private record Pointer(JsonNode node, String pointer) {
        Pointer child(String name) {
            return new Pointer(node.path(name), pointer + "/" + name.replace("~", "~0").replace("/", "~1"));
        }

        String where() {
            return "#" + pointer;
        }
    }
}
