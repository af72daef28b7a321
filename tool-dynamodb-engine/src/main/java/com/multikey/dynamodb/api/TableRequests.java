package com.multikey.dynamodb.api;

import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.stream.StreamLog;
import com.multikey.dynamodb.table.IndexDefinition;
import com.multikey.dynamodb.table.KeyElement;
import com.multikey.dynamodb.table.KeySchema;
import com.multikey.dynamodb.table.Projection;
import com.multikey.dynamodb.table.Throughput;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The members of CreateTable and UpdateTable read into table definitions, with the checks and messages of
 * the API reference: names, attribute definitions, key schemas, indexes and their projections, billing and the
 * stream specification.
 */
final class TableRequests {


    private TableRequests() {
    }

    static String name(Request request, String member) {
        String name = request.requiredString(member);
        if (name.startsWith("arn:")) {
            // CreateTable takes a name, not an ARN
            throw Request.constraint("'" + name + "'", request.at(member), "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+");
        }
        Request.checkTableName(name, request.at(member));
        return name;
    }

    static Map<String, String> attributeDefinitions(Request request) {
        if (!request.has("AttributeDefinitions")) {
            throw Request.constraint("null", request.at("AttributeDefinitions"), "Member must not be null");
        }
        Map<String, String> types = new LinkedHashMap<>();
        for (Request definition : request.structures("AttributeDefinitions")) {
            String name = definition.requiredString("AttributeName");
            String type = definition.requiredString("AttributeType");
            if (!type.equals("S") && !type.equals("N") && !type.equals("B")) {
                throw Request.constraint("'" + type + "'", definition.at("AttributeType"), "Member must satisfy enum value set: [B, N, S]");
            }
            if (types.put(name, type) != null) {
                throw EngineException.validation("Cannot have two attributes with the same name");
            }
        }
        return types;
    }

    static KeySchema keySchema(Request request, String member, Map<String, String> types) {
        List<Request> elements = request.structures(member);
        if (!request.has(member)) {
            throw Request.constraint("null", request.at(member), "Member must not be null");
        }
        if (elements.isEmpty() || elements.size() > 2) {
            throw Request.constraint("'" + elements.size() + "'", request.at(member),
                    "Member must have length " + (elements.isEmpty() ? "greater than or equal to 1" : "less than or equal to 2"));
        }
        List<KeyElement> keys = new ArrayList<>();
        List<String> keyTypes = new ArrayList<>();
        for (Request element : elements) {
            String name = element.requiredString("AttributeName");
            String keyType = element.requiredString("KeyType");
            String type = types.get(name);
            if (type == null) {
                throw EngineException.validation("One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: ["
                        + name + "], AttributeDefinitions: " + types.keySet().stream().toList());
            }
            keys.add(new KeyElement(name, type));
            keyTypes.add(keyType);
        }
        if (!keyTypes.get(0).equals("HASH")) {
            throw EngineException.validation("Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
        }
        if (keys.size() == 2) {
            if (!keyTypes.get(1).equals("RANGE")) {
                throw EngineException.validation("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
            }
            if (keys.get(0).name().equals(keys.get(1).name())) {
                throw EngineException.validation("Both the Hash Key and the Range Key element in the KeySchema have the same name");
            }
        }
        return new KeySchema(keys.get(0), keys.size() == 2 ? Optional.of(keys.get(1)) : Optional.empty());
    }

    static IndexDefinition index(Request request, boolean global, Map<String, String> types, Throughput tableThroughput) {
        String name = name(request, "IndexName");
        KeySchema keySchema = keySchema(request, "KeySchema", types);
        Request projection = request.requiredStructure("Projection");
        Projection.Type type = projection.enumeration("ProjectionType", Projection.Type.class).orElseThrow(
                () -> EngineException.validation("One or more parameter values were invalid: Unknown ProjectionType: null"));
        List<String> nonKey = projection.strings("NonKeyAttributes");
        if (type == Projection.Type.INCLUDE && nonKey.isEmpty()) {
            throw EngineException.validation("One or more parameter values were invalid: ProjectionType is INCLUDE, but NonKeyAttributes is not specified");
        }
        if (type != Projection.Type.INCLUDE && projection.has("NonKeyAttributes")) {
            throw EngineException.validation("One or more parameter values were invalid: ProjectionType is " + type + ", but NonKeyAttributes is specified");
        }
        Throughput throughput = null;
        if (global) {
            Optional<Request> provisioned = request.structure("ProvisionedThroughput");
            if (tableThroughput != null && provisioned.isEmpty()) {
                throw EngineException.validation("One or more parameter values were invalid: ProvisionedThroughput must be specified for index: " + name);
            }
            if (tableThroughput == null && provisioned.isPresent()) {
                throw EngineException.validation("One or more parameter values were invalid: ProvisionedThroughput should not be specified for index: "
                        + name + " when BillingMode is PAY_PER_REQUEST");
            }
            throughput = provisioned.map(TableRequests::throughputOf).orElse(null);
        }
        return new IndexDefinition(name, global, keySchema, new Projection(type, nonKey), throughput);
    }

    static Throughput billing(Request request, String member, Optional<Request> provisioned) {
        String mode = request.string(member).orElse("PROVISIONED");
        switch (mode) {
            case "PAY_PER_REQUEST" -> {
                if (provisioned.isPresent()) {
                    throw EngineException.validation("One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
                }
                return null;
            }
            case "PROVISIONED" -> {
                return throughputOf(provisioned.orElseThrow(() -> EngineException.validation(
                        "One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED")));
            }
            default -> throw Request.constraint("'" + mode + "'", request.at(member), "Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]");
        }
    }

    static Throughput throughputOf(Request provisioned) {
        long read = provisioned.number("ReadCapacityUnits", 1, Long.MAX_VALUE).orElseThrow(() -> Request.constraint("null", provisioned.at("ReadCapacityUnits"), "Member must not be null"));
        long write = provisioned.number("WriteCapacityUnits", 1, Long.MAX_VALUE).orElseThrow(() -> Request.constraint("null", provisioned.at("WriteCapacityUnits"), "Member must not be null"));
        return new Throughput(read, write);
    }

    static void checkDefinitionsUsed(Map<String, String> types, Set<String> used) {
        if (!used.containsAll(types.keySet())) {
            throw EngineException.validation("One or more parameter values were invalid: Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions");
        }
    }

    static Optional<StreamLog.ViewType> streamSpecification(Request request) {
        Optional<Request> specification = request.structure("StreamSpecification");
        if (specification.isEmpty()) {
            return Optional.empty();
        }
        boolean enabled = specification.get().bool("StreamEnabled").orElseThrow(() -> Request.constraint("null", specification.get().at("StreamEnabled"), "Member must not be null"));
        Optional<StreamLog.ViewType> viewType = specification.get().enumeration("StreamViewType", StreamLog.ViewType.class);
        if (enabled && viewType.isEmpty()) {
            throw EngineException.validation("One or more parameter values were invalid: Enabled stream requires a StreamViewType");
        }
        if (!enabled && viewType.isPresent()) {
            throw EngineException.validation("One or more parameter values were invalid: Disabled stream must not specify a StreamViewType");
        }
        return enabled ? viewType : Optional.empty();
    }
}
