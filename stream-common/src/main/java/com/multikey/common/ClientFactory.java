package com.multikey.common;

import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.time.Duration;
import java.util.Map;

/**
 * The one place that builds AWS SDK clients for the functions.
 *
 * <p>Clients use the lightweight url-connection HTTP client, take the region from {@code AWS_REGION}
 * and keep the SDK's own handling of the standard endpoint overrides ({@code AWS_ENDPOINT_URL},
 * {@code AWS_ENDPOINT_URL_DYNAMODB}, ...), so one jar runs against AWS, DynamoDB Local and
 * {@code sam local invoke --env-vars}. Build them once per container and reuse them.
 */
public final class ClientFactory {

    private final Region region;

    public ClientFactory(Map<String, String> environment) {
        String name = environment.get("AWS_REGION");
        if (name == null || name.isBlank()) {
            throw new IllegalStateException("AWS_REGION is not set; the Lambda runtime sets it, locally export it");
        }
        this.region = Region.of(name);
    }

    public static ClientFactory fromEnvironment() {
        return new ClientFactory(System.getenv());
    }

    public Region region() {
        return region;
    }

    public DynamoDbClient dynamoDb() {
        return DynamoDbClient.builder()
                .region(region)
                .httpClient(httpClient())
                .overrideConfiguration(overrides())
                .build();
    }

    /** An HTTP client for further SDK clients built elsewhere with the same settings. */
    public static SdkHttpClient httpClient() {
        return UrlConnectionHttpClient.builder()
                .connectionTimeout(Duration.ofSeconds(2))
                .socketTimeout(Duration.ofSeconds(10))
                .build();
    }

    public static ClientOverrideConfiguration overrides() {
        return ClientOverrideConfiguration.builder()
                .apiCallAttemptTimeout(Duration.ofSeconds(10))
                .build();
    }
}
