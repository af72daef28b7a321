package com.multikey.emulator.services.http;

import com.multikey.emulator.auth.SigV4Verifier;
import com.multikey.emulator.template.HttpApiRoutes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The local HTTP API's doorway, without a function behind it: a route whose function cannot be had answers 500 once a
 * request gets past authorization, so 403 and 404 tell a refused request from one that got through.
 */
class LocalHttpApiTest {

    private static final Instant NOW = Instant.parse("2026-11-25T12:00:00Z");
    private static final List<String> LINES = new CopyOnWriteArrayList<>();
    private static LocalHttpApi api;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() {
        HttpApiRoutes routes = new HttpApiRoutes("QueryApi", List.of(new HttpApiRoutes.Route("GET /v1/grid", "GET",
                Pattern.compile(Pattern.quote("/v1/grid")), List.of(), "QueryFunction", new HttpApiRoutes.Iam())));
        api = LocalHttpApi.start(routes, logicalId -> {
            throw new IllegalStateException("no function here");
        }, new SigV4Verifier(Map.of("local", "local"), "us-east-1", "execute-api", Clock.fixed(NOW, ZoneOffset.UTC)), Optional.empty(),
                Clock.fixed(NOW, ZoneOffset.UTC), LINES::add, "127.0.0.1", 0);
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    /** The signing headers of the AWS SDK's signer for {@code method} {@code uri} with {@code body}. */
    private static Map<String, List<String>> signed(String method, URI uri, String body) {
        SdkHttpFullRequest request = SdkHttpFullRequest.builder().method(SdkHttpMethod.fromValue(method)).uri(uri).build();
        var signed = AwsV4HttpSigner.create().sign(r -> r.request(request).identity(AwsCredentialsIdentity.create("local", "local"))
                .payload(() -> new java.io.ByteArrayInputStream(body.getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "execute-api").putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
                .putProperty(AwsV4HttpSigner.SIGNING_CLOCK, Clock.fixed(NOW, ZoneOffset.UTC)));
        return signed.request().headers();
    }

    private static int send(String method, String pathAndQuery, Map<String, List<String>> headers, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(api.endpoint() + pathAndQuery))
                .method(method, body.isEmpty() ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        headers.forEach((name, values) -> {
            if (!name.equalsIgnoreCase("host") && !name.equalsIgnoreCase("content-length")) {
                values.forEach(value -> request.header(name, value));
            }
        });
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    @Test
    void aSignedGet_getsThrough_andAnyChangeToIt_isRefused() throws Exception {
        URI uri = URI.create(api.endpoint() + "/v1/grid?field=f&project=p");
        Map<String, List<String>> headers = signed("GET", uri, "");

        assertThat(send("GET", "/v1/grid?field=f&project=p", headers, "")).isEqualTo(500);
        assertThat(send("GET", "/v1/grid?field=f&project=q", headers, "")).isEqualTo(403);
        assertThat(send("GET", "/v1/grid?field=f&project=p&project=q", headers, "")).isEqualTo(403);
        assertThat(send("GET", "/v1/grid?field=f&project=p", headers, "a body")).isEqualTo(403);
        assertThat(send("POST", "/v1/grid?field=f&project=p", headers, "")).isEqualTo(404);
        assertThat(send("HEAD", "/v1/grid?field=f&project=p", headers, "")).isEqualTo(404);
        assertThat(send("GET", "/v1/x/../grid?field=f&project=p", headers, "")).isEqualTo(404);
        assertThat(send("GET", "/v1/%67rid?field=f&project=p", headers, "")).isEqualTo(404);
    }

    @Test
    void aSignedRequestWithABody_isVerifiedOnThatBody() throws Exception {
        URI uri = URI.create(api.endpoint() + "/v1/grid");
        Map<String, List<String>> headers = signed("GET", uri, "one");

        assertThat(send("GET", "/v1/grid", headers, "one")).isEqualTo(500);
        assertThat(send("GET", "/v1/grid", headers, "two")).isEqualTo(403);
    }

    @Test
    void aVeryLongUnsignedHeader_reachesTheFunction_andIsNeverLogged() throws Exception {
        URI uri = URI.create(api.endpoint() + "/v1/grid");
        Map<String, List<String>> headers = new java.util.HashMap<>(signed("GET", uri, ""));
        headers.put("x-padding", List.of("x".repeat(200_000)));

        assertThat(send("GET", "/v1/grid", headers, "")).isEqualTo(500);
        assertThat(String.join("\n", LINES)).doesNotContain("xxxx");
    }

    /**
     * The SDK signer's headers for a GET whose query string is sent as given (the signer encodes it as AWS
     * canonicalizes it), and the request line and those headers written on a socket: a client that sends
     * {@code %zz} as it is, as curl does, which {@link HttpClient} cannot (its URI refuses it).
     */
    static String rawSignedGet(URI endpoint, String path, Map<String, String> rawQuery, Instant when) throws Exception {
        SdkHttpFullRequest.Builder unsigned = SdkHttpFullRequest.builder().method(SdkHttpMethod.GET).protocol("http")
                .host(endpoint.getHost()).port(endpoint.getPort()).encodedPath(path);
        rawQuery.forEach(unsigned::putRawQueryParameter);
        var signed = AwsV4HttpSigner.create().sign(r -> r.request(unsigned.build()).identity(AwsCredentialsIdentity.create("local", "local"))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "execute-api").putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
                .putProperty(AwsV4HttpSigner.SIGNING_CLOCK, Clock.fixed(when, ZoneOffset.UTC)));
        StringBuilder request = new StringBuilder("GET " + path + "?" + String.join("&", rawQuery.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).toList()) + " HTTP/1.1\r\n");
        signed.request().headers().forEach((name, values) -> values.forEach(value -> request.append(name).append(": ").append(value).append("\r\n")));
        if (signed.request().firstMatchingHeader("Host").isEmpty()) {
            request.append("Host: ").append(endpoint.getHost()).append(':').append(endpoint.getPort()).append("\r\n");
        }
        request.append("Connection: close\r\n\r\n");
        try (java.net.Socket socket = new java.net.Socket(endpoint.getHost(), endpoint.getPort())) {
            socket.getOutputStream().write(request.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
            return new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    @Test
    void aQueryStringThatIsNotValidPercentEncoding_isVerified_andReachesTheFunction_asApiGatewayPassesIt() throws Exception {
        // when: a signed request with %zz in the query, and the same with a character a URI may not hold
        Map<String, String> query = new java.util.LinkedHashMap<>();
        query.put("equals", "%zz");
        query.put("field", "f");
        query.put("project", "p");
        String badEscape = rawSignedGet(api.endpoint(), "/v1/grid", query, NOW);
        query.put("equals", "a|b");
        String bar = rawSignedGet(api.endpoint(), "/v1/grid", query, NOW);

        // then: past the signature check to the function (which this test has none of: 500), not refused by the server
        assertThat(badEscape).as(badEscape).startsWith("HTTP/1.1 500").contains("{\"message\":\"Internal Server Error\"}");
        assertThat(bar).as(bar).startsWith("HTTP/1.1 500");
        assertThat(LINES).anySatisfy(line -> assertThat(line).contains("QueryFunction failed on GET /v1/grid"));
    }

    @Test
    void theServersThreads_areDaemons_soTheyNeverKeepTheJvmAlive() {
        assertThat(Thread.getAllStackTraces().keySet()).filteredOn(thread -> thread.getName().startsWith("local-http-api"))
                .isNotEmpty().allMatch(Thread::isDaemon);
    }
}
