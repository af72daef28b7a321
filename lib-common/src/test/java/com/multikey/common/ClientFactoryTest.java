package com.multikey.common;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.Map;

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
    void overrides_giveTheSdkTheRetriesOfWholeCalls_withABoundedNumberOfAttempts() {
        var overrides = ClientFactory.overrides();

        assertThat(overrides.retryStrategy()).hasValueSatisfying(strategy ->
                assertThat(strategy.maxAttempts()).isEqualTo(ClientFactory.MAX_ATTEMPTS_PER_CALL));
        assertThat(overrides.apiCallAttemptTimeout()).isPresent();
    }
}
