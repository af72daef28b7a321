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
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

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

    /** An issue inserted with a field of each kind, then one field changed: puts, a delete and a put. */
    static List<DynamodbStreamRecord> sampleBatch(IndexerConfig config) {
        String key = config.schema().keyAttribute();
        String fields = config.schema().customFieldsAttribute();
        String id = config.schema().issueEntityType() + "#priming";
        Map<String, AttributeValue> keys = Map.of(key, new AttributeValue().withS(id));
        Map<String, AttributeValue> before = Map.of(
                key, new AttributeValue().withS(id),
                config.schema().projectAttribute(), new AttributeValue().withS("project#priming"),
                config.schema().numAttribute(), new AttributeValue().withN("1"),
                fields, new AttributeValue().withM(Map.of(
                        "priming-date", new AttributeValue().withS("2026-01-01"),
                        "priming-number", new AttributeValue().withN("-12.5e3"),
                        "priming-flag", new AttributeValue().withBOOL(true),
                        "priming-tags", new AttributeValue().withSS("a", "b"),
                        "priming-points", new AttributeValue().withNS("1", "2"),
                        "priming-list", new AttributeValue().withL(new AttributeValue().withS("x")))));
        Map<String, AttributeValue> after = new HashMap<>(before);
        Map<String, AttributeValue> changed = new HashMap<>(before.get(fields).getM());
        changed.put("priming-date", new AttributeValue().withS("2026-01-02"));
        after.put(fields, new AttributeValue().withM(changed));
        return List.of(record("INSERT", "1", keys, null, before), record("MODIFY", "2", keys, before, after));
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
