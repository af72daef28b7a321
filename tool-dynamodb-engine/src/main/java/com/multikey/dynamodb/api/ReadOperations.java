package com.multikey.dynamodb.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.expression.ConditionExpression;
import com.multikey.dynamodb.expression.KeyCondition;
import com.multikey.dynamodb.expression.Legacy;
import com.multikey.dynamodb.expression.ProjectionExpression;
import com.multikey.dynamodb.expression.SortCondition;
import com.multikey.dynamodb.table.KeyElement;
import com.multikey.dynamodb.table.Table;
import com.multikey.dynamodb.value.Value;
import com.multikey.dynamodb.value.Values;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;

/** Query and Scan. */
public final class ReadOperations {

    private final Catalog catalog;

    public ReadOperations(Catalog catalog) {
        this.catalog = catalog;
    }

    public ObjectNode query(Request request) {
        String tableName = request.tableName("TableName");
        ExpressionInputs expressions = new ExpressionInputs(request,
                List.of("ProjectionExpression", "FilterExpression", "KeyConditionExpression"),
                List.of("AttributesToGet", "QueryFilter", "ConditionalOperator", "KeyConditions"));
        Optional<ConditionExpression> queryFilter = LegacyParameters.filter(request, "QueryFilter");
        Optional<ProjectionExpression> attributesToGet = LegacyParameters.attributesToGet(request);
        Optional<String> keyConditionText = request.string("KeyConditionExpression");
        if (keyConditionText.isEmpty() && !request.has("KeyConditions")) {
            throw EngineException.validation("Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.");
        }
        Optional<Long> limit = request.number("Limit", 1, Integer.MAX_VALUE);
        boolean forward = request.bool("ScanIndexForward").orElse(true);
        Optional<ConditionExpression> filter = expressions.condition("FilterExpression").or(() -> queryFilter);
        Optional<ProjectionExpression> projection = expressions.projection("ProjectionExpression").or(() -> attributesToGet);
        Optional<Map<String, Legacy.Comparison>> keyConditions = keyConditionText.isPresent() ? Optional.empty()
                : LegacyParameters.comparisons(request, "KeyConditions");
        keyConditions.ifPresent(conditions -> {
            if (conditions.size() != 1 && conditions.size() != 2) {
                throw EngineException.validation("Conditions can be of length 1 or 2 only");
            }
        });
        request.item("ExclusiveStartKey");
        ConsumedCapacity capacity = ConsumedCapacity.of(request);
        keyConditionText.ifPresent(expressions::checkKeyCondition);
        Table table = catalog.table(tableName);
        return Locks.under(table, () -> {
            ReadSource source = ReadSource.of(table, request.string("IndexName"));
            KeyElement partitionKey = source.keySchema().partition();
            Optional<KeyElement> sortKey = source.keySchema().sort();
            KeyCondition keyCondition = keyConditionText.isPresent()
                    ? expressions.keyCondition(keyConditionText.get(), partitionKey.name(), sortKey.map(KeyElement::name).orElse(null))
                    : Legacy.keyConditions(keyConditions.orElseThrow(), partitionKey.name(), partitionKey.type(),
                            sortKey.map(KeyElement::name).orElse(null), sortKey.map(KeyElement::type).orElse(null));
            expressions.checkAllUsed();
            expressions.checkKeysScalar(table);
            filter.ifPresent(f -> checkFilterNotOnKeys(source, f, queryFilter.isPresent() ? "QueryFilter" : "Filter Expression"));
            Select select = select(request, source, projection, attributesToGet.isPresent());
            checkTypes(source, keyCondition);
            NavigableMap<List<Value>, Map<String, Value>> range = range(source.store().partition(keyCondition.partitionValue()),
                    keyCondition.sortCondition());
            if (!forward) {
                range = range.descendingMap();
            }
            Optional<Map<String, Value>> start = request.item("ExclusiveStartKey").map(source::startKey);
            if (start.isPresent()) {
                if (!start.get().get(source.keySchema().partition().name()).equals(keyCondition.partitionValue())) {
                    throw EngineException.validation("The provided starting key is invalid: The provided key element does not match the schema");
                }
                Optional<String> sortName = source.keySchema().sort().map(KeyElement::name);
                if (sortName.isPresent() && keyCondition.sortCondition().isPresent()
                        && !keyCondition.sortCondition().get().test(start.get().get(sortName.get()))) {
                    throw EngineException.validation("The provided starting key does not match the range key predicate");
                }
                range = range.tailMap(source.positionOf(start.get()), false);
            }
            PageReader page = new PageReader(source, filter, projection, select, limit);
            for (Map<String, Value> entry : range.values()) {
                if (!page.read(entry)) {
                    break;
                }
            }
            return charged(page, source, capacity, request);
        });
    }

