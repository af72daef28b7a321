package com.multikey.dynamodb.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.dynamodb.kinesis.KinesisSink;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.ApproximateCreationDateTimePrecision;
import software.amazon.awssdk.services.dynamodb.model.DestinationStatus;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.EnableKinesisStreamingDestinationResponse;
import software.amazon.awssdk.services.dynamodb.model.KinesisDataStreamDestination;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Kinesis Data Streams for DynamoDB as the DynamoDB API reference documents it: Enable-, Disable-, Describe- and
 * UpdateKinesisStreamingDestination, and each change of the table put on the data stream as the JSON record AWS puts
 * there, keyed by the item's partition key.
 */
@EngineOnly("a Kinesis sink in-process")
class KinesisStreamingDestinationTest extends EngineTestSupport {

    private static final String STREAM = "arn:aws:kinesis:us-east-1:000000000000:stream/changes";
    private final List<String[]> put = new ArrayList<>();

    @BeforeEach
    void sink() {
        put.clear();
        engine.kinesisSink(new KinesisSink() {
            @Override
            public boolean exists(String streamArn) {
                return STREAM.equals(streamArn);
            }

            @Override
            public void put(String streamArn, String partitionKey, byte[] data) {
                put.add(new String[] {streamArn, partitionKey, new String(data, StandardCharsets.UTF_8)});
            }
        });
    }

