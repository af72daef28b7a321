package com.multikey.dynamodb.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.expression.ConditionExpression;
import com.multikey.dynamodb.expression.Expressions;
import com.multikey.dynamodb.expression.ProjectionExpression;
import com.multikey.dynamodb.expression.UpdateExpression;
import com.multikey.dynamodb.partiql.Expr;
import com.multikey.dynamodb.partiql.Statement;
import com.multikey.dynamodb.partiql.StatementParser;
import com.multikey.dynamodb.partiql.Translation;
import com.multikey.dynamodb.table.KeyElement;
import com.multikey.dynamodb.table.KeySchema;
import com.multikey.dynamodb.table.Table;
import com.multikey.dynamodb.value.Value;
import com.multikey.dynamodb.value.ValueJson;
import com.multikey.dynamodb.value.Values;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * ExecuteStatement, BatchExecuteStatement and ExecuteTransaction: PartiQL for DynamoDB on the same item core as the
 * JSON operations ({@link ItemCore}), its conditions, updates and projections evaluated by the same expression
 * evaluator. A SELECT naming the whole primary key is a GetItem, one naming the partition key a Query of that
 * partition, any other a Scan with the WHERE clause as its filter. INSERT puts an item that must not exist
 * (DuplicateItemException); UPDATE and DELETE name one item by its whole key, the rest of the WHERE clause being
 * their condition (an UPDATE of an item that does not exist fails its condition, a DELETE of one succeeds).
 */
public final class PartiqlOperations {

    static final int MAX_BATCH = 25;
    static final int MAX_TRANSACTION = 100;
    static final int MAX_STATEMENT_LENGTH = 8192;
    static final int MAX_IN_PARTITION_KEYS = 50;

    private final Catalog catalog;
    private final ClientTokens tokens;

    /** {@code transactions}: the TransactWriteItems whose ClientRequestTokens ExecuteTransaction shares. */
    public PartiqlOperations(Catalog catalog, TransactionOperations transactions) {
        this.catalog = catalog;
        this.tokens = transactions.tokens();
    }

    /** A statement ready to run on its table: its write (or read), its condition and what it returns. */
    private record Prepared(Table table, Statement statement, ItemCore.Write write, Optional<ConditionExpression> condition,
                            Optional<UpdateExpression> update, ReturnValues returnValues) {
    }

    public ObjectNode executeStatement(Request request) {
        String text = statementText(request, "Statement");
        List<Value> parameters = parameters(request);
        boolean consistent = request.bool("ConsistentRead").orElse(false);
        Optional<Long> limit = request.number("Limit", 1, Integer.MAX_VALUE);
        Optional<String> nextToken = request.string("NextToken");
        boolean oldOnFailure = ItemOperations.returnOldOnFailure(request);
        ConsumedCapacity capacity = ConsumedCapacity.of(request);
        Statement statement = parse(text, parameters);
        Table table = catalog.table(statement.table());
        ObjectNode response = switch (statement) {
            case Statement.Select select -> Locks.under(table, () -> select(table, select, parameters, consistent, limit, nextToken, capacity));
            case Statement.Insert insert -> write(table, statement, parameters, oldOnFailure, capacity);
            case Statement.Update update -> write(table, statement, parameters, oldOnFailure, capacity);
            case Statement.Delete delete -> write(table, statement, parameters, oldOnFailure, capacity);
            case Statement.Exists exists -> throw onlyInATransaction();
        };
        capacity.writeTo(response, table);
        return response;
    }

