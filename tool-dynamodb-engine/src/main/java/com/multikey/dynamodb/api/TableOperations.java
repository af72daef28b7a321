package com.multikey.dynamodb.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.stream.StreamLog;
import com.multikey.dynamodb.table.IndexDefinition;
import com.multikey.dynamodb.table.KeySchema;
import com.multikey.dynamodb.table.Table;
import com.multikey.dynamodb.table.TableDefinition;
import com.multikey.dynamodb.table.Throughput;
import com.multikey.dynamodb.table.TimeToLive;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The control plane: CreateTable, DescribeTable, ListTables, DeleteTable, UpdateTable, UpdateTimeToLive and
 * DescribeTimeToLive. A table is ACTIVE as soon as it is created; the responses of the changing operations
 * still say CREATING, UPDATING or DELETING, as AWS's do.
 */
public final class TableOperations {

    private static final DateTimeFormatter LABEL = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS").withZone(ZoneOffset.UTC);
    private static final int MAX_GLOBAL_INDEXES = 20;
    private static final int MAX_LOCAL_INDEXES = 5;
    private static final int MAX_PROJECTED_ATTRIBUTES = 100;

    private final Catalog catalog;

    public TableOperations(Catalog catalog) {
        this.catalog = catalog;
    }

    public ObjectNode createTable(Request request) {
        String name = TableRequests.name(request, "TableName");
        Map<String, String> attributeTypes = TableRequests.attributeDefinitions(request);
        KeySchema keySchema = TableRequests.keySchema(request, "KeySchema", attributeTypes);
        Throughput throughput = TableRequests.billing(request, "BillingMode", request.structure("ProvisionedThroughput"));
        List<IndexDefinition> indexes = new ArrayList<>();
        Set<String> used = new LinkedHashSet<>();
        keySchema.elements().forEach(e -> used.add(e.name()));
        List<Request> locals = request.structures("LocalSecondaryIndexes");
        List<Request> globals = request.structures("GlobalSecondaryIndexes");
        if (request.has("LocalSecondaryIndexes") && locals.isEmpty()) {
            throw EngineException.validation("One or more parameter values were invalid: List of LocalSecondaryIndexes is empty");
        }
        if (request.has("GlobalSecondaryIndexes") && globals.isEmpty()) {
            throw EngineException.validation("One or more parameter values were invalid: List of GlobalSecondaryIndexes is empty");
        }
        if (locals.size() > MAX_LOCAL_INDEXES) {
            throw EngineException.validation("One or more parameter values were invalid: Number of LocalSecondaryIndexes exceeds per-table limit of " + MAX_LOCAL_INDEXES);
        }
        if (globals.size() > MAX_GLOBAL_INDEXES) {
            throw EngineException.validation("One or more parameter values were invalid: GlobalSecondaryIndex count exceeds the per-table limit of " + MAX_GLOBAL_INDEXES);
        }
        for (Request local : locals) {
            IndexDefinition index = TableRequests.index(local, false, attributeTypes, null);
            if (keySchema.sort().isEmpty()) {
                throw EngineException.validation("One or more parameter values were invalid: Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex");
            }
            if (!index.keySchema().partition().equals(keySchema.partition()) || index.keySchema().sort().isEmpty()) {
                throw EngineException.validation("One or more parameter values were invalid: Index KeySchema does not have the same leading hash key as table KeySchema for index: "
                        + index.name() + ". index hash key: " + index.keySchema().partition().name() + ", table hash key: " + keySchema.partition().name());
            }
            indexes.add(index);
        }
        for (Request global : globals) {
            indexes.add(TableRequests.index(global, true, attributeTypes, throughput));
        }
        Set<String> indexNames = new TreeSet<>();
        int projected = 0;
        for (IndexDefinition index : indexes) {
            if (!indexNames.add(index.name())) {
                throw EngineException.validation("One or more parameter values were invalid: Duplicate index name: " + index.name());
            }
            index.keySchema().elements().forEach(e -> used.add(e.name()));
            projected += index.projection().nonKeyAttributes().size();
        }
        if (projected > MAX_PROJECTED_ATTRIBUTES) {
            throw EngineException.validation("One or more parameter values were invalid: Number of projected attributes in all indexes exceeds limit of "
                    + MAX_PROJECTED_ATTRIBUTES + ", number of projected attributes:" + projected);
        }
        TableRequests.checkDefinitionsUsed(attributeTypes, used);
        Optional<StreamLog.ViewType> streamViewType = TableRequests.streamSpecification(request);
        Instant now = catalog.now();
        Table table = new Table(new TableDefinition(name, keySchema, attributeTypes, indexes, throughput),
                catalog.tableArn(name), tableId(catalog.tableArn(name), now), now);
        streamViewType.ifPresent(viewType -> enableStream(table, viewType, now));
        // the tags given at creation, as TagResource would add them (ListTagsOfResource shows them)
        request.structures("Tags").forEach(tag -> table.tags().put(tag.requiredString("Key"), tag.requiredString("Value")));
        table.lock().lock();
        try {
            if (!catalog.add(table)) {
                throw EngineException.resourceInUse("Table already exists: " + name);
            }
            return Json.object().set("TableDescription", TableDescriptions.describe(table, "CREATING"));
        } finally {
            table.lock().unlock();
        }
    }

