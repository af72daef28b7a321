package com.multikey.dynamodb.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.multikey.dynamodb.EngineException;

import java.util.Map;
import java.util.Set;

/**
 * The JSON types of a request's members, checked before anything else, as DynamoDB deserializes a whole request
 * into its operation's input before validating it: a member of the wrong JSON type anywhere in the request is a
 * SerializationException (400), even beside a missing required member or a table that does not exist. Members are
 * known by name (DynamoDB's model gives each name one type across its operations, RequestItems aside); an unknown
 * member is ignored, as the service ignores it, and a null is an absent member.
 */
public final class WireTypes {

    private sealed interface Type permits Scalar, ListOf, MapOf, Struct, AttributeValue {
    }

    private enum Scalar implements Type { STRING, BOOLEAN, INTEGER, LONG, BLOB }

    private record ListOf(Type element) implements Type {
    }

    private record MapOf(Type value) implements Type {
    }

    /** A structure whose members are typed by their names (or by {@code overrides} first). */
    private record Struct(String javaName, Map<String, Type> overrides) implements Type {
        Struct(String javaName) {
            this(javaName, Map.of());
        }
    }

    private record AttributeValue() implements Type {
    }

    private static final Type AV = new AttributeValue();
    private static final Type ITEM = new MapOf(AV);
    private static final Type STRINGS = new ListOf(Scalar.STRING);
    private static final Type STRUCT = new Struct("Structure");
    private static final Type STRUCTS = new ListOf(STRUCT);
    private static final Type CONDITIONS = new MapOf(STRUCT);

    private static final Set<String> STRINGS_BY_NAME = Set.of("TableName", "IndexName", "ProjectionExpression",
            "FilterExpression", "ConditionExpression", "UpdateExpression", "KeyConditionExpression", "ReturnValues",
            "ReturnConsumedCapacity", "ReturnItemCollectionMetrics", "Select", "ConditionalOperator",
            "ComparisonOperator", "Action", "AttributeName", "AttributeType", "KeyType", "ProjectionType",
            "BillingMode", "StreamViewType", "ExclusiveStartTableName", "ResourceArn", "NextToken",
            "ClientRequestToken", "ReturnValuesOnConditionCheckFailure", "SSEType", "KMSMasterKeyId", "TableClass",
            "StreamArn", "ShardId", "ShardIteratorType", "SequenceNumber", "ShardIterator", "ExclusiveStartShardId",
            "ExclusiveStartStreamArn");
    private static final Map<String, Type> TYPES = Map.ofEntries(
            Map.entry("ConsistentRead", Scalar.BOOLEAN), Map.entry("ScanIndexForward", Scalar.BOOLEAN),
            Map.entry("Exists", Scalar.BOOLEAN), Map.entry("StreamEnabled", Scalar.BOOLEAN),
            Map.entry("Enabled", Scalar.BOOLEAN), Map.entry("DeletionProtectionEnabled", Scalar.BOOLEAN),
            Map.entry("Limit", Scalar.INTEGER), Map.entry("Segment", Scalar.INTEGER), Map.entry("TotalSegments", Scalar.INTEGER),
            Map.entry("ReadCapacityUnits", Scalar.LONG), Map.entry("WriteCapacityUnits", Scalar.LONG),
            Map.entry("Key", ITEM), Map.entry("Item", ITEM), Map.entry("ExclusiveStartKey", ITEM),
            Map.entry("ExpressionAttributeValues", ITEM), Map.entry("ExpressionAttributeNames", new MapOf(Scalar.STRING)),
            Map.entry("AttributesToGet", STRINGS), Map.entry("NonKeyAttributes", STRINGS), Map.entry("TagKeys", STRINGS),
            Map.entry("Keys", new ListOf(ITEM)), Map.entry("AttributeValueList", new ListOf(AV)), Map.entry("Value", AV),
            Map.entry("KeySchema", STRUCTS), Map.entry("AttributeDefinitions", STRUCTS),
            Map.entry("LocalSecondaryIndexes", STRUCTS), Map.entry("GlobalSecondaryIndexes", STRUCTS),
            Map.entry("GlobalSecondaryIndexUpdates", STRUCTS),
            Map.entry("Tags", new ListOf(new Struct("Tag", Map.of("Key", Scalar.STRING, "Value", Scalar.STRING)))), Map.entry("TransactItems", STRUCTS),
            Map.entry("ProvisionedThroughput", STRUCT), Map.entry("Projection", STRUCT),
            Map.entry("StreamSpecification", STRUCT), Map.entry("SSESpecification", STRUCT),
            Map.entry("TimeToLiveSpecification", STRUCT), Map.entry("Create", STRUCT), Map.entry("Update", STRUCT),
            Map.entry("Delete", STRUCT), Map.entry("Put", STRUCT), Map.entry("Get", STRUCT), Map.entry("ConditionCheck", STRUCT),
            Map.entry("PutRequest", STRUCT), Map.entry("DeleteRequest", STRUCT),
            Map.entry("KeyConditions", CONDITIONS), Map.entry("QueryFilter", CONDITIONS), Map.entry("ScanFilter", CONDITIONS),
            Map.entry("Expected", CONDITIONS), Map.entry("AttributeUpdates", CONDITIONS));