    public ObjectNode batchExecuteStatement(Request request) {
        List<Request> elements = list(request, "Statements", MAX_BATCH);
        ConsumedCapacity capacity = ConsumedCapacity.of(request);
        record Entry(Request json, List<Value> parameters, Statement statement, EngineException error) {
        }
        List<Entry> entries = new ArrayList<>();
        for (Request element : elements) {
            String text = statementText(element, "Statement");
            List<Value> parameters = parameters(element);
            try {
                entries.add(new Entry(element, parameters, parse(text, parameters), null));
            } catch (EngineException e) {
                entries.add(new Entry(element, parameters, null, e));
            }
        }
        boolean reads = entries.stream().anyMatch(e -> e.statement() != null && e.statement().read());
        boolean writes = entries.stream().anyMatch(e -> e.statement() != null && !e.statement().read());
        if (reads && writes) {
            throw EngineException.validation("Unsupported operation: A batch must consist of either read statements or write statements, not both");
        }
        ObjectNode response = Json.object();
        ArrayNode responses = response.putArray("Responses");
        for (Entry entry : entries) {
            ObjectNode result = responses.addObject();
            if (entry.statement() != null) {
                result.put("TableName", entry.statement().table());
            }
            try {
                if (entry.error() != null) {
                    throw entry.error();
                }
                Table table = catalog.table(entry.statement().table());
                if (entry.statement() instanceof Statement.Select select) {
                    boolean consistent = entry.json().bool("ConsistentRead").orElse(false);
                    Map<String, Value> item = Locks.under(table, () -> getOne(table, select, entry.parameters(), consistent, capacity, 1));
                    if (item != null) {
                        result.set("Item", Json.item(item));
                    }
                } else if (entry.statement() instanceof Statement.Exists) {
                    throw onlyInATransaction();
                } else {
                    boolean oldOnFailure = ItemOperations.returnOldOnFailure(entry.json());
                    write(table, entry.statement(), entry.parameters(), oldOnFailure, capacity);
                }
            } catch (EngineException e) {
                ObjectNode error = result.putObject("Error").put("Code", code(e)).put("Message", e.getMessage());
                if (e instanceof ConditionalCheckFailed failed && failed.item() != null) {
                    error.set("Item", Json.item(failed.item()));
                }
            }
        }
        capacity.writeListTo(response);
        return response;
    }

    public ObjectNode executeTransaction(Request request) {
        List<Request> elements = list(request, "TransactStatements", MAX_TRANSACTION);
        Optional<String> token = request.string("ClientRequestToken");
        token.ifPresent(t -> {
            if (t.isEmpty() || t.length() > 36) {
                throw Request.constraint("'" + t + "'", "clientRequestToken", "Member must have length less than or equal to 36");
            }
        });
        ConsumedCapacity capacity = ConsumedCapacity.of(request);
        List<Statement> statements = new ArrayList<>();
        List<List<Value>> parameters = new ArrayList<>();
        List<Boolean> oldOnFailure = new ArrayList<>();
        for (Request element : elements) {
            String text = statementText(element, "Statement");
            List<Value> values = parameters(element);
            statements.add(parse(text, values));
            parameters.add(values);
            oldOnFailure.add(ItemOperations.returnOldOnFailure(element));
        }
        boolean reads = statements.stream().anyMatch(Statement::read);
        boolean writes = statements.stream().anyMatch(s -> !s.read());
        if (reads && writes) {
            throw EngineException.validation("Unsupported operation: A transaction must consist of either read statements or write statements, not both");
        }
        for (int i = 0; i < statements.size(); i++) {
            // a transaction's writes return nothing (ql-reference.multiplestatements.transactions.html)
            Statement.Returning returning = switch (statements.get(i)) {
                case Statement.Update update -> update.returning();
                case Statement.Delete delete -> delete.returning();
                case Statement.Select select -> Statement.Returning.NONE;
                case Statement.Insert insert -> Statement.Returning.NONE;
                case Statement.Exists exists -> Statement.Returning.NONE;
            };
            if (returning != Statement.Returning.NONE) {
                throw EngineException.validation("Validation failed in TransactStatements[" + i + "]: RETURNING clause is not supported in ExecuteTransaction.");
            }
        }
        String transactStatements = request.node("TransactStatements").toString();
        if (writes && token.isPresent() && tokens.alreadyDone(token.get(), transactStatements, catalog.now())) {
            // the same transaction again within the token's lifetime succeeds without writing twice
            return Json.object();
        }
        List<Table> tables = new ArrayList<>();
        for (Statement statement : statements) {
            tables.add(catalog.table(statement.table()));
        }
        List<Table> locked = lockAll(tables);
        try {
            ObjectNode response = Json.object();
            if (reads) {
                ArrayNode responses = response.putArray("Responses");
                Set<String> seen = new HashSet<>();
                for (int i = 0; i < statements.size(); i++) {
                    Statement.Select select = (Statement.Select) statements.get(i);
                    Table table = tables.get(i);
                    Map<String, Value> key = wholeKey(table, select.where(), new Translation(parameters.get(i)));
                    if (!seen.add(table.name() + "\u0000" + key)) {
                        throw EngineException.validation("Transaction request cannot include multiple operations on one item");
                    }
                    ObjectNode entry = responses.addObject();
                    Map<String, Value> item = getOne(table, select, parameters.get(i), true, capacity, 2);
                    if (item != null) {
                        entry.set("Item", Json.item(item));
                    }
                }
            } else {
                List<Prepared> prepared = new ArrayList<>();
                Set<String> seen = new HashSet<>();
                for (int i = 0; i < statements.size(); i++) {
                    Prepared p = prepare(tables.get(i), statements.get(i), parameters.get(i));
                    if (!seen.add(p.table().name() + "\u0000" + p.write().key())) {
                        throw EngineException.validation("Transaction request cannot include multiple operations on one item");
                    }
                    prepared.add(p);
                }
                checkSize(prepared);
                List<ItemCore.Planned> planned = new ArrayList<>();
                List<CancellationReason> reasons = new ArrayList<>();
                boolean cancelled = false;
                for (int i = 0; i < prepared.size(); i++) {
                    try {
                        planned.add(plan(prepared.get(i), oldOnFailure.get(i)));
                        reasons.add(CancellationReason.NONE);
                    } catch (ConditionalCheckFailed e) {
                        reasons.add(new CancellationReason("ConditionalCheckFailed", e.getMessage(), e.item()));
                        cancelled = true;
                    } catch (EngineException e) {
                        reasons.add(new CancellationReason(code(e), e.getMessage(), null));
                        cancelled = true;
                    }
                }
                if (cancelled) {
                    throw new TransactionCanceled(reasons);
                }
                ItemCore.applyTransaction(planned, capacity, catalog.now());
                token.ifPresent(t -> tokens.remember(t, transactStatements, catalog.now()));
            }
            capacity.writeListTo(response);
            return response;
        } finally {
            locked.forEach(t -> t.lock().unlock());
        }
    }