    public ObjectNode scan(Request request) {
        String tableName = request.tableName("TableName");
        ExpressionInputs expressions = new ExpressionInputs(request, List.of("ProjectionExpression", "FilterExpression"),
                List.of("AttributesToGet", "ScanFilter", "ConditionalOperator"));
        Optional<ProjectionExpression> attributesToGet = LegacyParameters.attributesToGet(request);
        Optional<ConditionExpression> scanFilter = LegacyParameters.filter(request, "ScanFilter");
        Optional<Long> limit = request.number("Limit", 1, Integer.MAX_VALUE);
        Optional<Long> totalSegments = request.number("TotalSegments", 1, 1_000_000);
        Optional<Long> segment = request.number("Segment", 0, 999_999);
        if (segment.isPresent() != totalSegments.isPresent()) {
            throw EngineException.validation(segment.isPresent()
                    ? "The TotalSegments parameter is required but was not present in the request when Segment parameter is present"
                    : "The Segment parameter is required but was not present in the request when parameter TotalSegments is present");
        }
        if (segment.isPresent() && segment.get() >= totalSegments.get()) {
            throw EngineException.validation("The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: "
                    + segment.get() + " is not less than TotalSegments: " + totalSegments.get());
        }
        Optional<ConditionExpression> filter = expressions.condition("FilterExpression").or(() -> scanFilter);
        Optional<ProjectionExpression> projection = expressions.projection("ProjectionExpression").or(() -> attributesToGet);
        expressions.checkAllUsed();
        request.item("ExclusiveStartKey");
        ConsumedCapacity capacity = ConsumedCapacity.of(request);
        Table table = catalog.table(tableName);
        return Locks.under(table, () -> {
            ReadSource source = ReadSource.of(table, request.string("IndexName"));
            expressions.checkKeysScalar(table);
            Select select = select(request, source, projection, attributesToGet.isPresent());
            var partitions = source.store().partitions();
            Optional<Map<String, Value>> start = request.item("ExclusiveStartKey").map(source::startKey);
            if (start.isPresent()) {
                partitions = partitions.tailMap(source.partitionOf(start.get()), true);
            }
            PageReader page = new PageReader(source, filter, projection, select, limit);
            scan:
            for (var partition : partitions.entrySet()) {
                if (segment.isPresent() && Math.floorMod(partition.getKey().hashCode(), totalSegments.get()) != segment.get()) {
                    continue;
                }
                NavigableMap<List<Value>, Map<String, Value>> entries = partition.getValue();
                if (start.isPresent() && partition.getKey().equals(source.partitionOf(start.get()))) {
                    entries = entries.tailMap(source.positionOf(start.get()), false);
                }
                for (Map<String, Value> entry : entries.values()) {
                    if (!page.read(entry)) {
                        break scan;
                    }
                }
            }
            return charged(page, source, capacity, request);
        });
    }

    /**
     * A page's response with the capacity it consumed: the entries read, rounded up to 4 KB as a whole (from the index
     * when reading one, and from the table for the items a local index fetched from it).
     */
    private static ObjectNode charged(PageReader page, ReadSource source, ConsumedCapacity capacity, Request request) {
        ObjectNode response = page.response();
        if (capacity.wanted()) {
            boolean consistent = request.bool("ConsistentRead").orElse(false);
            if (source.index().isPresent()) {
                capacity.readIndex(source.table(), source.index().get(), ConsumedCapacity.readUnits(page.bytesRead(), consistent));
                capacity.readTable(source.table(), page.bytesFetched() == 0 ? 0 : ConsumedCapacity.readUnits(page.bytesFetched(), consistent));
            } else {
                capacity.readTable(source.table(), ConsumedCapacity.readUnits(page.bytesRead(), consistent));
            }
            capacity.writeTo(response, source.table());
        }
        return response;
    }

    /** {@code attributesToGet}: the projection is the legacy AttributesToGet's, not a ProjectionExpression. */
    private static Select select(Request request, ReadSource source, Optional<ProjectionExpression> projection, boolean attributesToGet) {
        Optional<Select> given = request.enumeration("Select", Select.class);
        Select select = given.orElse(projection.isPresent() ? Select.SPECIFIC_ATTRIBUTES
                : source.index().isPresent() ? Select.ALL_PROJECTED_ATTRIBUTES : Select.ALL_ATTRIBUTES);
        if (attributesToGet && select != Select.SPECIFIC_ATTRIBUTES) {
            throw EngineException.validation("Cannot specify the AttributesToGet when choosing to get " + select);
        }
        if (projection.isPresent() && select != Select.SPECIFIC_ATTRIBUTES) {
            throw EngineException.validation("Can not use both expression and non-expression parameters in the same request: "
                    + "Select " + select + " and ProjectionExpression; use Select SPECIFIC_ATTRIBUTES or no Select");
        }
        if (select == Select.SPECIFIC_ATTRIBUTES && projection.isEmpty()) {
            throw EngineException.validation("One or more parameter values were invalid: SPECIFIC_ATTRIBUTES requires a ProjectionExpression");
        }
        if (select == Select.ALL_PROJECTED_ATTRIBUTES && source.index().isEmpty()) {
            throw EngineException.validation("One or more parameter values were invalid: ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName");
        }
        if (select == Select.ALL_ATTRIBUTES && source.globalIndex() && !source.projectsAll()) {
            throw EngineException.validation("One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index "
                    + source.index().get().definition().name() + " because its projection type is not ALL");
        }
        if (request.bool("ConsistentRead").orElse(false) && source.globalIndex()) {
            throw EngineException.validation("Consistent reads are not supported on global secondary indexes");
        }
        return select;
    }

