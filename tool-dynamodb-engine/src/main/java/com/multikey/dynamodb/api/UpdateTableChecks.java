package com.multikey.dynamodb.api;

import com.multikey.dynamodb.EngineException;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * UpdateTable's checks, in DynamoDB's order: the members' constraints and the request's own consistency before the
 * table is looked up ({@link #beforeLookup}), the index updates' limits once it is found ({@link #withTable}).
 */
final class UpdateTableChecks {

    /** The largest read or write capacity units DynamoDB takes in a request. */
    static final long MAX_CAPACITY_UNITS = 1_000_000_000_000L;
    /** "You can create or delete only one global secondary index per UpdateTable operation" (API reference). */
    static final int MAX_INDEXES_CREATED_OR_DELETED = 1;

    private UpdateTableChecks() {
    }

    /**
     * The table's name; then every constraint a member breaks (a throughput below 1 or missing, an index name or an
     * index update's throughput), reported together in the model's order; then that there is something to update;
     * then a throughput out of bounds, an index update with no action, two updates of one index.
     */
    static void beforeLookup(Request request) {
        request.tableName("TableName");
        List<String> errors = new ArrayList<>();
        request.structure("ProvisionedThroughput").ifPresent(throughput -> throughputErrors(throughput, errors));
        List<Request> updates = request.structures("GlobalSecondaryIndexUpdates");
        for (Request update : updates) {
            update.structure("Update").ifPresent(action -> {
                indexNameErrors(action, errors);
                Optional<Request> throughput = action.structure("ProvisionedThroughput");
                if (throughput.isPresent()) {
                    throughputErrors(throughput.get(), errors);
                } else {
                    errors.add(notNull(action, "ProvisionedThroughput"));
                }
            });
            update.structure("Create").ifPresent(action -> indexNameErrors(action, errors));
            update.structure("Delete").ifPresent(action -> indexNameErrors(action, errors));
        }
        if (!errors.isEmpty()) {
            throw Request.constraints(errors);
        }
        boolean somethingToUpdate = request.has("ProvisionedThroughput") || request.has("BillingMode")
                || request.has("StreamSpecification") || !updates.isEmpty()
                || request.has("SSESpecification") || request.has("ReplicaUpdates") || request.has("TableClass")
                || request.has("DeletionProtectionEnabled") || request.has("OnDemandThroughput") || request.has("WarmThroughput");
        if (!somethingToUpdate) {
            throw EngineException.validation("At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, "
                    + "GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required");
        }
        request.structure("ProvisionedThroughput").ifPresent(throughput -> {
            for (String member : List.of("ReadCapacityUnits", "WriteCapacityUnits")) {
                throughput.number(member).filter(units -> units > MAX_CAPACITY_UNITS).ifPresent(units -> {
                    throw EngineException.validation("Given value " + units + " for " + member + " is out of bounds");
                });
            }
        });
        Set<String> indexNames = new HashSet<>();
        for (Request update : updates) {
            Optional<Request> action = update.structure("Update").or(() -> update.structure("Create")).or(() -> update.structure("Delete"));
            if (action.isEmpty()) {
                throw EngineException.validation("One or more parameter values were invalid: One of GlobalSecondaryIndexUpdate.Update, "
                        + "GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Delete must not be null");
            }
            String indexName = action.get().string("IndexName").orElse(null);
            if (indexName != null && !indexNames.add(indexName)) {
                throw EngineException.validation("One or more parameter values were invalid: "
                        + "Only one global secondary index update per index is allowed simultaneously. Index: " + indexName);
            }
        }
    }

    /** Once the table is found: how many indexes one request may create or delete, an index throughput's bounds. */
    static void withTable(Request request) {
        List<Request> updates = request.structures("GlobalSecondaryIndexUpdates");
        long createdOrDeleted = updates.stream().filter(update -> update.has("Create") || update.has("Delete")).count();
        if (createdOrDeleted > MAX_INDEXES_CREATED_OR_DELETED) {
            throw new EngineException("LimitExceededException", 400,
                    "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table");
        }
        for (Request update : updates) {
            Optional<Request> throughput = update.structure("Update").flatMap(action -> action.structure("ProvisionedThroughput"));
            if (throughput.isPresent() && (throughput.get().number("ReadCapacityUnits").orElse(0L) > MAX_CAPACITY_UNITS
                    || throughput.get().number("WriteCapacityUnits").orElse(0L) > MAX_CAPACITY_UNITS)) {
                throw EngineException.validation("This operation cannot be performed with given input values. "
                        + "Please contact DynamoDB service team for more info: Action Blocked: IndexUpdate");
            }
        }
    }

    /** The model lists WriteCapacityUnits before ReadCapacityUnits, and so does the service's message. */
    private static void throughputErrors(Request throughput, List<String> errors) {
        for (String member : List.of("WriteCapacityUnits", "ReadCapacityUnits")) {
            Optional<Long> units = throughput.number(member);
            if (units.isEmpty()) {
                errors.add(notNull(throughput, member));
            } else if (units.get() < 1) {
                errors.add("Value '" + units.get() + "' at '" + throughput.at(member)
                        + "' failed to satisfy constraint: Member must have value greater than or equal to 1");
            }
        }
    }

    private static void indexNameErrors(Request action, List<String> errors) {
        Optional<String> name = action.string("IndexName");
        if (name.isEmpty()) {
            errors.add(notNull(action, "IndexName"));
        } else {
            errors.addAll(Request.nameErrors(name.get(), action.at("IndexName")));
        }
    }

    private static String notNull(Request request, String member) {
        return "Value null at '" + request.at(member) + "' failed to satisfy constraint: Member must not be null";
    }
}