    private ObjectNode write(Table table, Statement statement, List<Value> parameters, boolean oldOnFailure, ConsumedCapacity capacity) {
        return Locks.under(table, () -> {
            Prepared prepared = prepare(table, statement, parameters);
            ItemCore.Planned written = plan(prepared, oldOnFailure);
            ItemCore.apply(written, catalog.now());
            capacity.write(table, written.old(), written.current(), 1);
            ObjectNode response = Json.object();
            ArrayNode items = response.putArray("Items");
            ObjectNode returned = Json.object();
            UnaryOperator<Map<String, Value>> changed = prepared.update().<UnaryOperator<Map<String, Value>>>map(u -> u::updatedAttributes)
                    .orElse(item -> Map.of());
            prepared.returnValues().write(returned, written.old(), written.current(), changed);
            if (returned.has("Attributes")) {
                items.add(returned.get("Attributes"));
            }
            return response;
        });
    }

    /**
     * A transaction's writes weigh at most 4 MB, counted as TransactWriteItems counts them (an INSERT by its item, any
     * other statement by its key): DynamoDB's limit on any transaction (transaction-apis.html).
     */
    private static void checkSize(List<Prepared> prepared) {
        long bytes = 0;
        for (Prepared p : prepared) {
            bytes += p.write() instanceof ItemCore.Put put ? Values.itemSize(put.item()) : Values.itemSize(p.write().key());
        }
        if (bytes > TransactionOperations.MAX_TRANSACTION_BYTES) {
            throw EngineException.validation("Transaction request cannot be larger than 4 MB");
        }
    }

    /** Plans a prepared write on the item core; an INSERT of an item that exists is a DuplicateItemException. */
    private static ItemCore.Planned plan(Prepared prepared, boolean oldOnFailure) {
        try {
            return ItemCore.plan(prepared.table(), prepared.write(), prepared.condition(), oldOnFailure);
        } catch (ConditionalCheckFailed e) {
            if (prepared.statement() instanceof Statement.Insert) {
                throw new EngineException("DuplicateItemException", 400, "Duplicate primary key exists in table");
            }
            throw e;
        }
    }