    public ObjectNode describeTable(Request request) {
        Table table = existing(request);
        return Locks.under(table, () -> Json.object().set("Table", TableDescriptions.describe(table, "ACTIVE")));
    }

    public ObjectNode listTables(Request request) {
        long limit = request.number("Limit", 1, 100).orElse(100L);
        Optional<String> start = request.string("ExclusiveStartTableName");
        start.ifPresent(name -> Request.checkTableName(name, request.at("ExclusiveStartTableName")));
        var names = start.isPresent() ? catalog.tablesByName().tailMap(start.get(), false).keySet() : catalog.tablesByName().keySet();
        ObjectNode json = Json.object();
        ArrayNode list = json.putArray("TableNames");
        String last = null;
        for (String name : names) {
            if (list.size() == limit) {
                json.put("LastEvaluatedTableName", last);
                break;
            }
            list.add(name);
            last = name;
        }
        return json;
    }

    public ObjectNode deleteTable(Request request) {
        Table table = existing(request);
        return Locks.under(table, () -> {
            catalog.remove(table.name());
            if (table.stream() != null) {
                table.stream().disable(catalog.now());
            }
            return Json.object().set("TableDescription", TableDescriptions.describe(table, "DELETING"));
        });
    }

    public ObjectNode updateTable(Request request) {
        UpdateTableChecks.beforeLookup(request);
        Table table = existing(request);
        UpdateTableChecks.withTable(request);
        return Locks.under(table, () -> {
            Map<String, String> types = new LinkedHashMap<>(table.attributeTypes());
            if (request.has("AttributeDefinitions")) {
                TableRequests.attributeDefinitions(request).forEach((name, type) -> {
                    String existing = types.get(name);
                    if (existing != null && !existing.equals(type)) {
                        throw EngineException.validation("One or more parameter values were invalid: Cannot change the type of attribute " + name);
                    }
                    types.put(name, type);
                });
            }
            if (request.has("BillingMode") || request.has("ProvisionedThroughput")) {
                if (!request.has("BillingMode") && table.throughput() == null) {
                    throw EngineException.validation("One or more parameter values were invalid: "
                            + "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
                }
                Throughput throughput = request.has("BillingMode")
                        ? TableRequests.billing(request, "BillingMode", request.structure("ProvisionedThroughput"))
                        : TableRequests.throughputOf(request.requiredStructure("ProvisionedThroughput"));
                Throughput current = table.throughput();
                if (current != null && current.equals(throughput) && request.structures("GlobalSecondaryIndexUpdates").isEmpty()) {
                    throw EngineException.validation("The provisioned throughput for the table will not change. The requested value equals the current value. "
                            + "Current ReadCapacityUnits provisioned for the table: " + current.readCapacityUnits()
                            + ". Requested ReadCapacityUnits: " + throughput.readCapacityUnits() + ". "
                            + "Current WriteCapacityUnits provisioned for the table: " + current.writeCapacityUnits()
                            + ". Requested WriteCapacityUnits: " + throughput.writeCapacityUnits() + ". "
                            + "Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.");
                }
                table.throughput(throughput);
            }
            for (Request update : request.structures("GlobalSecondaryIndexUpdates")) {
                if (update.has("Create")) {
                    IndexDefinition index = TableRequests.index(update.requiredStructure("Create"), true, types, table.throughput());
                    if (table.index(index.name()).isPresent()) {
                        throw EngineException.validation("One or more parameter values were invalid: Index " + index.name() + " already exists");
                    }
                    if (table.indexes().stream().filter(i -> i.definition().global()).count() >= MAX_GLOBAL_INDEXES) {
                        throw new EngineException("LimitExceededException", 400, "Subscriber limit exceeded: Number of global secondary indexes exceeds the per-table limit");
                    }
                    index.keySchema().elements().forEach(e -> table.defineAttribute(e.name(), e.type()));
                    table.addIndex(index);
                } else if (update.has("Delete")) {
                    String indexName = update.requiredStructure("Delete").requiredString("IndexName");
                    if (table.index(indexName).filter(i -> i.definition().global()).isEmpty()) {
                        throw EngineException.resourceNotFound("Requested resource not found: Index: " + indexName + " not found");
                    }
                    table.removeIndex(indexName);
                } else if (update.has("Update")) {
                    Request change = update.requiredStructure("Update");
                    String indexName = change.requiredString("IndexName");
                    change.requiredStructure("ProvisionedThroughput");
                    if (table.index(indexName).filter(i -> i.definition().global()).isEmpty()) {
                        throw EngineException.resourceNotFound("Requested resource not found: Index: " + indexName + " not found");
                    }
                } else {
                    throw EngineException.validation("One or more parameter values were invalid: One of GlobalSecondaryIndexUpdate.Create, Update or Delete must be specified");
                }
            }
            if (request.has("StreamSpecification")) {
                Optional<StreamLog.ViewType> viewType = TableRequests.streamSpecification(request);
                StreamLog current = table.stream() != null && table.stream().enabled() ? table.stream() : null;
                if (viewType.isPresent()) {
                    if (current != null) {
                        throw EngineException.validation("Table already has an enabled stream: " + current.arn());
                    }
                    enableStream(table, viewType.get(), catalog.now());
                } else {
                    if (current == null) {
                        throw EngineException.validation("Table has no stream to disable");
                    }
                    current.disable(catalog.now());
                }
            }
            return Json.object().set("TableDescription", TableDescriptions.describe(table, "UPDATING"));
        });
    }

    public ObjectNode updateTimeToLive(Request request) {
        Table table = existing(request);
        Request specification = request.requiredStructure("TimeToLiveSpecification");
        boolean enabled = specification.bool("Enabled").orElseThrow(() -> Request.constraint("null", specification.at("Enabled"), "Member must not be null"));
        String attribute = specification.requiredString("AttributeName");
        if (attribute.isEmpty() || attribute.length() > 255) {
            throw Request.constraint("'" + attribute + "'", specification.at("AttributeName"), "Member must have length between 1 and 255");
        }
        return Locks.under(table, () -> {
            TimeToLive current = table.timeToLive();
            if (enabled && current.enabled()) {
                throw EngineException.validation("TimeToLive is already enabled");
            }
            if (!enabled && !current.enabled()) {
                throw EngineException.validation("TimeToLive is already disabled");
            }
            if (!enabled && !attribute.equals(current.attributeName())) {
                throw EngineException.validation("The TimeToLive attribute name does not match the one that is enabled: " + current.attributeName());
            }
            table.timeToLive(enabled ? new TimeToLive(true, attribute) : TimeToLive.DISABLED);
            ObjectNode json = Json.object();
            json.putObject("TimeToLiveSpecification").put("Enabled", enabled).put("AttributeName", attribute);
            return json;
        });
    }

    public ObjectNode describeTimeToLive(Request request) {
        Table table = existing(request);
        return Locks.under(table, () -> {
            ObjectNode json = Json.object();
            ObjectNode description = json.putObject("TimeToLiveDescription");
            TimeToLive ttl = table.timeToLive();
            description.put("TimeToLiveStatus", ttl.enabled() ? "ENABLED" : "DISABLED");
            if (ttl.enabled()) {
                description.put("AttributeName", ttl.attributeName());
            }
            return json;
        });
    }

    private Table existing(Request request) {
        String name = request.tableName("TableName");
        Table table = catalog.find(name);
        if (table == null) {
            throw EngineException.resourceNotFound("Requested resource not found: Table: " + name + " not found");
        }
        return table;
    }

    private void enableStream(Table table, StreamLog.ViewType viewType, Instant now) {
        String label = LABEL.format(now);
        // a stream re-enabled, or a table re-created, within the same millisecond still gets a new label and ARN
        while (table.stream() != null && table.stream().label().compareTo(label) >= 0
                || catalog.streams().get(table.arn() + "/stream/" + label, now) != null) {
            now = now.plusMillis(1);
            label = LABEL.format(now);
        }
        StreamLog stream = new StreamLog(table.arn() + "/stream/" + label, label, table.name(), streamKey(table),
                viewType, now, catalog.sequences());
        table.stream(stream);
        catalog.streams().add(stream);
    }

    private static List<StreamLog.KeyAttribute> streamKey(Table table) {
        List<StreamLog.KeyAttribute> key = new ArrayList<>();
        key.add(new StreamLog.KeyAttribute(table.keySchema().partition().name(), "HASH"));
        table.keySchema().sort().ifPresent(sort -> key.add(new StreamLog.KeyAttribute(sort.name(), "RANGE")));
        return key;
    }

    /** Drawn from the table's ARN and creation instant, not at random: a table rebuilt from a data directory keeps its id. */
    private static String tableId(String arn, Instant created) {
        return UUID.nameUUIDFromBytes((arn + "@" + created).getBytes(java.nio.charset.StandardCharsets.UTF_8)).toString();
    }
}
