package com.multikey.local.runtime;

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
}