    /** A write statement as the item core's write, condition and update (under the table's lock). */
    private static Prepared prepare(Table table, Statement statement, List<Value> parameters) {
        Translation translation = new Translation(parameters);
        String partition = table.keySchema().partition().name();
        return switch (statement) {
            case Statement.Insert insert -> {
                Map<String, Value> item = translation.item(insert.item());
                ItemChecks.size(item);
                ItemCore.Put put = ItemCore.Put.of(table, item);
                String exists = "attribute_not_exists(" + translation.attribute(partition) + ")";
                Optional<ConditionExpression> condition = Optional.of(Expressions.condition("ConditionExpression", exists,
                        translation.names(), translation.values()));
                yield new Prepared(table, statement, put, condition, Optional.empty(), ReturnValues.NONE);
            }
            case Statement.Update update -> {
                Map<String, Value> key = wholeKey(table, Optional.of(update.where()), translation);
                String updateText = translation.update(update.clauses());
                // the whole WHERE clause is the condition: its key equalities hold exactly when the item exists
                String conditionText = translation.condition(update.where());
                UpdateExpression expression = Expressions.update(updateText, translation.names(), translation.values());
                ItemOperations.checkNotKey(table, expression);
                ConditionExpression condition = Expressions.condition("ConditionExpression", conditionText, translation.names(), translation.values());
                yield new Prepared(table, statement, new ItemCore.Update(key, Optional.of(expression)), Optional.of(condition),
                        Optional.of(expression), returnValues(update.returning()));
            }
            case Statement.Delete delete -> {
                Map<String, Value> key = wholeKey(table, Optional.of(delete.where()), translation);
                Set<String> keyNames = new HashSet<>(key.keySet());
                // ql-reference.delete.html: a DELETE of an item that does not exist succeeds, whatever the rest of the
                // WHERE clause; one of an item that exists is conditional on that rest
                Optional<ConditionExpression> condition = Translation.without(delete.where(), keyNames)
                        .map(rest -> "attribute_not_exists(" + translation.attribute(partition) + ") OR (" + translation.condition(rest) + ")")
                        .map(text -> Expressions.condition("ConditionExpression", text, translation.names(), translation.values()));
                yield new Prepared(table, statement, new ItemCore.Delete(key), condition, Optional.empty(), returnValues(delete.returning()));
            }
            case Statement.Exists exists -> {
                Statement.Select select = exists.select();
                if (select.index().isPresent() || !select.projection().isEmpty() || select.orderBy().isPresent()) {
                    throw EngineException.validation("Unsupported operation: EXISTS takes a SELECT * of a table by its whole key");
                }
                Expr where = select.where().orElseThrow(() -> EngineException.validation(
                        "Where clause does not contain a mandatory equality on all key attributes"));
                Map<String, Value> key = wholeKey(table, select.where(), translation);
                // the whole WHERE clause is the condition: its key equalities hold exactly when the item exists
                ConditionExpression condition = Expressions.condition("ConditionExpression", translation.condition(where),
                        translation.names(), translation.values());
                yield new Prepared(table, statement, new ItemCore.Check(key), Optional.of(condition), Optional.empty(), ReturnValues.NONE);
            }
            case Statement.Select select -> throw new IllegalArgumentException("a SELECT is not a write");
        };
    }

    private static EngineException onlyInATransaction() {
        return EngineException.validation("Unsupported operation: EXISTS is a condition check of a transaction (ExecuteTransaction)");
    }

    private static ReturnValues returnValues(Statement.Returning returning) {
        return switch (returning) {
            case NONE -> ReturnValues.NONE;
            case ALL_OLD -> ReturnValues.ALL_OLD;
            case MODIFIED_OLD -> ReturnValues.UPDATED_OLD;
            case ALL_NEW -> ReturnValues.ALL_NEW;
            case MODIFIED_NEW -> ReturnValues.UPDATED_NEW;
        };
    }

