package com.multikey.dynamodb.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.dynamodb.stream.StreamLog;
import com.multikey.dynamodb.table.IndexDefinition;
import com.multikey.dynamodb.table.KeySchema;
import com.multikey.dynamodb.table.Projection;
import com.multikey.dynamodb.table.SecondaryIndex;
import com.multikey.dynamodb.table.Table;
import com.multikey.dynamodb.table.Throughput;

/** A table as DescribeTable (and CreateTable, UpdateTable, DeleteTable) describes it. */
final class TableDescriptions {

    private TableDescriptions() {
    }

    /** Call under the table's lock. */
    static ObjectNode describe(Table table, String status) {
        ObjectNode json = Json.object();
        ArrayNode definitions = json.putArray("AttributeDefinitions");
        table.attributeTypes().forEach((name, type) -> definitions.addObject().put("AttributeName", name).put("AttributeType", type));
        json.put("TableName", table.name());
        json.set("KeySchema", keySchema(table.keySchema()));
        json.put("TableStatus", status);
        json.put("CreationDateTime", Json.epochSeconds(table.created()));
        json.set("ProvisionedThroughput", throughput(table.throughput()));
        json.put("TableSizeBytes", table.items().sizeBytes());
        json.put("ItemCount", table.items().itemCount());
        json.put("TableArn", table.arn());
        json.put("TableId", table.id());
        if (table.throughput() == null) {
            json.putObject("BillingModeSummary").put("BillingMode", "PAY_PER_REQUEST")
                    .put("LastUpdateToPayPerRequestDateTime", Json.epochSeconds(table.created()));
        }
        ArrayNode locals = Json.array();
        ArrayNode globals = Json.array();
        for (SecondaryIndex index : table.indexes()) {
            IndexDefinition definition = index.definition();
            ObjectNode description = (definition.global() ? globals : locals).addObject();
            description.put("IndexName", definition.name());
            description.set("KeySchema", keySchema(definition.keySchema()));
            description.set("Projection", projection(definition.projection()));
            if (definition.global()) {
                description.put("IndexStatus", "ACTIVE");
                description.set("ProvisionedThroughput", throughput(definition.throughput()));
            }
            description.put("IndexSizeBytes", index.store().sizeBytes());
            description.put("ItemCount", index.store().itemCount());
            description.put("IndexArn", table.arn() + "/index/" + definition.name());
        }
        if (!locals.isEmpty()) {
            json.set("LocalSecondaryIndexes", locals);
        }
        if (!globals.isEmpty()) {
            json.set("GlobalSecondaryIndexes", globals);
        }
        StreamLog stream = table.stream();
        if (stream != null) {
            if (stream.enabled()) {
                json.putObject("StreamSpecification").put("StreamEnabled", true).put("StreamViewType", stream.viewType().name());
            }
            json.put("LatestStreamLabel", stream.label());
            json.put("LatestStreamArn", stream.arn());
        }
        json.put("DeletionProtectionEnabled", false);
        return json;
    }

    static ArrayNode keySchema(KeySchema schema) {
        ArrayNode json = Json.array();
        json.addObject().put("AttributeName", schema.partition().name()).put("KeyType", "HASH");
        schema.sort().ifPresent(s -> json.addObject().put("AttributeName", s.name()).put("KeyType", "RANGE"));
        return json;
    }

    private static ObjectNode projection(Projection projection) {
        ObjectNode json = Json.object().put("ProjectionType", projection.type().name());
        if (projection.type() == Projection.Type.INCLUDE) {
            ArrayNode names = json.putArray("NonKeyAttributes");
            projection.nonKeyAttributes().forEach(names::add);
        }
        return json;
    }

    private static ObjectNode throughput(Throughput throughput) {
        return Json.object()
                .put("NumberOfDecreasesToday", 0)
                .put("ReadCapacityUnits", throughput == null ? 0 : throughput.readCapacityUnits())
                .put("WriteCapacityUnits", throughput == null ? 0 : throughput.writeCapacityUnits());
    }
}
