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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The indexer's SnapStart runtime hook (docs/decisions/0015): before Lambda snapshots the initialised
 * function, it loads and runs what the first batch would otherwise pay for — an SDK client built through
 * {@link ClientFactory}, the stream record reader (events SDK transformer), projection, diff and write
 * planning of a sample item, the JSON of log and metric lines — without a call to AWS: the sample's
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
     * For each declared index, an item it covers, inserted with a value of each kind, then one value changed: puts, a
     * delete and a put. Built from the definitions (their key schema, conditions, groups, tie-breakers and value
     * sources), so it primes a table of any shape; one item per index, because the conditions of different indexes
     * may exclude each other (a sort key prefix of one entity type, a partition key prefix of another).
     */
    static List<DynamodbStreamRecord> sampleBatch(IndexerConfig config) {
        IndexDefinitions definitions = config.definitions();
        List<DynamodbStreamRecord> records = new ArrayList<>();
        int sequence = 0;
        for (IndexDefinition index : definitions.indexes()) {
            String tag = "priming-" + records.size() / 2;
            Map<String, AttributeValue> before = new HashMap<>();
            // the conditions first: they decide coverage, the other attributes only fill what is left
            for (Condition condition : index.covers()) {
                switch (condition) {
                    case Condition.BeginsWith b -> put(before, b.path(), new AttributeValue().withS(b.prefix() + tag));
                    case Condition.Equals eq -> put(before, eq.path(), eventValue(eq.value()));
                    case Condition.Exists ex -> put(before, ex.path(), new AttributeValue().withS("priming"));
                }
            }
            Map<String, AttributeValue> keys = new HashMap<>();
            for (KeySchema.KeyAttribute key : definitions.table().attributes()) {
                AttributeValue value = before.get(key.name());
                if (value == null || !hasType(value, key.type())) {
                    value = switch (key.type()) {
                        case S -> new AttributeValue().withS(tag);
                        case N -> new AttributeValue().withN(Integer.toString(records.size() / 2 + 1));
                        case B -> new AttributeValue().withB(ByteBuffer.wrap(tag.getBytes(StandardCharsets.UTF_8)));
                    };
                    before.put(key.name(), value);
                }
                keys.put(key.name(), value);
            }
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
                case ValueSource.Elements e -> new AttributeValue().withL(new AttributeValue().withS("2026-01-01"),
                        new AttributeValue().withS("b"));
                case ValueSource.Words w -> new AttributeValue().withS("Priming: the words of a title");
                case ValueSource.Scalar sc -> new AttributeValue().withS("2026-01-01");
            });
            Map<String, AttributeValue> after = changedCopy(before);
            records.add(record("INSERT", Integer.toString(++sequence), keys, null, before));
            records.add(record("MODIFY", Integer.toString(++sequence), keys, before, after));
        }
        return records;
    }

    private static boolean hasType(AttributeValue value, KeySchema.KeyType type) {
        return switch (type) {
            case S -> value.getS() != null;
            case N -> value.getN() != null;
            case B -> value.getB() != null;
        };
    }

    /** The image with every string value {@code 2026-01-01} (at any depth, in maps and lists) changed to {@code 2026-01-02}. */
    private static Map<String, AttributeValue> changedCopy(Map<String, AttributeValue> image) {
        Map<String, AttributeValue> copy = new HashMap<>();
        image.forEach((name, value) -> {
            if ("2026-01-01".equals(value.getS())) {
                copy.put(name, new AttributeValue().withS("2026-01-02"));
            } else if (value.getM() != null) {
                copy.put(name, new AttributeValue().withM(changedCopy(value.getM())));
            } else if (value.getL() != null) {
                copy.put(name, new AttributeValue().withL(value.getL().stream()
                        .map(element -> "2026-01-01".equals(element.getS()) ? new AttributeValue().withS("2026-01-02") : element).toList()));
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
            case B -> new AttributeValue().withB(value.b().asByteBuffer());
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