    /** The strings the service's parser reads as a boolean, in any case. */
    private static final Set<String> BOOLEAN_WORDS = Set.of("true", "false", "yes", "no", "1", "0");

    private WireTypes() {
    }

    /** Checks a request of this operation (the X-Amz-Target's part after the dot). */
    public static void check(String operation, JsonNode request) {
        Type requestItems = switch (operation) {
            case "BatchGetItem" -> new MapOf(STRUCT);
            case "BatchWriteItem" -> new MapOf(STRUCTS);
            default -> null;
        };
        checkStruct(request, requestItems == null ? Map.of() : Map.of("RequestItems", requestItems));
    }

    private static void checkStruct(JsonNode node, Map<String, Type> overrides) {
        for (Map.Entry<String, JsonNode> member : node.properties()) {
            Type type = overrides.get(member.getKey());
            if (type == null) {
                type = STRINGS_BY_NAME.contains(member.getKey()) ? Scalar.STRING : TYPES.get(member.getKey());
            }
            if (type != null) {
                check(member.getValue(), type);
            }
        }
    }

    private static void check(JsonNode node, Type type) {
        if (node == null || node.isNull()) {
            return;
        }
        switch (type) {
            case Scalar scalar -> checkScalar(node, scalar);
            case ListOf list -> {
                if (!node.isArray()) {
                    throw node.isObject() ? structureNotExpected() : serialization("Unexpected field type");
                }
                node.forEach(element -> check(element, list.element()));
            }
            case MapOf map -> {
                if (!node.isObject()) {
                    throw serialization(node.isArray() ? "Unrecognized collection type java.util.Map" : "Unexpected field type");
                }
                node.properties().forEach(entry -> check(entry.getValue(), map.value()));
            }
            case Struct struct -> {
                if (!node.isObject()) {
                    throw serialization(node.isArray() ? "Unrecognized collection type class " + struct.javaName() : "Unexpected field type");
                }
                checkStruct(node, struct.overrides());
            }
            case AttributeValue ignored -> {
                if (!node.isObject()) {
                    throw serialization(node.isArray() ? "Unrecognized collection type class AttributeValue" : "Unexpected value type in payload");
                }
                for (Map.Entry<String, JsonNode> member : node.properties()) {
                    switch (member.getKey()) {
                        case "S", "N" -> check(member.getValue(), Scalar.STRING);
                        case "B" -> check(member.getValue(), Scalar.BLOB);
                        case "BOOL", "NULL" -> {
                            // the service's parser takes a string that spells a boolean here ({"NULL": "no"}), which the
                            // value's validation refuses; any other string it cannot read
                            if (!member.getValue().isTextual()) {
                                check(member.getValue(), Scalar.BOOLEAN);
                            } else if (!BOOLEAN_WORDS.contains(member.getValue().textValue().toLowerCase(java.util.Locale.ROOT))) {
                                throw serialization("Unexpected token received from parser");
                            }
                        }
                        case "SS", "NS" -> check(member.getValue(), STRINGS);
                        case "BS" -> check(member.getValue(), new ListOf(Scalar.BLOB));
                        case "L" -> check(member.getValue(), new ListOf(AV));
                        case "M" -> check(member.getValue(), ITEM);
                        default -> {
                            // an unknown member of an attribute value is the value's own validation's to refuse
                        }
                    }
                }
            }
        }
    }

