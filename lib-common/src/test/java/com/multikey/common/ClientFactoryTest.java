package com.multikey.common;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClientFactoryTest {

    @Test
    void endpoint_whenServiceSpecificOverrideSet_winsOverTheGeneralOne() {
        ClientFactory factory = new ClientFactory(Map.of("AWS_REGION", "eu-west-1",
                "AWS_ENDPOINT_URL", "http://localhost:4566", "AWS_ENDPOINT_URL_DYNAMODB", "http://localhost:8000"));

        assertThat(factory.endpoint("DYNAMODB")).contains(URI.create("http://localhost:8000"));
        assertThat(factory.endpoint("EVENTBRIDGE")).contains(URI.create("http://localhost:4566"));
        assertThat(factory.region().id()).isEqualTo("eu-west-1");
    }

    @Test
    void endpoint_whenNoOverride_isTheServicesOwn() {
        assertThat(new ClientFactory(Map.of("AWS_REGION", "us-east-1")).endpoint("DYNAMODB")).isEmpty();
    }

    @Test
    void constructor_whenRegionMissing_explains() {
        assertThatThrownBy(() -> new ClientFactory(Map.of())).hasMessageContaining("AWS_REGION is not set");
    }

    @Test
    void dynamoDb_whenEnvironmentNamesLocalEndpoint_buildsAClientForIt() {
        try (var client = new ClientFactory(Map.of("AWS_REGION", "us-east-1", "AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:1",
                "AWS_ACCESS_KEY_ID", "k", "AWS_SECRET_ACCESS_KEY", "s")).dynamoDb()) {
            assertThat(client.serviceClientConfiguration().endpointOverride()).contains(URI.create("http://127.0.0.1:1"));
            assertThat(client.serviceClientConfiguration().region().id()).isEqualTo("us-east-1");
        }
    }

    @Test
    void kinesis_whenEnvironmentNamesLocalEndpoint_speaksAwsJsonToIt_andLeavesTheSdksCborSettingAsItWas() throws Exception {
        List<String> contentTypes = new CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            contentTypes.add(exchange.getRequestHeaders().getFirst("Content-Type"));
            byte[] answer = "{\"ShardIterator\":\"iterator-1\"}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/x-amz-json-1.1");
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
        URI endpoint = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        try (var client = new ClientFactory(Map.of("AWS_REGION", "us-east-1", "AWS_ENDPOINT_URL_KINESIS", endpoint.toString(),
                "AWS_ACCESS_KEY_ID", "k", "AWS_SECRET_ACCESS_KEY", "s")).kinesis()) {
            assertThat(client.serviceClientConfiguration().endpointOverride()).contains(endpoint);
            assertThat(client.getShardIterator(b -> b.streamARN("arn:aws:kinesis:us-east-1:123456789012:stream/S")
                    .shardId("shardId-000000000000").shardIteratorType("AT_SEQUENCE_NUMBER").startingSequenceNumber("1"))
                    .shardIterator()).isEqualTo("iterator-1");
        } finally {
            server.stop(0);
        }

        assertThat(contentTypes).containsExactly("application/x-amz-json-1.1");
        assertThat(System.getProperty(ClientFactory.CBOR_ENABLED)).isNull();
    }

    @Test
    void kinesis_whenNoOverride_isTheRegionsOwn() {
        try (var client = new ClientFactory(Map.of("AWS_REGION", "eu-west-1", "AWS_ACCESS_KEY_ID", "k", "AWS_SECRET_ACCESS_KEY", "s"))
                .kinesis()) {
            assertThat(client.serviceClientConfiguration().endpointOverride()).isEmpty();
            assertThat(client.serviceClientConfiguration().region().id()).isEqualTo("eu-west-1");
        }
    }

    @Test
    void overrides_giveTheSdkTheRetriesOfWholeCalls_withABoundedNumberOfAttempts() {
        var overrides = ClientFactory.overrides();

        assertThat(overrides.retryStrategy()).hasValueSatisfying(strategy ->
                assertThat(strategy.maxAttempts()).isEqualTo(ClientFactory.MAX_ATTEMPTS_PER_CALL));
        assertThat(overrides.apiCallAttemptTimeout()).isPresent();
    }
}
