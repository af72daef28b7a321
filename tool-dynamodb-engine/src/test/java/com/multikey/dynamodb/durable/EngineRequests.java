package com.multikey.dynamodb.durable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.dynamodb.EngineResponse;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the durable engine's tests send it and do to its files: requests answered 200 (their JSON answers), the issues
 * table they create, and a byte of a file flipped.
 */
final class EngineRequests {

    /** The issues table: keyed by id, a ByProject index, a stream of new and old images. */
    static final String ISSUES_TABLE = "{\"TableName\":\"issues\",\"BillingMode\":\"PAY_PER_REQUEST\","
            + "\"KeySchema\":[{\"AttributeName\":\"id\",\"KeyType\":\"HASH\"}],"
            + "\"AttributeDefinitions\":[{\"AttributeName\":\"id\",\"AttributeType\":\"S\"},{\"AttributeName\":\"project\",\"AttributeType\":\"S\"}],"
            + "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"ByProject\",\"KeySchema\":[{\"AttributeName\":\"project\",\"KeyType\":\"HASH\"}],"
            + "\"Projection\":{\"ProjectionType\":\"ALL\"}}],"
            + "\"StreamSpecification\":{\"StreamEnabled\":true,\"StreamViewType\":\"NEW_AND_OLD_IMAGES\"}}";

    private static final ObjectMapper JSON = new ObjectMapper();

    private EngineRequests() {
    }

    /** A DynamoDB operation, answered 200; its answer. */
    static JsonNode ok(DurableEngine engine, String operation, String body) {
        return call(engine, "DynamoDB_20120810." + operation, body);
    }

    /** A DynamoDB Streams operation, answered 200; its answer. */
    static JsonNode streams(DurableEngine engine, String operation, String body) {
        return call(engine, "DynamoDBStreams_20120810." + operation, body);
    }

    /** A request to the target (service and operation), answered 200; its answer. */
    static JsonNode call(DurableEngine engine, String target, String body) {
        EngineResponse response = engine.handle(target, body.getBytes(StandardCharsets.UTF_8));
        assertThat(response.status()).as("%s %s", target, response.bodyText()).isEqualTo(200);
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Flips bits of the byte at {@code at} of the file (a damaged disk's doing). */
    static void flip(Path file, long at) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(at);
            int b = raf.read();
            raf.seek(at);
            raf.write(b ^ 0x5a);
        }
    }
}