    private static void checkScalar(JsonNode node, Scalar scalar) {
        if (node.isObject()) {
            throw structureNotExpected();
        }
        String javaType = switch (scalar) {
            case STRING -> "String";
            case BOOLEAN -> "Boolean";
            case INTEGER -> "Integer";
            case LONG -> "Long";
            case BLOB -> "java.nio.ByteBuffer";
        };
        if (node.isArray()) {
            throw serialization("Unrecognized collection type class java.lang." + javaType);
        }
        boolean fits = switch (scalar) {
            case STRING, BLOB -> node.isTextual();
            case BOOLEAN -> node.isBoolean();
            case INTEGER -> node.isIntegralNumber() && node.canConvertToInt();
            case LONG -> node.isIntegralNumber() && node.canConvertToLong();
        };
        if (!fits) {
            if (scalar == Scalar.BLOB) {
                throw serialization("only base-64-encoded strings are convertible to bytes");
            }
            if (node.isIntegralNumber() && (scalar == Scalar.INTEGER || scalar == Scalar.LONG)) {
                return; // out of range: the member's own range check answers it
            }
            String token = node.isTextual() ? "STRING_VALUE" : node.isBoolean() ? (node.booleanValue() ? "TRUE_VALUE" : "FALSE_VALUE")
                    : node.isIntegralNumber() ? "NUMBER_VALUE" : "DECIMAL_VALUE";
            throw serialization(token + " cannot be converted to " + javaType);
        }
        if (scalar == Scalar.BLOB) {
            checkBase64(node.textValue());
        }
    }

    /**
     * A blob's text must be canonical base64 (the standard alphabet, padded to a multiple of 4, no bits left over
     * in the last character), as DynamoDB's parser reads it; the messages are the parser's, spelling included.
     */
    static void checkBase64(String text) {
        if (text.length() % 4 != 0) {
            throw serialization("Base64 encoded length is expected a multiple of 4 bytes but found: " + text.length());
        }
        int padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
        int data = text.length() - padding;
        for (int i = 0; i < data; i++) {
            char c = text.charAt(i);
            if (c == '=') {
                throw serialization(LAST_NON_PAD);
            }
            if (sextet(c) < 0) {
                throw serialization("Invalid Base64 character");
            }
        }
        if (padding > 0) {
            // the bits of the last character past the last whole byte must be zero (4 bits before "==", 2 before "=")
            int unused = padding == 2 ? 0x0F : 0x03;
            if (data == 0 || (sextet(text.charAt(data - 1)) & unused) != 0) {
                throw serialization(LAST_NON_PAD);
            }
        }
    }

    private static final String LAST_NON_PAD = "Invalid last non-pad Base64 character dectected";

    private static int sextet(char c) {
        if (c >= 'A' && c <= 'Z') {
            return c - 'A';
        }
        if (c >= 'a' && c <= 'z') {
            return c - 'a' + 26;
        }
        if (c >= '0' && c <= '9') {
            return c - '0' + 52;
        }
        return c == '+' ? 62 : c == '/' ? 63 : -1;
    }

    private static EngineException structureNotExpected() {
        return serialization("Start of structure or map found where not expected");
    }

    private static EngineException serialization(String message) {
        return new EngineException("SerializationException", 400, message);
    }
}
