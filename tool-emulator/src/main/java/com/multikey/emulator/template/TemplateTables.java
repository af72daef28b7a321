package com.multikey.emulator.template;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Creates the template's {@code AWS::DynamoDB::Table} resources in the local DynamoDB engine, from their own
 * definitions: keys, attribute definitions, global secondary indexes, stream and TTL settings. A table is
 * named after its logical id. A table whose {@code Condition} is false (e.g. {@code AppTable} when the stack is
 * given an existing table) is not created, as a deploy would not create it.
 */
public final class TemplateTables {

    public static final String TABLE_TYPE = "AWS::DynamoDB::Table";

    private TemplateTables() {
    }

    /** @return table name by logical id */
    public static Map<String, String> create(SamTemplate template, DynamoDbClient dynamoDb) {
        return create(template, dynamoDb, Map.of());
    }

    /**
     * As {@link #create(SamTemplate, DynamoDbClient)}; a table's {@code KinesisStreamSpecification} (its {@code StreamArn}
     * resolved with {@code localNames}: the data stream must exist) becomes its Kinesis streaming destination, as
     * CloudFormation enables it (EnableKinesisStreamingDestination, with {@code ApproximateCreationDateTimePrecision}).
     */
    public static Map<String, String> create(SamTemplate template, DynamoDbClient dynamoDb, Map<String, String> localNames) {
        Map<String, String> names = new LinkedHashMap<>();
        SamTemplate deployed = template.deployed();
        for (String logicalId : deployed.resourcesOfType(TABLE_TYPE)) {
            CreateTableRequest request = createRequest(logicalId, deployed.properties(logicalId));
            dynamoDb.createTable(request);
            dynamoDb.waiter().waitUntilTableExists(b -> b.tableName(logicalId));
            Object ttl = deployed.properties(logicalId).get("TimeToLiveSpecification");
            if (ttl != null) {
                Map<String, Object> spec = SamTemplate.map(ttl, logicalId + ".TimeToLiveSpecification");
                if (Boolean.TRUE.equals(spec.get("Enabled"))) {
                    dynamoDb.updateTimeToLive(b -> b.tableName(logicalId).timeToLiveSpecification(
                            t -> t.enabled(true).attributeName((String) spec.get("AttributeName"))));
                }
            }
            if (deployed.properties(logicalId).get("KinesisStreamSpecification") instanceof Map<?, ?> kinesis) {
                String streamArn = TemplateEnvironment.resolve(kinesis.get("StreamArn"), deployed, localNames,
                        logicalId + ".KinesisStreamSpecification.StreamArn");
                Object precision = kinesis.get("ApproximateCreationDateTimePrecision");
                dynamoDb.enableKinesisStreamingDestination(b -> {
                    b.tableName(logicalId).streamArn(streamArn);
                    if (precision != null) {
                        b.enableKinesisStreamingConfiguration(c -> c.approximateCreationDateTimePrecision(String.valueOf(precision)));
                    }
                });
            }
            names.put(logicalId, logicalId);
        }
        return names;
    }

    static CreateTableRequest createRequest(String logicalId, Map<String, Object> properties) {
        CreateTableRequest.Builder request = CreateTableRequest.builder()
                .tableName(logicalId)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(list(properties.get("AttributeDefinitions"), logicalId).stream()
                        .map(d -> AttributeDefinition.builder()
                                .attributeName((String) d.get("AttributeName"))
                                .attributeType((String) d.get("AttributeType")).build())
                        .toList())
                .keySchema(keySchema(properties.get("KeySchema"), logicalId));
        if (properties.containsKey("GlobalSecondaryIndexes")) {
            request.globalSecondaryIndexes(list(properties.get("GlobalSecondaryIndexes"), logicalId).stream()
                    .map(index -> GlobalSecondaryIndex.builder()
                            .indexName((String) index.get("IndexName"))
                            .keySchema(keySchema(index.get("KeySchema"), logicalId))
                            .projection(projection(index.get("Projection"), logicalId))
                            .build())
                    .toList());
        }
        if (properties.containsKey("StreamSpecification")) {
            Map<String, Object> stream = SamTemplate.map(properties.get("StreamSpecification"), logicalId + ".StreamSpecification");
            request.streamSpecification(StreamSpecification.builder()
                    .streamEnabled(true)
                    .streamViewType((String) stream.get("StreamViewType")).build());
        }
        return request.build();
    }

    private static List<KeySchemaElement> keySchema(Object schema, String logicalId) {
        return list(schema, logicalId).stream()
                .map(k -> KeySchemaElement.builder()
                        .attributeName((String) k.get("AttributeName"))
                        .keyType((String) k.get("KeyType")).build())
                .toList();
    }

    private static Projection projection(Object projection, String logicalId) {
        Map<String, Object> map = SamTemplate.map(projection, logicalId + " projection");
        Projection.Builder builder = Projection.builder().projectionType((String) map.get("ProjectionType"));
        if (map.containsKey("NonKeyAttributes")) {
            @SuppressWarnings("unchecked")
            List<String> attributes = (List<String>) map.get("NonKeyAttributes");
            builder.nonKeyAttributes(attributes);
        }
        return builder.build();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Object value, String logicalId) {
        if (!(value instanceof List<?>)) {
            throw new IllegalArgumentException(logicalId + ": expected a list in the table definition");
        }
        return (List<Map<String, Object>>) value;
    }
}
