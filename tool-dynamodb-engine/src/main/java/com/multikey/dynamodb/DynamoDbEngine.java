package com.multikey.dynamodb;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.dynamodb.api.BatchOperations;
import com.multikey.dynamodb.api.CancellationReason;
import com.multikey.dynamodb.api.Catalog;
import com.multikey.dynamodb.api.ConditionalCheckFailed;
import com.multikey.dynamodb.api.EngineState;
import com.multikey.dynamodb.api.ItemOperations;
import com.multikey.dynamodb.api.Json;
import com.multikey.dynamodb.api.KinesisDestinationOperations;
import com.multikey.dynamodb.api.PartiqlOperations;
import com.multikey.dynamodb.api.ReadOperations;
import com.multikey.dynamodb.api.Request;
import com.multikey.dynamodb.api.StreamOperations;
import com.multikey.dynamodb.api.TableOperations;
import com.multikey.dynamodb.api.TagOperations;
import com.multikey.dynamodb.api.TransactionCanceled;
import com.multikey.dynamodb.api.TransactionOperations;
import com.multikey.dynamodb.api.WireTypes;
import com.multikey.dynamodb.kinesis.KinesisSink;
import com.multikey.dynamodb.table.Table;
import com.multikey.dynamodb.value.Value;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * An in-memory DynamoDB and DynamoDB Streams. {@link #handle} serves one request of the wire protocol (the
 * {@code X-Amz-Target} header's value and the JSON body) in-process; {@code server.EngineServer} serves it on
 * a port. All callers share one account's tables, whatever their credentials. Thread-safe.
 */
public final class DynamoDbEngine implements AutoCloseable {

    static final String DYNAMODB = "DynamoDB_20120810.";
    static final String STREAMS = "DynamoDBStreams_20120810.";
    private static final String ERROR_NAMESPACE = "com.amazonaws.dynamodb.v20120810#";

    /**
     * The namespace DynamoDB gives an error type in {@code __type}: the service framework's for validation,
     * protocol and throttling errors, DynamoDB's model's for the others. The SDKs read the part after '#'.
     */
    public static String namespacedType(String type) {
        return switch (type) {
            case "ValidationException" -> "com.amazon.coral.validate#" + type;
            case "SerializationException", "UnknownOperationException", "AccessDeniedException",
                 "IncompleteSignatureException", "MissingAuthenticationTokenException" -> "com.amazon.coral.service#" + type;
            case "ThrottlingException" -> "com.amazon.coral.availability#" + type;
            default -> ERROR_NAMESPACE + type;
        };
    }

    private final Catalog catalog;
    private final TransactionOperations transactions;
    private final Faults faults = new Faults();
    private final Map<String, Function<Request, ObjectNode>> operations = new HashMap<>();
    private ScheduledExecutorService sweeper;
    private volatile Thread sweeperThread;

    public DynamoDbEngine() {
        this(Clock.systemUTC(), "us-east-1");
    }

    public DynamoDbEngine(Clock clock, String region) {
        this.catalog = new Catalog(clock, region, "000000000000");
        TableOperations tables = new TableOperations(catalog);
        ItemOperations items = new ItemOperations(catalog);
        ReadOperations reads = new ReadOperations(catalog);
        BatchOperations batches = new BatchOperations(catalog, faults);
        this.transactions = new TransactionOperations(catalog);
        StreamOperations streams = new StreamOperations(catalog);
        operations.put(DYNAMODB + "CreateTable", tables::createTable);
        operations.put(DYNAMODB + "DescribeTable", tables::describeTable);
        operations.put(DYNAMODB + "ListTables", tables::listTables);
        operations.put(DYNAMODB + "DeleteTable", tables::deleteTable);
        operations.put(DYNAMODB + "UpdateTable", tables::updateTable);
        operations.put(DYNAMODB + "UpdateTimeToLive", tables::updateTimeToLive);
        operations.put(DYNAMODB + "DescribeTimeToLive", tables::describeTimeToLive);
        operations.put(DYNAMODB + "PutItem", items::putItem);
        operations.put(DYNAMODB + "GetItem", items::getItem);
        operations.put(DYNAMODB + "UpdateItem", items::updateItem);
        operations.put(DYNAMODB + "DeleteItem", items::deleteItem);
        operations.put(DYNAMODB + "Query", reads::query);
        operations.put(DYNAMODB + "Scan", reads::scan);
        operations.put(DYNAMODB + "BatchWriteItem", batches::batchWriteItem);
        operations.put(DYNAMODB + "BatchGetItem", batches::batchGetItem);
        operations.put(DYNAMODB + "TransactWriteItems", transactions::transactWriteItems);
        operations.put(DYNAMODB + "TransactGetItems", transactions::transactGetItems);
        PartiqlOperations partiql = new PartiqlOperations(catalog, transactions);
        operations.put(DYNAMODB + "ExecuteStatement", partiql::executeStatement);
        operations.put(DYNAMODB + "BatchExecuteStatement", partiql::batchExecuteStatement);
        operations.put(DYNAMODB + "ExecuteTransaction", partiql::executeTransaction);
        TagOperations tags = new TagOperations(catalog);
        operations.put(DYNAMODB + "TagResource", tags::tagResource);
        operations.put(DYNAMODB + "UntagResource", tags::untagResource);
        operations.put(DYNAMODB + "ListTagsOfResource", tags::listTagsOfResource);
        KinesisDestinationOperations kinesis = new KinesisDestinationOperations(catalog);
        operations.put(DYNAMODB + "EnableKinesisStreamingDestination", kinesis::enable);
        operations.put(DYNAMODB + "DisableKinesisStreamingDestination", kinesis::disable);
        operations.put(DYNAMODB + "DescribeKinesisStreamingDestination", kinesis::describe);
        operations.put(DYNAMODB + "UpdateKinesisStreamingDestination", kinesis::update);
        operations.put(STREAMS + "ListStreams", streams::listStreams);
        operations.put(STREAMS + "DescribeStream", streams::describeStream);
        operations.put(STREAMS + "GetShardIterator", streams::getShardIterator);
        operations.put(STREAMS + "GetRecords", streams::getRecords);
    }

    /**
     * The engine's whole state as JSON ({@link EngineState}), or empty when it cannot be exported (a table has a
     * Kinesis streaming destination). Call while no change runs.
     */
    public java.util.Optional<ObjectNode> exportState() {
        return EngineState.exportable(catalog) ? java.util.Optional.of(EngineState.export(catalog, transactions)) : java.util.Optional.empty();
    }

    /** Loads a state {@link #exportState} gave into this engine, new and unused; IllegalArgumentException when it is not one. */
    public void restoreState(JsonNode state) {
        if (!catalog.tables().isEmpty() || catalog.sequences().current() != 0) {
            throw new IllegalStateException("a state is restored into a new engine only");
        }
        EngineState.restore(state, catalog, transactions);
    }

    /** The faults to inject into the next requests. */
    public Faults faults() {
        return faults;
    }

    /**
     * Where the tables' Kinesis streaming destinations put their records (a Kinesis service); until set, no data stream
     * exists and EnableKinesisStreamingDestination answers ResourceNotFoundException.
     */
    public DynamoDbEngine kinesisSink(KinesisSink sink) {
        catalog.kinesisSink(sink);
        return this;
    }

    public String region() {
        return catalog.region();
    }

    /** Serves one request: {@code target} is the X-Amz-Target header, e.g. {@code DynamoDB_20120810.PutItem}. */
    public EngineResponse handle(String target, byte[] body) {
        try {
            Function<Request, ObjectNode> operation = target == null ? null : operations.get(target);
            if (operation == null) {
                throw new EngineException("UnknownOperationException", 400, null);
            }
            String name = target.substring(target.indexOf('.') + 1);
            faults.beforeOperation(name);
            ObjectNode json = parse(body);
            if (target.startsWith(DYNAMODB)) {
                WireTypes.check(name, json);
            }
            return new EngineResponse(200, Json.MAPPER.writeValueAsBytes(operation.apply(new Request(json))));
        } catch (EngineException e) {
            return error(e);
        } catch (JsonProcessingException e) {
            return error(new EngineException("InternalServerError", 500, "The response could not be written"));
        } catch (RuntimeException e) {
            // an unexpected failure is the engine's fault: a 500, which SDKs retry and report with this message
            return error(new EngineException("InternalServerError", 500, "Internal server error: " + e));
        }
    }

    private static ObjectNode parse(byte[] body) {
        try {
            if (body == null || body.length == 0) {
                throw new EngineException("SerializationException", 400, null); // DynamoDB's answer to no body: the type alone
            }
            JsonNode json = Json.MAPPER.readTree(body);
            if (!(json instanceof ObjectNode object)) {
                throw new EngineException("SerializationException", 400, "Start of structure or map found where not expected");
            }
            return object;
        } catch (IOException e) {
            throw new EngineException("SerializationException", 400, "Malformed JSON request body");
        }
    }

    private static EngineResponse error(EngineException e) {
        ObjectNode json = Json.object();
        json.put("__type", namespacedType(e.type()));
        if (e.getMessage() != null) {
            // the service framework's AccessDeniedException spells its member "Message", as TransactionCanceledException does
            boolean capital = e instanceof TransactionCanceled || e.type().equals("AccessDeniedException");
            json.put(capital ? "Message" : "message", e.getMessage());
        }
        if (e instanceof ConditionalCheckFailed failed && failed.item() != null) {
            json.set("Item", Json.item(failed.item()));
        }
        if (e instanceof TransactionCanceled cancelled) {
            var reasons = json.putArray("CancellationReasons");
            for (CancellationReason reason : cancelled.reasons()) {
                ObjectNode entry = reasons.addObject().put("Code", reason.code());
                if (reason.message() != null) {
                    entry.put("Message", reason.message());
                }
                if (reason.item() != null) {
                    entry.set("Item", Json.item(reason.item()));
                }
            }
        }
        try {
            return new EngineResponse(e.status(), Json.MAPPER.writeValueAsBytes(json));
        } catch (JsonProcessingException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    /**
     * Deletes the items of a table whose TTL attribute is before {@code now}, as the TTL process of AWS does:
     * each deletion is a REMOVE stream record with the service's userIdentity. Returns how many it deleted.
     */
    public int expire(String tableName, Instant now) {
        Table table = catalog.find(tableName);
        if (table == null) {
            return 0;
        }
        table.lock().lock();
        try {
            int deleted = 0;
            for (Map<String, Value> key : table.expiredKeys(now)) {
                if (table.delete(key, catalog.now(), true) != null) {
                    deleted++;
                }
            }
            return deleted;
        } finally {
            table.lock().unlock();
        }
    }

    /** Expires the items of every table with TTL enabled. */
    public int expireAll(Instant now) {
        int deleted = 0;
        for (Table table : catalog.tables()) {
            deleted += expire(table.name(), now);
        }
        return deleted;
    }

    /** Starts a daemon thread that expires items every {@code interval}, until {@link #close()}. */
    public synchronized DynamoDbEngine startTimeToLiveSweeper(Duration interval) {
        if (sweeper == null) {
            sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread thread = new Thread(r, "dynamodb-engine-ttl");
                thread.setDaemon(true);
                sweeperThread = thread;
                return thread;
            });
            sweeper.scheduleWithFixedDelay(this::sweep, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        }
        return this;
    }

    private void sweep() {
        try {
            expireAll(catalog.now());
        } catch (RuntimeException e) {
            // a failed sweep must not end the schedule (an exception would cancel it silently)
            System.getLogger(DynamoDbEngine.class.getName()).log(System.Logger.Level.WARNING, "TTL sweep failed", e);
        }
    }

    /** Stops the TTL sweeper, if started; the tables stay. */
    @Override
    public synchronized void close() {
        if (sweeper != null) {
            sweeper.shutdownNow();
            try {
                sweeper.awaitTermination(5, TimeUnit.SECONDS);
                // the executor counts as terminated a moment before its thread ends: wait for the thread itself
                Thread thread = sweeperThread;
                if (thread != null) {
                    thread.join(TimeUnit.SECONDS.toMillis(5));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            sweeper = null;
            sweeperThread = null;
        }
    }
}
