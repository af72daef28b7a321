package com.multikey.dynamodb.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.stream.ChangeDestination;
import com.multikey.dynamodb.table.Table;

import java.util.Optional;

/**
 * Kinesis Data Streams for DynamoDB: EnableKinesisStreamingDestination, DisableKinesisStreamingDestination,
 * DescribeKinesisStreamingDestination and UpdateKinesisStreamingDestination (its precision). A destination is ACTIVE
 * as soon as it is enabled (the responses still say ENABLING, DISABLING or UPDATING, as AWS's do); a table streams to
 * one data stream at a time. {@code ApproximateCreationDateTimePrecision} is {@code MILLISECOND} unless asked for.
 */
public final class KinesisDestinationOperations {

    private final Catalog catalog;

    public KinesisDestinationOperations(Catalog catalog) {
        this.catalog = catalog;
    }

    public ObjectNode enable(Request request) {
        Table table = existing(request);
        String streamArn = streamArn(request);
        Optional<KinesisDestination.Precision> precision = precision(request, "EnableKinesisStreamingConfiguration");
        if (!catalog.kinesisSink().exists(streamArn)) {
            throw EngineException.resourceNotFound("Requested resource not found: Kinesis stream " + streamArn + " does not exist");
        }
        return Locks.under(table, () -> {
            for (ChangeDestination existing : table.destinations()) {
                if (existing instanceof KinesisDestination kinesis && kinesis.active()) {
                    throw EngineException.validation(kinesis.streamArn().equals(streamArn)
                            ? "Table " + table.name() + " is already streaming to " + streamArn
                            : "Table " + table.name() + " already has an active Kinesis streaming destination: " + kinesis.streamArn());
                }
            }
            KinesisDestination destination = new KinesisDestination(streamArn, table.name(), catalog.region(),
                    table.keySchema().partition().name(), precision.orElse(KinesisDestination.Precision.MILLISECOND),
                    catalog.kinesisSink());
            table.destinations().removeIf(d -> d instanceof KinesisDestination k && k.streamArn().equals(streamArn));
            table.destinations().add(destination);
            ObjectNode response = answer(table, streamArn, "ENABLING");
            response.putObject("EnableKinesisStreamingConfiguration")
                    .put("ApproximateCreationDateTimePrecision", destination.precision().name());
            return response;
        });
    }

    public ObjectNode disable(Request request) {
        Table table = existing(request);
        String streamArn = streamArn(request);
        return Locks.under(table, () -> {
            KinesisDestination destination = active(table, streamArn);
            destination.disable();
            ObjectNode response = answer(table, streamArn, "DISABLING");
            response.putObject("EnableKinesisStreamingConfiguration")
                    .put("ApproximateCreationDateTimePrecision", destination.precision().name());
            return response;
        });
    }

    public ObjectNode update(Request request) {
        Table table = existing(request);
        String streamArn = streamArn(request);
        KinesisDestination.Precision precision = precision(request, "UpdateKinesisStreamingConfiguration")
                .orElseThrow(() -> EngineException.validation("UpdateKinesisStreamingConfiguration must name an ApproximateCreationDateTimePrecision"));
        return Locks.under(table, () -> {
            KinesisDestination destination = active(table, streamArn);
            if (destination.precision() == precision) {
                throw EngineException.validation("The destination already has ApproximateCreationDateTimePrecision " + precision);
            }
            destination.precision(precision);
            ObjectNode response = answer(table, streamArn, "UPDATING");
            response.putObject("UpdateKinesisStreamingConfiguration").put("ApproximateCreationDateTimePrecision", precision.name());
            return response;
        });
    }

    public ObjectNode describe(Request request) {
        Table table = existing(request);
        return Locks.under(table, () -> {
            ObjectNode response = Json.object().put("TableName", table.name());
            ArrayNode list = response.putArray("KinesisDataStreamDestinations");
            for (ChangeDestination destination : table.destinations()) {
                if (destination instanceof KinesisDestination kinesis) {
                    list.addObject().put("StreamArn", kinesis.streamArn())
                            .put("DestinationStatus", kinesis.status().name())
                            .put("ApproximateCreationDateTimePrecision", kinesis.precision().name());
                }
            }
            return response;
        });
    }

    private static KinesisDestination active(Table table, String streamArn) {
        for (ChangeDestination destination : table.destinations()) {
            if (destination instanceof KinesisDestination kinesis && kinesis.active() && kinesis.streamArn().equals(streamArn)) {
                return kinesis;
            }
        }
        throw EngineException.validation("Table " + table.name() + " is not streaming to " + streamArn);
    }

    private static ObjectNode answer(Table table, String streamArn, String status) {
        return Json.object().put("TableName", table.name()).put("StreamArn", streamArn).put("DestinationStatus", status);
    }

    private static String streamArn(Request request) {
        String arn = request.requiredString("StreamArn");
        if (arn.length() < 37 || arn.length() > 1024) {
            throw Request.constraint("'" + arn + "'", "streamArn", "Member must have length between 37 and 1024");
        }
        return arn;
    }

    private static Optional<KinesisDestination.Precision> precision(Request request, String member) {
        return request.structure(member).flatMap(c -> c.enumeration("ApproximateCreationDateTimePrecision", KinesisDestination.Precision.class));
    }

    private Table existing(Request request) {
        String name = request.requiredString("TableName");
        Table table = catalog.find(name);
        if (table == null) {
            throw EngineException.resourceNotFound("Requested resource not found: Table: " + name + " not found");
        }
        return table;
    }
}
