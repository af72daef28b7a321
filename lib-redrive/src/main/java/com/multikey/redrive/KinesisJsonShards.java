package com.multikey.redrive;

import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.protocols.jsoncore.JsonWriter;
import software.amazon.awssdk.regions.Region;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;

/**
 * {@link KinesisShards} over the Kinesis Data Streams API itself (AWS JSON 1.1, {@code X-Amz-Target:
 * Kinesis_20131202.<Operation>}, signed with Signature Version 4 by the SDK's own signer, sent with the SDK's HTTP
 * client): the two calls redrive makes do not justify the Kinesis SDK client in the jar. A throttled or failed call
 * ({@code ProvisionedThroughputExceededException}, {@code LimitExceededException}, a 5xx, an I/O error) is tried again,
 * {@value #MAX_ATTEMPTS} attempts in all, with a growing pause.
 */
public final class KinesisJsonShards implements KinesisShards {

    static final int MAX_ATTEMPTS = 4;
    private static final String TARGET_PREFIX = "Kinesis_20131202.";
    private static final Set<String> RETRIED = Set.of("ProvisionedThroughputExceededException", "LimitExceededException",
            "InternalFailure", "ServiceUnavailable", "ThrottlingException");

    private final SdkHttpClient http;
    private final AwsCredentialsProvider credentials;
    private final Region region;
    private final URI endpoint;

    /** @param endpoint the Kinesis endpoint ({@link #defaultEndpoint(Region)} unless overridden) */
    public KinesisJsonShards(SdkHttpClient http, AwsCredentialsProvider credentials, Region region, URI endpoint) {
        this.http = http;
        this.credentials = credentials;
        this.region = region;
        this.endpoint = endpoint;
    }

    /** {@code https://kinesis.<region>.<the partition's domain>}. */
    public static URI defaultEndpoint(Region region) {
        String domain = region.metadata() == null ? "amazonaws.com" : region.metadata().domain();
        return URI.create("https://kinesis." + region.id() + "." + domain);
    }

    @Override
    public String shardIteratorAt(String streamArn, String shardId, String sequenceNumber) {
        String body = json(json -> {
            json.writeFieldName("StreamARN").writeValue(streamArn);
            json.writeFieldName("ShardId").writeValue(shardId);
            json.writeFieldName("ShardIteratorType").writeValue("AT_SEQUENCE_NUMBER");
            json.writeFieldName("StartingSequenceNumber").writeValue(sequenceNumber);
        });
        return text(call("GetShardIterator", body), "ShardIterator");
    }

    @Override
    public Page records(String shardIterator, int limit) {
        JsonNode answer = call("GetRecords", json(json -> {
            json.writeFieldName("ShardIterator").writeValue(shardIterator);
            json.writeFieldName("Limit").writeValue(limit);
        }));
        List<Record> records = new ArrayList<>();
        Json.field(answer, "Records").filter(JsonNode::isArray).ifPresent(array -> array.asArray().forEach(record -> {
            String arrival = Json.text(record, "ApproximateArrivalTimestamp");
            records.add(new Record(text(record, "SequenceNumber"), Json.text(record, "PartitionKey"),
                    Base64.getDecoder().decode(text(record, "Data")),
                    arrival == null ? null : Instant.ofEpochMilli(new BigDecimal(arrival).movePointRight(3).longValue())));
        }));
        String behind = Json.text(answer, "MillisBehindLatest");
        return new Page(records, Json.text(answer, "NextShardIterator"), behind == null ? 0 : Long.parseLong(behind));
    }

    private JsonNode call(String operation, String body) {
        for (int attempt = 1; ; attempt++) {
            try {
                return once(operation, body);
            } catch (KinesisException e) {
                if (!RETRIED.contains(e.errorCode()) || attempt == MAX_ATTEMPTS) {
                    throw e;
                }
            } catch (UncheckedIOException e) {
                if (attempt == MAX_ATTEMPTS) {
                    throw e;
                }
            }
            pause(attempt);
        }
    }

    private JsonNode once(String operation, String body) {
        SdkHttpRequest request = SdkHttpRequest.builder().method(SdkHttpMethod.POST).uri(endpoint)
                .putHeader("Content-Type", "application/x-amz-json-1.1")
                .putHeader("X-Amz-Target", TARGET_PREFIX + operation).build();
        SignedRequest signed = AwsV4HttpSigner.create().sign(r -> r.identity(credentials.resolveCredentials()).request(request)
                .payload(ContentStreamProvider.fromUtf8String(body))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "kinesis")
                .putProperty(AwsV4HttpSigner.REGION_NAME, region.id()));
        try {
            HttpExecuteResponse response = http.prepareRequest(HttpExecuteRequest.builder().request(signed.request())
                    .contentStreamProvider(signed.payload().orElse(null)).build()).call();
            String text;
            try (InputStream stream = response.responseBody().map(InputStream.class::cast).orElse(InputStream.nullInputStream())) {
                text = new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            }
            int status = response.httpResponse().statusCode();
            JsonNode answer = text.isBlank() ? JsonNode.emptyObjectNode() : Json.parse(text);
            if (status >= 300) {
                String type = Json.text(answer, "__type");
                String code = type == null ? (status >= 500 ? "InternalFailure" : "HTTP " + status) : type.substring(type.indexOf('#') + 1);
                String message = Json.text(answer, "message") == null ? Json.text(answer, "Message") : Json.text(answer, "message");
                throw new KinesisException(code, String.valueOf(message));
            }
            return answer;
        } catch (IOException e) {
            throw new UncheckedIOException("Kinesis " + operation + " failed: " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new KinesisException("InternalFailure", "Kinesis " + operation + " answered no JSON");
        }
    }

    private static void pause(int attempt) {
        try {
            Thread.sleep(100L << attempt);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to call Kinesis again", e);
        }
    }

    private static String text(JsonNode node, String field) {
        String value = Json.text(node, field);
        if (value == null) {
            throw new KinesisException("InternalFailure", "the answer has no " + field);
        }
        return value;
    }

    private static String json(java.util.function.Consumer<JsonWriter> fields) {
        try (JsonWriter json = JsonWriter.create()) {
            json.writeStartObject();
            fields.accept(json);
            json.writeEndObject();
            return new String(json.getBytes(), StandardCharsets.UTF_8);
        }
    }
}
