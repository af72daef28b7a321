package com.multikey.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.emulator.TemplateRuntime;
import com.multikey.emulator.auth.LocalJwtIssuer;
import com.multikey.emulator.services.http.LocalHttpApi;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.testkit.OpenApiResponses;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The read API as {@code local start} serves it: requests signed by real clients (the AWS SDK's signer, curl's
 * {@code --aws-sigv4}) against the local credentials, and tokens of the local issuer in the JWT mode, reach the
 * query function through the template's routes; unsigned, wrongly signed, expired and foreign requests are refused
 * as API Gateway refuses them, before the function runs.
 */
class LocalReadApiIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** Issues of two projects; in project#1, issue#3 has no f1 (the missing tail). */
    static void writeIssues(TemplateRuntime runtime) throws InterruptedException {
        String table = runtime.table("AppTable");
        putIssue(runtime, table, "issue#1", "project#1", Map.of("f1", AttributeValue.fromN("30"), "f2", AttributeValue.fromS("beta")));
        putIssue(runtime, table, "issue#2", "project#1", Map.of("f1", AttributeValue.fromN("10"), "f2", AttributeValue.fromS("alpha")));
        putIssue(runtime, table, "issue#3", "project#1", Map.of("f2", AttributeValue.fromS("gamma")));
        putIssue(runtime, table, "issue#4", "project#1", Map.of("f1", AttributeValue.fromN("20")));
        putIssue(runtime, table, "issue#5", "project#2", Map.of("f1", AttributeValue.fromN("5")));
        assertThat(runtime.awaitQuiet(Duration.ofSeconds(60))).isTrue();
    }

    private static void putIssue(TemplateRuntime runtime, String table, String id, String project, Map<String, AttributeValue> fields) {
        runtime.dynamoDb().putItem(b -> b.tableName(table).item(Map.of("id", AttributeValue.fromS(id), "project",
                AttributeValue.fromS(project), "num", AttributeValue.fromN(id.substring(id.indexOf('#') + 1)), "custom_fields",
                AttributeValue.fromM(fields))));
    }

    record Answer(int status, String contentType, String body) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + body, e);
            }
        }

        List<String> ids() {
            List<String> ids = new ArrayList<>();
            json().path("items").forEach(item -> ids.add(item.path("key").path("id").asText()));
            return ids;
        }
    }

    /** The query function's OpenAPI document, as the API serves it. */
    private static final OpenApiResponses OPENAPI = OpenApiResponses.fromClasspath("/openapi.json");

    /**
     * A GET; an answer of the API's function (anything but API Gateway's own {@code {"message": ...}} refusals, which
     * come before the function and are not the document's) is checked against the OpenAPI document.
     */
    static Answer get(URI uri, Map<String, String> headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).GET();
        headers.forEach(request::header);
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        Answer answer = new Answer(response.statusCode(), response.headers().firstValue("content-type").orElse(""), response.body());
        if ((uri.getPath().startsWith("/v1/") || uri.getPath().equals("/openapi.json")) && !answer.body().startsWith("{\"message\"")) {
            Map<String, String> responseHeaders = new java.util.LinkedHashMap<>();
            response.headers().map().forEach((name, values) -> responseHeaders.put(name, values.getFirst()));
            OPENAPI.check("GET", uri.getPath(), answer.status(), responseHeaders, answer.body());
        }
        return answer;
    }

    /** The headers the AWS SDK's own SigV4 signer adds for a GET of {@code uri} (host and x-amz-date are what it signs). */
    static Map<String, String> sdkSigned(URI uri, String accessKey, String secret, Instant when) {
        SdkHttpFullRequest request = SdkHttpFullRequest.builder().method(SdkHttpMethod.GET).uri(uri).build();
        var signed = AwsV4HttpSigner.create().sign(r -> r.request(request).identity(AwsCredentialsIdentity.create(accessKey, secret))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "execute-api").putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
                .putProperty(AwsV4HttpSigner.SIGNING_CLOCK, Clock.fixed(when, ZoneOffset.UTC)));
        Map<String, String> headers = new java.util.LinkedHashMap<>();
        signed.request().headers().forEach((name, values) -> {
            if (!name.equalsIgnoreCase("host")) {
                headers.put(name, values.get(0));
            }
        });
        return headers;
    }

    /** The first shell block of docs/read-api.md that signs with SigV4 and names the session token. */
    static String documentedSigV4Curl() throws IOException {
        String page = java.nio.file.Files.readString(SamTemplate.findUp("docs").resolve("read-api.md"));
        Matcher block = java.util.regex.Pattern.compile("```sh\n(.*?)```", java.util.regex.Pattern.DOTALL).matcher(page);
        while (block.find()) {
            if (block.group(1).contains("--aws-sigv4") && block.group(1).contains("AWS_SESSION_TOKEN")) {
                return block.group(1).strip();
            }
        }
        throw new AssertionError("docs/read-api.md shows no curl line signing with a session token");
    }

    /**
     * A GET whose query string is sent as given (a socket, since {@link HttpClient}'s URI refuses {@code %zz}), signed
     * by the SDK's signer for the local credentials; the whole response as text.
     */
    static String rawSignedGet(URI endpoint, String path, Map<String, String> rawQuery) throws IOException {
        SdkHttpFullRequest.Builder unsigned = SdkHttpFullRequest.builder().method(SdkHttpMethod.GET).protocol("http")
                .host(endpoint.getHost()).port(endpoint.getPort()).encodedPath(path);
        rawQuery.forEach(unsigned::putRawQueryParameter);
        var signed = AwsV4HttpSigner.create().sign(r -> r.request(unsigned.build()).identity(AwsCredentialsIdentity.create("local", "local"))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "execute-api").putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1"));
        StringBuilder request = new StringBuilder("GET " + path + "?" + String.join("&", rawQuery.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).toList()) + " HTTP/1.1\r\n");
        signed.request().headers().forEach((name, values) -> values.forEach(value -> request.append(name).append(": ").append(value).append("\r\n")));
        if (signed.request().firstMatchingHeader("Host").isEmpty()) {
            request.append("Host: ").append(endpoint.getHost()).append(':').append(endpoint.getPort()).append("\r\n");
        }
        request.append("Connection: close\r\n\r\n");
        try (java.net.Socket socket = new java.net.Socket(endpoint.getHost(), endpoint.getPort())) {
            socket.getOutputStream().write(request.toString().getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class Iam {
        private final List<String> lines = new CopyOnWriteArrayList<>();
        private TemplateRuntime runtime;
        private LocalHttpApi api;

        @BeforeAll
        void start() throws InterruptedException {
            runtime = new TemplateRuntime(SamTemplate.ofRepository().withParameterOverrides(LocalReadApi.parameters("IAM")),
                    new TemplateRuntime.Ports("127.0.0.1", 0, 0, 0), lines::add);
            runtime.startPolling();
            api = LocalReadApi.serve(runtime, "IAM", "127.0.0.1", 0, Optional.empty());
            writeIssues(runtime);
        }

        @AfterAll
        void stop() {
            if (runtime != null) {
                runtime.close();
            }
        }

        private URI grid(String query) {
            return URI.create(api.endpoint() + "/v1/grid?" + query);
        }

        @Test
        void sdkSignedRequest_readsThePage_inOrder_withTheMissingTail() throws Exception {
            URI uri = grid("project=project%231&field=f1&missing=true");
            Answer answer = get(uri, sdkSigned(uri, "local", "local", Instant.now()));

            assertThat(answer.status()).as(answer.body()).isEqualTo(200);
            assertThat(answer.contentType()).startsWith("application/json");
            assertThat(answer.ids()).containsExactly("issue#2", "issue#4", "issue#1", "issue#3");
            assertThat(answer.json().path("items").get(3).path("missing").asBoolean()).isTrue();
            assertThat(answer.json().path("items").get(0).path("value").asInt()).isEqualTo(10);
        }

        @Test
        void sdkSignedRequest_descendingWithARangeFilter_andAPathParameterRoute() throws Exception {
            URI uri = grid("project=project%231&field=f1&order=desc&type=number&ge=15");
            Answer answer = get(uri, sdkSigned(uri, "local", "local", Instant.now()));
            assertThat(answer.status()).as(answer.body()).isEqualTo(200);
            assertThat(answer.ids()).containsExactly("issue#1", "issue#4");

            URI indexes = URI.create(api.endpoint() + "/v1/indexes");
            Answer list = get(indexes, sdkSigned(indexes, "local", "local", Instant.now()));
            assertThat(list.status()).isEqualTo(200);
            String index = list.json().path("indexes").get(0).path("name").asText();
            // a new stack's grid is grouped: listed as the index it is read from, the only grid, the old name an alias
            assertThat(index).isEqualTo("issue-grid");
            assertThat(list.json().path("gridLayoutState").asText()).isEqualTo("grouped");
            assertThat(list.json().path("indexes").get(0).path("grid").asBoolean()).isTrue();
            assertThat(list.json().path("indexes").findValuesAsText("name")).doesNotContain("custom_fields");
            URI items = URI.create(api.endpoint() + "/v1/indexes/" + index + "/items?group=project%231&entry=f1&pageSize=2");
            Answer page = get(items, sdkSigned(items, "local", "local", Instant.now()));
            assertThat(page.status()).as(page.body()).isEqualTo(200);
            assertThat(page.ids()).containsExactly("issue#2", "issue#4");
            assertThat(page.json().path("nextCursor").isTextual()).isTrue();
            assertThat(answer.json().path("index").asText()).as("the grid's page names the index read").isEqualTo("issue-grid");
        }

        /** The parameters in canonical order: curl before 8.x signs the query as written, where AWS sorts it. */
        @Test
        void curlAwsSigV4_readsThePage() throws Exception {
            Process curl = new ProcessBuilder("curl", "-sS", "--aws-sigv4", "aws:amz:us-east-1:execute-api", "--user", "local:local",
                    "-w", "\n%{http_code}", grid("beginsWith=a&field=f2&project=project%231&type=text").toString())
                    .redirectErrorStream(true).start();
            String output = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(curl.waitFor()).as(output).isZero();

            String status = output.substring(output.lastIndexOf('\n') + 1);
            Answer answer = new Answer(Integer.parseInt(status), "application/json", output.substring(0, output.lastIndexOf('\n')));
            assertThat(answer.status()).as(output + lines).isEqualTo(200);
            assertThat(answer.ids()).containsExactly("issue#2");
        }

        /**
         * The curl line of docs/read-api.md, run by bash as a reader pastes it, with long-term credentials (no session
         * token: unset, or set but empty, as some shells and tools leave it) and with temporary ones.
         */
        @Test
        void documentedCurlLine_readsThePage_withAndWithoutASessionToken() throws Exception {
            String documented = documentedSigV4Curl();
            Map<String, String> sessionTokens = new java.util.LinkedHashMap<>();
            sessionTokens.put("unset", null);
            sessionTokens.put("empty", "");
            sessionTokens.put("set", "a-session-token");
            sessionTokens.forEach((what, token) -> {
                ProcessBuilder bash = new ProcessBuilder("bash", "-c", documented + " -sS -o /dev/null -w '%{http_code}'")
                        .redirectErrorStream(true);
                bash.environment().put("AWS_REGION", "us-east-1");
                bash.environment().put("AWS_ACCESS_KEY_ID", "local");
                bash.environment().put("AWS_SECRET_ACCESS_KEY", "local");
                bash.environment().put("QUERY_API_URL", api.endpoint().toString());
                bash.environment().remove("AWS_SESSION_TOKEN");
                if (token != null) {
                    bash.environment().put("AWS_SESSION_TOKEN", token);
                }
                try {
                    Process process = bash.start();
                    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                    assertThat(process.waitFor()).as(what + ": " + output).isZero();
                    assertThat(output).as("session token " + what + "; " + lines).isEqualTo("200");
                } catch (IOException | InterruptedException e) {
                    throw new AssertionError(e);
                }
            });
        }

        /** A query string that is not valid percent-encoding reaches the function, which answers the problem the document names. */
        @Test
        void aMalformedPercentEncoding_isAnsweredByTheFunction_asAProblemNamingTheParameter() throws Exception {
            Map<String, String> query = new java.util.LinkedHashMap<>();
            query.put("equals", "%zz");
            query.put("field", "f2");
            // no escape but the bad one: the SDK's signer encodes a raw value once more, where AWS (and the local check) decode first
            query.put("project", "p1");

            String response = rawSignedGet(api.endpoint(), "/v1/grid", query);

            String head = response.substring(0, response.indexOf("\r\n\r\n"));
            String body = response.substring(response.indexOf("\r\n\r\n") + 4);
            assertThat(head).as(response).startsWith("HTTP/1.1 400").containsIgnoringCase("content-type: application/problem+json");
            assertThat(JSON.readTree(body).path("parameter").asText()).isEqualTo("equals");
            OPENAPI.check("GET", "/v1/grid", 400, Map.of("content-type", "application/problem+json"), body);
        }

        @Test
        void curlWithAnotherSecret_isForbidden() throws Exception {
            Process curl = new ProcessBuilder("curl", "-sS", "--aws-sigv4", "aws:amz:us-east-1:execute-api", "--user", "local:not-the-secret",
                    "-o", "/dev/null", "-w", "%{http_code}", grid("project=project%231&field=f1").toString()).redirectErrorStream(true).start();
            String output = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            curl.waitFor();
            assertThat(output).isEqualTo("403");
        }

        @Test
        void unsignedWrongKeyWrongSecretExpiredAndTamperedRequests_areForbidden_beforeTheFunctionRuns() throws Exception {
            URI uri = grid("project=project%231&field=f1");
            Map<String, Answer> answers = new java.util.LinkedHashMap<>();
            answers.put("unsigned", get(uri, Map.of()));
            answers.put("another access key", get(uri, sdkSigned(uri, "AKIDEXAMPLE", "local", Instant.now())));
            answers.put("another secret", get(uri, sdkSigned(uri, "local", "wrong", Instant.now())));
            answers.put("signed 10 minutes ago", get(uri, sdkSigned(uri, "local", "local", Instant.now().minus(Duration.ofMinutes(10)))));
            answers.put("query changed after signing", get(grid("project=project%232&field=f1"), sdkSigned(uri, "local", "local", Instant.now())));
            Map<String, String> otherService = new java.util.LinkedHashMap<>(sdkSigned(uri, "local", "local", Instant.now()));
            otherService.computeIfPresent("Authorization", (name, value) -> value.replace("/execute-api/", "/lambda/"));
            answers.put("signed for another service", get(uri, otherService));
            int functionCalls = (int) api.calls().stream().filter(call -> call.status() == 200).count();

            answers.forEach((what, answer) -> {
                assertThat(answer.status()).as(what).isEqualTo(403);
                assertThat(answer.body()).as(what).isEqualTo("{\"message\":\"Forbidden\"}");
            });
            assertThat(api.calls().stream().filter(call -> call.status() == 403)).hasSizeGreaterThanOrEqualTo(answers.size())
                    .allSatisfy(call -> assertThat(call.refusal()).isPresent());
            assertThat(api.calls().stream().filter(call -> call.status() == 200).count()).isEqualTo(functionCalls);
        }

        @Test
        void aPathNoRouteMatches_isNotFound_andTheOpenApiDocumentIsServed() throws Exception {
            URI unknown = URI.create(api.endpoint() + "/v2/grid");
            assertThat(get(unknown, sdkSigned(unknown, "local", "local", Instant.now())).status()).isEqualTo(404);

            URI document = URI.create(api.endpoint() + "/openapi.json");
            Answer openApi = get(document, sdkSigned(document, "local", "local", Instant.now()));
            assertThat(openApi.status()).isEqualTo(200);
            assertThat(openApi.json().path("openapi").asText()).startsWith("3.1");
        }

        @Test
        void badInput_isAProblemNamingTheParameter() throws Exception {
            URI uri = grid("project=project%231&field=f1&pageSize=101");
            Answer answer = get(uri, sdkSigned(uri, "local", "local", Instant.now()));
            assertThat(answer.status()).isEqualTo(400);
            assertThat(answer.contentType()).startsWith("application/problem+json");
            assertThat(answer.json().path("parameter").asText()).isEqualTo("pageSize");
        }

        @Test
        void theGridPage_itsScripts_andTheRecentEvents_areServedWithoutSigning() throws Exception {
            assertThat(get(URI.create(api.endpoint() + "/"), Map.of()).body()).contains("<table id=\"grid\">");
            assertThat(get(URI.create(api.endpoint() + "/sigv4.js"), Map.of()).body()).contains("AWS4-HMAC-SHA256");
            assertThat(get(URI.create(api.endpoint() + "/local/config.json"), Map.of()).json().path("auth").asText()).isEqualTo("IAM");
            JsonNode events = get(URI.create(api.endpoint() + "/local/events"), Map.of()).json();
            assertThat(events).isNotEmpty();
            assertThat(events.get(0).path("detailType").asText()).isEqualTo("Issue Created");
        }
    }

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class Jwt {
        private final List<String> lines = new CopyOnWriteArrayList<>();
        private Path keys;
        private TemplateRuntime runtime;
        private LocalHttpApi api;
        private LocalJwtIssuer issuer;

        @BeforeAll
        void start(@TempDir Path keys) throws InterruptedException, IOException {
            this.keys = keys;
            issuer = LocalJwtIssuer.loadOrCreate(keys.resolve("key.json"));
            // the repository's definitions and a grouped index of the same fields beside the grid's two layouts
            Path yaml = keys.resolve("index-definitions.yaml");
            java.nio.file.Files.writeString(yaml, java.nio.file.Files.readString(Path.of("..", "index-definitions.yaml")) + """

                      - name: project-fields
                        covers:
                          - {attribute: id, beginsWith: "issue#"}
                        group: project
                        values: {entriesOf: custom_fields}
                        orderBy: num
                    """);
            Path definitions = keys.resolve("index-definitions.json");
            java.nio.file.Files.writeString(definitions, com.multikey.index.definition.DefinitionsYaml.toJson(yaml));
            runtime = new TemplateRuntime(SamTemplate.ofRepository().withParameterOverrides(LocalReadApi.parameters("JWT")),
                    new TemplateRuntime.Ports("127.0.0.1", 0, 0, 0), lines::add, dynamoDb -> { },
                    Map.of("INDEX_DEFINITIONS", definitions.toString()));
            runtime.startPolling();
            api = LocalReadApi.serve(runtime, "JWT", "127.0.0.1", 0, Optional.of(issuer));
            writeIssues(runtime);
        }

        @AfterAll
        void stop() {
            if (runtime != null) {
                runtime.close();
            }
        }

        private String token(List<String> projects, String audience, Duration lifetime) {
            return issuer.mint(LocalReadApi.ISSUER, audience, LocalReadApi.PROJECTS_CLAIM, projects, Instant.now(), lifetime);
        }

        private Answer grid(String project, String bearer) throws Exception {
            return get(URI.create(api.endpoint() + "/v1/grid?field=f1&project=" + project.replace("#", "%23")),
                    bearer == null ? Map.of() : Map.of("Authorization", "Bearer " + bearer));
        }

        @Test
        void aTokenForTheProject_readsIt_andOneForAnotherProject_isForbiddenByTheFunction() throws Exception {
            String token = token(List.of("project#1"), LocalReadApi.AUDIENCE, Duration.ofMinutes(5));

            Answer own = grid("project#1", token);
            assertThat(own.status()).as(own.body()).isEqualTo(200);
            assertThat(own.ids()).containsExactly("issue#2", "issue#4", "issue#1");

            Answer other = grid("project#2", token);
            assertThat(other.status()).isEqualTo(403);
            assertThat(other.contentType()).startsWith("application/problem+json");
            assertThat(other.body()).doesNotContain("issue#5");
        }

        private Answer index(String index, String group, String bearer) throws Exception {
            return get(URI.create(api.endpoint() + "/v1/indexes/" + index + "/items?entry=f1&group=" + group.replace("#", "%23")),
                    Map.of("Authorization", "Bearer " + bearer));
        }

        @Test
        void aTokenForAGroupOfADeclaredIndex_readsThatGroupOfThatIndex_andAnythingElseIsForbiddenByTheFunction() throws Exception {
            // given
            String named = token(List.of("project-fields:project#1"), LocalReadApi.AUDIENCE, Duration.ofMinutes(5));
            String projects = token(List.of("project#1"), LocalReadApi.AUDIENCE, Duration.ofMinutes(5));
            String pattern = token(List.of("project-fields:project#*", "project#1"), LocalReadApi.AUDIENCE, Duration.ofMinutes(5));

            // when
            Answer own = index("project-fields", "project#1", named);
            Answer other = index("project-fields", "project#2", named);
            Answer gridOfTheSameProject = grid("project#1", named);
            Answer projectOnTheDeclaredIndex = index("project-fields", "project#1", projects);
            Answer anyProject = index("project-fields", "project#2", pattern);

            // then
            assertThat(own.status()).as(own.body()).isEqualTo(200);
            assertThat(own.ids()).containsExactly("issue#2", "issue#4", "issue#1");
            assertThat(anyProject.status()).as(anyProject.body()).isEqualTo(200);
            assertThat(anyProject.ids()).containsExactly("issue#5");
            assertThat(grid("project#1", projects).status()).as("a project token keeps reading the grid").isEqualTo(200);
            for (Answer refused : List.of(other, gridOfTheSameProject, projectOnTheDeclaredIndex)) {
                assertThat(refused.status()).isEqualTo(403);
                assertThat(refused.contentType()).startsWith("application/problem+json");
                assertThat(refused.body()).doesNotContain("issue#");
            }
        }

        @Test
        void theLocalTokenCommand_mintsATokenTheApiAccepts() throws Exception {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            int status = LocalMain.run(new String[] {"token", "--projects", "project#2,project#9", "--token-key", keys.resolve("key.json").toString()},
                    new java.io.PrintStream(out, true, StandardCharsets.UTF_8), System.err);
            assertThat(status).isZero();

            Answer answer = grid("project#2", out.toString(StandardCharsets.UTF_8).strip());
            assertThat(answer.status()).as(answer.body()).isEqualTo(200);
            assertThat(answer.ids()).containsExactly("issue#5");
        }

        @Test
        void noTokenExpiredWrongAudienceWrongIssuerAndAnotherKey_areUnauthorized() throws Exception {
            LocalJwtIssuer stranger = LocalJwtIssuer.loadOrCreate(keys.resolve("other-key.json"));
            Map<String, String> tokens = new java.util.LinkedHashMap<>();
            tokens.put("expired", token(List.of("project#1"), LocalReadApi.AUDIENCE, Duration.ofSeconds(-1)));
            tokens.put("wrong audience", token(List.of("project#1"), "another-app", Duration.ofMinutes(5)));
            tokens.put("wrong issuer", issuer.mint("https://elsewhere.invalid", LocalReadApi.AUDIENCE, LocalReadApi.PROJECTS_CLAIM,
                    List.of("project#1"), Instant.now(), Duration.ofMinutes(5)));
            tokens.put("another key", stranger.mint(LocalReadApi.ISSUER, LocalReadApi.AUDIENCE, LocalReadApi.PROJECTS_CLAIM,
                    List.of("project#1"), Instant.now(), Duration.ofMinutes(5)));
            tokens.put("not a token", "abc.def.ghi");

            assertThat(grid("project#1", null).status()).isEqualTo(401);
            for (Map.Entry<String, String> token : tokens.entrySet()) {
                Answer answer = grid("project#1", token.getValue());
                assertThat(answer.status()).as(token.getKey()).isEqualTo(401);
                assertThat(answer.body()).as(token.getKey()).isEqualTo("{\"message\":\"Unauthorized\"}");
            }
        }

        @Test
        void aCursorMadeForOneProject_isRefusedForAnother_evenWithATokenForBoth() throws Exception {
            String token = token(List.of("project#1", "project#2"), LocalReadApi.AUDIENCE, Duration.ofMinutes(5));
            Answer first = get(URI.create(api.endpoint() + "/v1/grid?field=f1&pageSize=1&project=project%231"),
                    Map.of("Authorization", "Bearer " + token));
            String cursor = first.json().path("nextCursor").asText();
            assertThat(cursor).isNotEmpty();

            Answer reused = get(URI.create(api.endpoint() + "/v1/grid?field=f1&pageSize=1&project=project%232&cursor="
                    + java.net.URLEncoder.encode(cursor, StandardCharsets.UTF_8)), Map.of("Authorization", "Bearer " + token));
            assertThat(reused.status()).isEqualTo(400);
            assertThat(reused.json().path("parameter").asText()).isEqualTo("cursor");
        }
    }
}