    /** The item a WHERE clause names by equalities on every attribute of the table's key, checked as a Key is. */
    private static Map<String, Value> wholeKey(Table table, Optional<Expr> where, Translation translation) {
        Map<String, Value> equalities = translation.equalities(where);
        Map<String, Value> key = new LinkedHashMap<>();
        for (KeyElement element : table.keySchema().elements()) {
            Value value = equalities.get(element.name());
            if (value == null) {
                throw EngineException.validation("Where clause does not contain a mandatory equality on all key attributes");
            }
            key.put(element.name(), value);
        }
        return ItemChecks.key(table, key);
    }

    /** A SELECT that names one item by its whole key (in a batch or a transaction): the item, filtered and projected, or null. */
    private static Map<String, Value> getOne(Table table, Statement.Select select, List<Value> parameters, boolean consistent,
                                             ConsumedCapacity capacity, int times) {
        if (select.index().isPresent()) {
            throw EngineException.validation("Unsupported operation: a batch or a transaction cannot read an index");
        }
        Translation translation = new Translation(parameters);
        Map<String, Value> key = wholeKey(table, select.where(), translation);
        Optional<ConditionExpression> filter = select.where().map(w -> Expressions.condition("FilterExpression",
                translation.condition(w), translation.names(), translation.values()));
        Optional<ProjectionExpression> projection = projection(select, translation);
        Map<String, Value> item = ItemCore.get(table, key);
        capacity.readTable(table, times * ConsumedCapacity.readUnits(item == null ? 0 : Values.itemSize(item), consistent));
        if (item == null || filter.isPresent() && !filter.get().test(item)) {
            return null;
        }
        return projection.map(p -> p.project(item)).orElse(item);
    }

    private static Optional<ProjectionExpression> projection(Statement.Select select, Translation translation) {
        return select.projection().isEmpty() ? Optional.empty()
                : Optional.of(Expressions.projection(translation.projection(select.projection()), translation.names()));
    }

    private ObjectNode select(Table table, Statement.Select select, List<Value> parameters, boolean consistent,
                              Optional<Long> limit, Optional<String> nextToken, ConsumedCapacity capacity) {
        ReadSource source = ReadSource.of(table, select.index());
        if (consistent && source.globalIndex()) {
            throw EngineException.validation("Consistent reads are not supported on global secondary indexes");
        }
        Translation translation = new Translation(parameters);
        Map<String, Value> equalities = translation.equalities(select.where());
        Optional<ConditionExpression> filter = select.where().map(w -> Expressions.condition("FilterExpression",
                translation.condition(w), translation.names(), translation.values()));
        Optional<ProjectionExpression> projection = projection(select, translation);
        KeySchema keySchema = source.keySchema();
        select.where().ifPresent(w -> checkInOnPartitionKey(w, keySchema.partition().name()));
        Value partition = equalities.get(keySchema.partition().name());
        if (partition != null && !partition.type().equals(keySchema.partition().type())) {
            partition = null; // of another type than the key's, it matches nothing: read as a filter
        }
        boolean descending = false;
        if (select.orderBy().isPresent()) {
            if (select.where().isEmpty()) {
                throw EngineException.validation("Must have WHERE clause in the statement when using ORDER BY clause.");
            }
            // every key a hash or range key; with the hash key's equality, the range key's direction is the order
            for (Statement.OrderBy orderBy : select.orderBy().get().keys()) {
                String key = orderBy.key().attribute();
                boolean keyAttribute = orderBy.key().topLevel() && keySchema.isKeyAttribute(key);
                if (partition == null || !keyAttribute) {
                    throw EngineException.validation("Variable reference [" + key + "] must be a hash or range key with an equality "
                            + "condition on the hash key to be used in ORDER BY clause.");
                }
                if (keySchema.sort().map(s -> s.name().equals(key)).orElse(false)) {
                    descending = orderBy.descending();
                }
            }
        }
        Optional<Map<String, Value>> start = nextToken.map(t -> source.startKey(decodeToken(t)));
        Select attributes = projection.isPresent() ? Select.SPECIFIC_ATTRIBUTES
                : source.index().isPresent() ? Select.ALL_PROJECTED_ATTRIBUTES : Select.ALL_ATTRIBUTES;
        PageReader page = new PageReader(source, filter, projection, attributes, limit);
        if (partition != null) {
            Optional<ConditionExpression> sortKeyRange = keySchema.sort().flatMap(sort -> sortKeyRange(select.where().get(), sort.name(), parameters));
            NavigableMap<List<Value>, Map<String, Value>> range = source.store().partition(partition);
            if (descending) {
                range = range.descendingMap();
            }
            if (start.isPresent()) {
                range = range.tailMap(source.positionOf(start.get()), false);
            }
            for (Map<String, Value> entry : range.values()) {
                if (sortKeyRange.isPresent() && !sortKeyRange.get().test(entry)) {
                    continue; // outside the Query's key condition: not evaluated, as a Query does not read it
                }
                if (!page.read(entry)) {
                    break;
                }
            }
        } else {
            var partitions = source.store().partitions();
            if (start.isPresent()) {
                partitions = partitions.tailMap(source.partitionOf(start.get()), true);
            }
            scan:
            for (var entries : partitions.entrySet()) {
                NavigableMap<List<Value>, Map<String, Value>> items = entries.getValue();
                if (start.isPresent() && entries.getKey().equals(source.partitionOf(start.get()))) {
                    items = items.tailMap(source.positionOf(start.get()), false);
                }
                for (Map<String, Value> entry : items.values()) {
                    if (!page.read(entry)) {
                        break scan;
                    }
                }
            }
        }
        if (capacity.wanted()) {
            if (source.index().isPresent()) {
                capacity.readIndex(table, source.index().get(), ConsumedCapacity.readUnits(page.bytesRead(), consistent));
            } else {
                capacity.readTable(table, ConsumedCapacity.readUnits(page.bytesRead(), consistent));
            }
        }
        ObjectNode read = page.response();
        ObjectNode response = Json.object();
        response.set("Items", read.get("Items"));
        if (read.has("LastEvaluatedKey")) {
            response.put("NextToken", encodeToken(read.get("LastEvaluatedKey")));
            response.set("LastEvaluatedKey", read.get("LastEvaluatedKey"));
        }
        return response;
    }