    @Test
    void enable_whenTheStreamExists_eachChangeIsPutAsAwsWritesIt() throws IOException {
        // given
        String table = hashTable();

        // when
        EnableKinesisStreamingDestinationResponse enabled = dynamoDb.enableKinesisStreamingDestination(b -> b.tableName(table).streamArn(STREAM)
                .enableKinesisStreamingConfiguration(c -> c.approximateCreationDateTimePrecision(ApproximateCreationDateTimePrecision.MICROSECOND)));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"), "v", n("1"))));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"), "v", n("2"))));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"), "v", n("2"))));
        dynamoDb.deleteItem(b -> b.tableName(table).key(Map.of("id", s("a"))));

        // then
        assertThat(enabled.destinationStatus()).isEqualTo(DestinationStatus.ENABLING);
        assertThat(enabled.enableKinesisStreamingConfiguration().approximateCreationDateTimePrecision())
                .isEqualTo(ApproximateCreationDateTimePrecision.MICROSECOND);
        assertThat(put).as("a write that changes nothing puts nothing").hasSize(3)
                .allSatisfy(record -> assertThat(record[0]).isEqualTo(STREAM))
                .allSatisfy(record -> assertThat(record[1]).as("keyed by the partition key").isEqualTo("a"));
        ObjectMapper json = new ObjectMapper();
        JsonNode insert = json.readTree(put.get(0)[2]);
        JsonNode modify = json.readTree(put.get(1)[2]);
        JsonNode remove = json.readTree(put.get(2)[2]);
        assertThat(insert.path("awsRegion").asText()).isEqualTo("us-east-1");
        assertThat(insert.path("eventName").asText()).isEqualTo("INSERT");
        assertThat(insert.path("recordFormat").asText()).isEqualTo("application/json");
        assertThat(insert.path("tableName").asText()).isEqualTo(table);
        assertThat(insert.path("eventSource").asText()).isEqualTo("aws:dynamodb");
        assertThat(insert.has("userIdentity")).isTrue();
        assertThat(insert.path("userIdentity").isNull()).isTrue();
        assertThat(insert.path("dynamodb").path("Keys").toString()).isEqualTo("{\"id\":{\"S\":\"a\"}}");
        assertThat(insert.path("dynamodb").has("OldImage")).isFalse();
        assertThat(insert.path("dynamodb").path("NewImage").path("v").path("N").asText()).isEqualTo("1");
        assertThat(insert.path("dynamodb").path("SizeBytes").asLong()).isPositive();
        assertThat(modify.path("eventName").asText()).isEqualTo("MODIFY");
        assertThat(modify.path("dynamodb").path("OldImage").path("v").path("N").asText()).isEqualTo("1");
        assertThat(modify.path("dynamodb").path("NewImage").path("v").path("N").asText()).isEqualTo("2");
        assertThat(remove.path("eventName").asText()).isEqualTo("REMOVE");
        assertThat(remove.path("dynamodb").has("NewImage")).isFalse();
        long micros = clock.instant().toEpochMilli() * 1000;
        assertThat(insert.path("dynamodb").path("ApproximateCreationDateTime").asLong()).as("microseconds").isEqualTo(micros);
        assertThat(modify.path("dynamodb").path("ApproximateCreationDateTime").asLong()).as("strictly after the change before")
                .isGreaterThan(insert.path("dynamodb").path("ApproximateCreationDateTime").asLong());
        assertThat(List.of(insert, modify, remove)).extracting(r -> r.path("eventID").asText()).doesNotHaveDuplicates();
    }

    @Test
    void enable_withoutPrecision_isMilliseconds_andDescribeListsTheDestination() throws IOException {
        // given
        String table = hashTable();
        dynamoDb.enableKinesisStreamingDestination(b -> b.tableName(table).streamArn(STREAM));

        // when
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("b"))));
        List<KinesisDataStreamDestination> destinations = dynamoDb.describeKinesisStreamingDestination(b -> b.tableName(table))
                .kinesisDataStreamDestinations();

        // then
        assertThat(new ObjectMapper().readTree(put.get(0)[2]).path("dynamodb").path("ApproximateCreationDateTime").asLong())
                .isEqualTo(clock.instant().toEpochMilli());
        assertThat(destinations).singleElement().satisfies(d -> {
            assertThat(d.streamArn()).isEqualTo(STREAM);
            assertThat(d.destinationStatus()).isEqualTo(DestinationStatus.ACTIVE);
            assertThat(d.approximateCreationDateTimePrecision()).isEqualTo(ApproximateCreationDateTimePrecision.MILLISECOND);
        });
    }

    @Test
    void disable_stopsTheRecords_andDescribeSaysDisabled() {
        // given
        String table = hashTable();
        dynamoDb.enableKinesisStreamingDestination(b -> b.tableName(table).streamArn(STREAM));

        // when
        var disabled = dynamoDb.disableKinesisStreamingDestination(b -> b.tableName(table).streamArn(STREAM));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("c"))));

        // then
        assertThat(disabled.destinationStatus()).isEqualTo(DestinationStatus.DISABLING);
        assertThat(put).isEmpty();
        assertThat(dynamoDb.describeKinesisStreamingDestination(b -> b.tableName(table)).kinesisDataStreamDestinations())
                .singleElement().satisfies(d -> assertThat(d.destinationStatus()).isEqualTo(DestinationStatus.DISABLED));
        assertThatThrownBy(() -> dynamoDb.disableKinesisStreamingDestination(b -> b.tableName(table).streamArn(STREAM)))
                .isInstanceOf(DynamoDbException.class).hasMessageContaining("not streaming");
    }

    @Test
    void update_changesThePrecision() {
        // given
        String table = hashTable();
        dynamoDb.enableKinesisStreamingDestination(b -> b.tableName(table).streamArn(STREAM));

        // when
        dynamoDb.updateKinesisStreamingDestination(b -> b.tableName(table).streamArn(STREAM)
                .updateKinesisStreamingConfiguration(c -> c.approximateCreationDateTimePrecision(ApproximateCreationDateTimePrecision.MICROSECOND)));

        // then
        assertThat(dynamoDb.describeKinesisStreamingDestination(b -> b.tableName(table)).kinesisDataStreamDestinations())
                .singleElement().satisfies(d -> assertThat(d.approximateCreationDateTimePrecision()).isEqualTo(ApproximateCreationDateTimePrecision.MICROSECOND));
    }

    @Test
    void enable_whenTheStreamDoesNotExist_orTheTableStreamsAlready_isRefused() {
        // given
        String table = hashTable();

        // when / then
        assertThatThrownBy(() -> dynamoDb.enableKinesisStreamingDestination(b -> b.tableName(table)
                .streamArn("arn:aws:kinesis:us-east-1:000000000000:stream/missing"))).isInstanceOf(ResourceNotFoundException.class);
        dynamoDb.enableKinesisStreamingDestination(b -> b.tableName(table).streamArn(STREAM));
        assertThatThrownBy(() -> dynamoDb.enableKinesisStreamingDestination(b -> b.tableName(table).streamArn(STREAM)))
                .isInstanceOf(DynamoDbException.class).hasMessageContaining("already streaming");
    }
}
