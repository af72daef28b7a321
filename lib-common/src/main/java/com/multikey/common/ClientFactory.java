package com.multikey.common;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.kinesis.KinesisClient;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The one place that builds AWS SDK clients for the functions.
 *
 * <p>Clients use the lightweight url-connection HTTP client and take from the environment they are given
 * the region ({@code AWS_REGION}), the standard endpoint overrides ({@code AWS_ENDPOINT_URL_<SERVICE>},
 * then {@code AWS_ENDPOINT_URL}) and, when present, the credentials ({@code AWS_ACCESS_KEY_ID}, ...; the
 * Lambda runtime sets them), so one jar runs against AWS, the local DynamoDB engine and
 * {@code sam local invoke --env-vars}. Build them once per container and reuse them.
 *
 * <p>Why the environment comes in as a map rather than through the SDK's own environment lookups: in
 * Lambda the map is the process environment, the same thing the SDK would read; the local runtime and the
 * packaging tests build handlers from their deployable jars in their own class loaders, and a map of
 * strings is all that can be handed across (docs/decisions/0010).
 */
public final class ClientFactory {

    private final Map<String, String> environment;
    private final Region region;

    public ClientFactory(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
        String name = environment.get("AWS_REGION");
        if (name == null || name.isBlank()) {
            throw new IllegalStateException("AWS_REGION is not set; the Lambda runtime sets it, locally export it");
        }
        this.region = Region.of(name);
    }

    public Region region() {
        return region;
    }

    public DynamoDbClient dynamoDb() {
        return configure(DynamoDbClient.builder(), "DYNAMODB").httpClient(httpClient()).build();
    }

    /**
     * A Kinesis Data Streams client ({@code AWS_ENDPOINT_URL_KINESIS}). Against AWS it speaks CBOR, the SDK's default;
     * with its endpoint overridden (the local Kinesis endpoint of the emulator, the operator CLI's
     * {@code --kinesis-endpoint}) it speaks AWS JSON 1.1, the protocol Kinesis documents and the local endpoint
     * answers. Needs {@code software.amazon.awssdk:kinesis} on the class path (an optional dependency of lib-common).
     */
    public KinesisClient kinesis() {
        var builder = configure(KinesisClient.builder(), "KINESIS").httpClient(httpClient());
        return endpoint("KINESIS").isPresent() ? withoutCbor(builder::build) : builder.build();
    }

    /** The SDK setting that makes a client speak CBOR, read once, when a client is built. */
    static final String CBOR_ENABLED = "aws.cborEnabled";

    /**
     * Builds a client with CBOR off. The SDK has no per-client switch, only a JVM-wide system property it reads when
     * a client is built: it is set for that moment and put back.
     */
    static <C> C withoutCbor(Supplier<C> build) {
        synchronized (ClientFactory.class) {
            String before = System.getProperty(CBOR_ENABLED);
            System.setProperty(CBOR_ENABLED, "false");
            try {
                return build.get();
            } finally {
                if (before == null) {
                    System.clearProperty(CBOR_ENABLED);
                } else {
                    System.setProperty(CBOR_ENABLED, before);
                }
            }
        }
    }

    /**
     * Applies region, credentials, endpoint override and timeouts to any SDK client builder.
     *
     * @param serviceId the service's id in {@code AWS_ENDPOINT_URL_<ID>}, e.g. {@code DYNAMODB}, {@code EVENTBRIDGE}
     */
    public <B extends AwsClientBuilder<B, ?>> B configure(B builder, String serviceId) {
        builder.region(region).credentialsProvider(credentials()).overrideConfiguration(overrides());
        endpoint(serviceId).ifPresent(builder::endpointOverride);
        return builder;
    }

    /** {@code AWS_ENDPOINT_URL_<SERVICE>}, else {@code AWS_ENDPOINT_URL}, else none (the service's own). */
    public Optional<URI> endpoint(String serviceId) {
        String specific = environment.get("AWS_ENDPOINT_URL_" + serviceId);
        String general = environment.get("AWS_ENDPOINT_URL");
        String chosen = specific != null && !specific.isBlank() ? specific : general;
        return chosen == null || chosen.isBlank() ? Optional.empty() : Optional.of(URI.create(chosen));
    }

    private AwsCredentialsProvider credentials() {
        String key = environment.get("AWS_ACCESS_KEY_ID");
        String secret = environment.get("AWS_SECRET_ACCESS_KEY");
        if (key == null || secret == null) {
            return DefaultCredentialsProvider.builder().build();
        }
        String token = environment.get("AWS_SESSION_TOKEN");
        return StaticCredentialsProvider.create(token == null
                ? AwsBasicCredentials.create(key, secret)
                : AwsSessionCredentials.create(key, secret, token));
    }

    /** An HTTP client for further SDK clients built elsewhere with the same settings. */
    public static SdkHttpClient httpClient() {
        return UrlConnectionHttpClient.builder()
                .connectionTimeout(Duration.ofSeconds(2))
                .socketTimeout(Duration.ofSeconds(10))
                .build();
    }

    /**
     * Attempts per API call, the first included. The SDK owns retrying a whole call that was throttled or
     * failed with a 5xx or an I/O error (standard strategy: exponential backoff with jitter, AWS's
     * retryable error codes); what an API hands back unprocessed is re-sent by {@link RetryBudget}. Calls
     * made for a stream batch also carry an {@code apiCallTimeout} from the invocation's {@link Deadline}.
     */
    public static final int MAX_ATTEMPTS_PER_CALL = 4;

    public static ClientOverrideConfiguration overrides() {
        return ClientOverrideConfiguration.builder()
                .retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder()
                        .maxAttempts(MAX_ATTEMPTS_PER_CALL).build())
                .apiCallAttemptTimeout(Duration.ofSeconds(10))
                .build();
    }
}