    /**
     * The conditions of a partition's SELECT on its sort key alone, those a Query's key condition takes (a comparison
     * with a value, BETWEEN, begins_with), as one condition; empty when there is none. They stay in the filter too.
     */
    private static Optional<ConditionExpression> sortKeyRange(Expr where, String sortKey, List<Value> parameters) {
        List<Expr> conditions = new ArrayList<>();
        collectSortKeyConditions(where, sortKey, conditions);
        if (conditions.isEmpty()) {
            return Optional.empty();
        }
        Translation translation = new Translation(parameters);
        List<String> texts = new ArrayList<>();
        conditions.forEach(c -> texts.add("(" + translation.condition(c) + ")"));
        return Optional.of(Expressions.condition("FilterExpression", String.join(" AND ", texts), translation.names(), translation.values()));
    }

    private static void collectSortKeyConditions(Expr expr, String sortKey, List<Expr> conditions) {
        switch (expr) {
            case Expr.And and -> {
                collectSortKeyConditions(and.left(), sortKey, conditions);
                collectSortKeyConditions(and.right(), sortKey, conditions);
            }
            case Expr.Comparison c when !c.operator().equals("<>")
                    && (isSortKey(c.left(), sortKey) && isValue(c.right()) || isSortKey(c.right(), sortKey) && isValue(c.left())) ->
                    conditions.add(c);
            case Expr.Between b when isSortKey(b.operand(), sortKey) && isValue(b.low()) && isValue(b.high()) -> conditions.add(b);
            case Expr.Call call when call.name().equals("begins_with") && call.arguments().size() == 2
                    && isSortKey(call.arguments().get(0), sortKey) && isValue(call.arguments().get(1)) -> conditions.add(call);
            default -> {
            }
        }
    }

    private static boolean isSortKey(Expr expr, String sortKey) {
        return expr instanceof Expr.Path path && path.topLevel() && path.attribute().equals(sortKey);
    }

    private static boolean isValue(Expr expr) {
        return expr instanceof Expr.Literal || expr instanceof Expr.Parameter;
    }

