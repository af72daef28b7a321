package com.multikey.indexer;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamRecord;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamViewType;
import com.multikey.common.ClientFactory;
import com.multikey.common.Deadline;
import com.multikey.common.EmfMetrics;
import com.multikey.common.SnapStartPriming;
import com.multikey.common.StructuredLog;
import com.multikey.index.IndexChange;
import com.multikey.index.definition.AttributePath;
import com.multikey.index.definition.Condition;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.index.definition.KeySchema;
import com.multikey.index.definition.TieBreaker;
import com.multikey.index.definition.ValueSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The indexer's SnapStart runtime hook (docs/decisions/0015): before Lambda snapshots the initialised
 * function, it loads and runs what the first batch would otherwise pay for — an SDK client built through
 * {@link ClientFactory}, the stream record reader (events SDK transformer), projection, diff and write
 * planning of a sample issue, the JSON of log and metric lines — without a call to AWS: the sample's
 * changes go to a writer that keeps nothing, its log and metric lines to a sink. No credentials are
 * resolved (the SDK resolves them at a client's first call) and nothing unique is kept, so
 * {@link #afterRestore} has nothing to renew.
 */
public final class StreamIndexerPriming extends SnapStartPriming<Integer> {


    StreamIndexerPriming(Map<String, String> environment) {
        super(environment);
    }

    /** Registers a priming hook with the global CRaC context (Lambda's, under SnapStart; a no-op elsewhere). */
    static StreamIndexerPriming register(Map<String, String> environment) {
        return SnapStartPriming.register(new StreamIndexerPriming(environment));
    }

    /**
     * Runs the sample batch through the real indexer with nothing written.
     *
     * @return the index changes planned for the sample (non-zero: the work was done)
     */
    @Override
    public Integer prime() {
        IndexerConfig config = IndexerConfig.fromEnvironment(environment);
        // built and closed, never called: loads the client's classes, endpoint rules and marshallers' model
        try (DynamoDbClient client = new ClientFactory(environment).dynamoDb()) {
            client.serviceName();
        }
        CountingWriter writer = new CountingWriter();
        StructuredLog log = new StructuredLog(StreamIndexer.class.getName(), SINK, Clock.systemUTC());
        IndexerMetrics metrics = IndexerMetrics.emf(new EmfMetrics("Priming", "stream-indexer", SINK, Clock.systemUTC()));
        StreamIndexer indexer = new StreamIndexer(new BatchPlanner(config), writer, metrics, log);
        StreamsEventResponse response = indexer.process(sampleBatch(config), Deadline.after(Duration.ofSeconds(30)));
        if (!response.getBatchItemFailures().isEmpty() || writer.changes == 0) {
            throw new IllegalStateException("priming batch did not run through: " + response.getBatchItemFailures());
        }
        return writer.changes;
    }

    /**
     * An item every declared index covers, inserted with a value of each kind, then one value changed: puts, a delete
     * and a put. Built from the definitions (their key schema, conditions, groups, tie-breakers and value sources),
     * so it primes a table of any shape.
     */
    static List<DynamodbStreamRecord> sampleBatch(IndexerConfig config) {
        IndexDefinitions definitions = config.definitions();
        Map<String, AttributeValue> before = new HashMap<>();
        for (IndexDefinition index : definitions.indexes()) {
            for (AttributePath group : index.group()) {
                put(before, group, new AttributeValue().withS("priming"));
            }
            for (TieBreaker tieBreaker : index.orderBy()) {
                put(before, tieBreaker.path(), new AttributeValue().withN("1"));
            }
            put(before, index.values().path(), switch (index.values()) {
                case ValueSource.MapEntries m -> new AttributeValue().withM(Map.of(
                        "priming-date", new AttributeValue().withS("2026-01-01"),
                        "priming-number", new AttributeValue().withN("-12.5e3"),
                        "priming-flag", new AttributeValue().withBOOL(true),
                        "priming-tags", new AttributeValue().withSS("a", "b"),
                        "priming-points", new AttributeValue().withNS("1", "2"),
                        "priming-list", new AttributeValue().withL(new AttributeValue().withS("x"))));
                case ValueSource.Elements e -> new AttributeValue().withSS("a", "b");
                case ValueSource.Scalar sc -> new AttributeValue().withS("2026-01-01");
            });
            for (Condition condition : index.covers()) {
                switch (condition) {
                    case Condition.BeginsWith b -> put(before, b.path(), new AttributeValue().withS(b.prefix() + "priming"));
                    case Condition.Equals eq -> put(before, eq.path(), eventValue(eq.value()));
                    case Condition.Exists ex -> put(before, ex.path(), new AttributeValue().withS("priming"));
                }
            }
        }
        Map<String, AttributeValue> keys = new HashMap<>();
        for (KeySchema.KeyAttribute key : definitions.table().attributes()) {
            AttributeValue value = before.get(key.name());
            if (value == null || (key.type() == KeySchema.KeyType.S && value.getS() == null)) {
                value = switch (key.type()) {
                    case S -> new AttributeValue().withS("priming");
                    case N -> new AttributeValue().withN("1");
                    case B -> new AttributeValue().withB(ByteBuffer.wrap("priming".getBytes(StandardCharsets.UTF_8)));
                };
                before.put(key.name(), value);
            }
            keys.put(key.name(), value);
        }
        Map<String, AttributeValue> after = changedCopy(before);
        return List.of(record("INSERT", "1", keys, null, before), record("MODIFY", "2", keys, before, after));
    }

    /** The image with every string value {@code 2026-01-01} (at any depth) changed to {@code 2026-01-02}. */
    private static Map<String, AttributeValue> changedCopy(Map<String, AttributeValue> image) {
        Map<String, AttributeValue> copy = new HashMap<>();
        image.forEach((name, value) -> {
            if ("2026-01-01".equals(value.getS())) {
                copy.put(name, new AttributeValue().withS("2026-01-02"));
            } else if (value.getM() != null) {
                copy.put(name, new AttributeValue().withM(changedCopy(value.getM())));
            } else {
                copy.put(name, value);
            }
        });
        return copy;
    }

    private static void put(Map<String, AttributeValue> image, AttributePath path, AttributeValue value) {
        Map<String, AttributeValue> at = image;
        List<String> names = path.names();
        for (int i = 0; i < names.size() - 1; i++) {
            AttributeValue next = at.get(names.get(i));
            if (next == null || next.getM() == null) {
                next = new AttributeValue().withM(new HashMap<>());
                at.put(names.get(i), next);
            }
            at = next.getM();
        }
        at.putIfAbsent(names.get(names.size() - 1), value);
    }

    private static AttributeValue eventValue(software.amazon.awssdk.services.dynamodb.model.AttributeValue value) {
        return switch (value.type()) {
            case N -> new AttributeValue().withN(value.n());
            case BOOL -> new AttributeValue().withBOOL(value.bool());
            default -> new AttributeValue().withS(value.s());
        };
    }

    private static DynamodbStreamRecord record(String eventName, String sequenceNumber, Map<String, AttributeValue> keys,
                                               Map<String, AttributeValue> oldImage, Map<String, AttributeValue> newImage) {
        StreamRecord stream = new StreamRecord().withKeys(keys).withSequenceNumber(sequenceNumber)
                .withNewImage(newImage).withStreamViewType(StreamViewType.NEW_AND_OLD_IMAGES).withSizeBytes(100L);
        if (oldImage != null) {
            stream.setOldImage(oldImage);
        }
        DynamodbStreamRecord record = new DynamodbStreamRecord();
        record.setEventID("priming-" + sequenceNumber);
        record.setEventName(eventName);
        record.setEventSource("aws:dynamodb");
        record.setDynamodb(stream);
        return record;
    }

    /** Accepts every change and keeps only their count. */
    private static final class CountingWriter implements IndexWriter {
        private int changes;

        @Override
        public WriteResult write(List<IndexChange> batch, Deadline deadline) {
            changes += batch.size();
            return WriteResult.ALL_WRITTEN;
        }
    }
}