    /** A Query's filter may not name the key attributes of what it queries: they belong in the key condition. */
    private static void checkFilterNotOnKeys(ReadSource source, ConditionExpression filter, String member) {
        for (KeyElement key : source.keySchema().elements()) {
            if (filter.topLevelNames().contains(key.name())) {
                throw EngineException.validation(member + " can only contain non-primary key attributes: Primary key attribute: " + key.name());
            }
        }
    }

    /**
     * The key condition's values have the key attributes' types and are not empty: a String or Binary key value
     * has a length greater than zero (API reference, Query and PutItem), so DynamoDB refuses an empty one whatever
     * the operator ({@code sk = :e}, {@code sk > :e}, {@code begins_with(sk, :e)}), naming the key.
     */
    private static void checkTypes(ReadSource source, KeyCondition condition) {
        checkKeyValue(source, source.keySchema().partition(), condition.partitionValue());
        condition.sortCondition().ifPresent(sort -> {
            KeyElement element = source.keySchema().sort().orElseThrow();
            switch (sort) {
                case SortCondition.Equal c -> checkKeyValue(source, element, c.value());
                case SortCondition.LessThan c -> checkKeyValue(source, element, c.value());
                case SortCondition.LessOrEqual c -> checkKeyValue(source, element, c.value());
                case SortCondition.GreaterThan c -> checkKeyValue(source, element, c.value());
                case SortCondition.GreaterOrEqual c -> checkKeyValue(source, element, c.value());
                case SortCondition.Between c -> {
                    checkKeyValue(source, element, c.low());
                    checkKeyValue(source, element, c.high());
                    if (Values.compareKeys(c.low(), c.high()) > 0) {
                        throw EngineException.validation("Invalid KeyConditionExpression: The BETWEEN operator requires upper bound "
                                + "to be greater than or equal to lower bound");
                    }
                }
                case SortCondition.BeginsWith c -> {
                    checkType(element, c.prefix());
                    if (element.type().equals("N")) {
                        throw EngineException.validation("Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N");
                    }
                    checkNotEmpty(source, element, c.prefix());
                }
            }
        });
    }

    private static void checkKeyValue(ReadSource source, KeyElement element, Value value) {
        checkType(element, value);
        checkNotEmpty(source, element, value);
    }

    private static void checkType(KeyElement element, Value value) {
        if (!value.type().equals(element.type())) {
            throw EngineException.validation("One or more parameter values were invalid: Condition parameter type does not match schema type");
        }
    }

    /** As DynamoDB words it: by the key's name on the table, by the index and its key on an index. */
    private static void checkNotEmpty(ReadSource source, KeyElement element, Value value) {
        String empty = switch (value) {
            case Value.S s when s.value().isEmpty() -> "string";
            case Value.B b when b.value().length() == 0 -> "binary";
            default -> null;
        };
        if (empty == null) {
            return;
        }
        String cannot = "The AttributeValue for a key attribute cannot contain an empty " + empty + " value. ";
        throw EngineException.validation("One or more parameter values are not valid. " + source.index()
                .map(index -> "A value specified for a secondary index key is not supported. " + cannot
                        + "IndexName: " + index.definition().name() + ", IndexKey: " + element.name())
                .orElse(cannot + "Key: " + element.name()));
    }

    /** The entries of a partition that the sort key condition selects, as a sub-map (positions: see KeyOrder). */
    private static NavigableMap<List<Value>, Map<String, Value>> range(NavigableMap<List<Value>, Map<String, Value>> partition,
                                                                      Optional<SortCondition> condition) {
        if (condition.isEmpty()) {
            return partition;
        }
        return switch (condition.get()) {
            case SortCondition.Equal c -> partition.subMap(low(c.value()), true, high(c.value()), true);
            case SortCondition.LessThan c -> partition.headMap(low(c.value()), false);
            case SortCondition.LessOrEqual c -> partition.headMap(high(c.value()), true);
            case SortCondition.GreaterThan c -> partition.tailMap(high(c.value()), false);
            case SortCondition.GreaterOrEqual c -> partition.tailMap(low(c.value()), true);
            case SortCondition.Between c -> partition.subMap(low(c.low()), true, high(c.high()), true);
            case SortCondition.BeginsWith c -> {
                // the matches are contiguous from the prefix on: find where they end
                List<Value> last = null;
                for (var entry : partition.tailMap(low(c.prefix()), true).entrySet()) {
                    if (!c.test(entry.getKey().get(0))) {
                        break;
                    }
                    last = entry.getKey();
                }
                yield last == null ? java.util.Collections.emptyNavigableMap() : partition.subMap(low(c.prefix()), true, last, true);
            }
        };
    }

    /** Below every position whose sort key is {@code value}. */
    private static List<Value> low(Value value) {
        return List.of(value);
    }

    /** Above every position whose sort key is {@code value}. */
    private static List<Value> high(Value value) {
        return Arrays.asList(value, null);
    }
}