    /** ql-operators.html: IN takes at most 50 values of the hash key (and 100 of another attribute, as a condition does). */
    private static void checkInOnPartitionKey(Expr where, String partitionKey) {
        switch (where) {
            case Expr.And and -> {
                checkInOnPartitionKey(and.left(), partitionKey);
                checkInOnPartitionKey(and.right(), partitionKey);
            }
            case Expr.Or or -> {
                checkInOnPartitionKey(or.left(), partitionKey);
                checkInOnPartitionKey(or.right(), partitionKey);
            }
            case Expr.Not not -> checkInOnPartitionKey(not.operand(), partitionKey);
            case Expr.In in -> {
                if (in.operand() instanceof Expr.Path path && path.topLevel() && path.attribute().equals(partitionKey)
                        && in.candidates().size() > MAX_IN_PARTITION_KEYS) {
                    throw EngineException.validation("IN takes at most " + MAX_IN_PARTITION_KEYS + " values of the hash key "
                            + partitionKey + ", found " + in.candidates().size());
                }
            }
            default -> {
            }
        }
    }

    private static String encodeToken(JsonNode lastEvaluatedKey) {
        return Base64.getEncoder().encodeToString(lastEvaluatedKey.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static Map<String, Value> decodeToken(String token) {
        try {
            JsonNode json = Json.MAPPER.readTree(Base64.getDecoder().decode(token));
            return ValueJson.readItem(json);
        } catch (IllegalArgumentException | java.io.IOException | EngineException e) {
            throw EngineException.validation("Invalid NextToken");
        }
    }

    private static Statement parse(String text, List<Value> parameters) {
        Statement statement = StatementParser.parse(text);
        if (statement.parameters() != parameters.size()) {
            throw EngineException.validation("Number of parameters in request and statement don't match.");
        }
        return statement;
    }

    private static String statementText(Request request, String member) {
        String text = request.requiredString(member);
        if (text.isEmpty()) {
            throw Request.constraint("''", request.at(member), "Member must have length greater than or equal to 1");
        }
        if (text.length() > MAX_STATEMENT_LENGTH) {
            throw Request.constraint("'" + text + "'", request.at(member), "Member must have length less than or equal to " + MAX_STATEMENT_LENGTH);
        }
        return text;
    }

    private static List<Value> parameters(Request request) {
        JsonNode node = request.node("Parameters");
        List<Value> parameters = new ArrayList<>();
        if (node == null) {
            return parameters;
        }
        if (!node.isArray()) {
            throw Request.serialization("Unexpected value type in payload for Parameters");
        }
        if (node.isEmpty()) {
            throw Request.constraint("'[]'", request.at("Parameters"), "Member must have length greater than or equal to 1");
        }
        node.forEach(element -> parameters.add(ValueJson.read(element)));
        return parameters;
    }

    private static List<Request> list(Request request, String member, int max) {
        if (!request.has(member)) {
            throw Request.constraint("null", request.at(member), "Member must not be null");
        }
        List<Request> elements = request.structures(member);
        if (elements.isEmpty()) {
            throw Request.constraint("'[]'", request.at(member), "Member must have length greater than or equal to 1");
        }
        if (elements.size() > max) {
            throw Request.constraint("'[...]'", request.at(member), "Member must have length less than or equal to " + max);
        }
        return elements;
    }

    /** The error code a batch's or a transaction's statement gets for an error (BatchStatementError's codes). */
    private static String code(EngineException e) {
        return switch (e.type()) {
            case "ConditionalCheckFailedException" -> "ConditionalCheckFailed";
            case "DuplicateItemException" -> "DuplicateItem";
            case "ResourceNotFoundException" -> "ResourceNotFound";
            case "ValidationException" -> "ValidationError";
            case "ProvisionedThroughputExceededException" -> "ProvisionedThroughputExceeded";
            case "TransactionConflictException" -> "TransactionConflict";
            case "ThrottlingException" -> "ThrottlingError";
            default -> "InternalServerError";
        };
    }

    /** Locks the distinct tables in name order (so two transactions never wait on each other in a cycle). */
    private static List<Table> lockAll(List<Table> tables) {
        TreeMap<String, Table> distinct = new TreeMap<>(Comparator.naturalOrder());
        tables.forEach(t -> distinct.put(t.name(), t));
        List<Table> locked = new ArrayList<>();
        for (Table table : distinct.values()) {
            table.lock().lock();
            locked.add(table);
        }
        return locked;
    }
}
