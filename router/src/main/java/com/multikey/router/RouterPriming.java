package com.multikey.router;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.Identity;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamRecord;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamViewType;
import com.multikey.common.ChangeRecord;
import com.multikey.common.ClientFactory;
import com.multikey.common.EmfMetrics;
import com.multikey.common.SnapStartPriming;
import com.multikey.common.StructuredLog;
import com.multikey.index.definition.KeySchema;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequest;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The router's SnapStart runtime hook (docs/decisions/0015): before Lambda snapshots the initialised
 * function, it loads and runs what the first batch would otherwise pay for — an EventBridge client built
 * through {@link ClientFactory} as the handler builds it, the stream record reader (events SDK
 * transformer), the change events of sample records (plain JSON of images with Jackson, changed
 * attributes, TTL detection), their PutEvents entries and request, the JSON of log and metric lines —
 * without a call to AWS: the request is built, never sent, and the lines go to a sink. No credentials are
 * resolved (the SDK resolves them at a client's first call) and nothing unique is kept, so
 * {@link #afterRestore} has nothing to renew.
 */
public final class RouterPriming extends SnapStartPriming<Integer> {


    RouterPriming(Map<String, String> environment) {
        super(environment);
    }

    /** Registers a priming hook with the global CRaC context (Lambda's, under SnapStart; a no-op elsewhere). */
    static RouterPriming register(Map<String, String> environment) {
        return SnapStartPriming.register(new RouterPriming(environment));
    }

    /**
     * Turns the sample records into a PutEvents request, built and not sent.
     *
     * @return the entries of that request (one per sample record: the work was done)
     */
    @Override
    public Integer prime() {
        RouterConfig config = RouterConfig.fromEnvironment(environment);
        // built as the handler builds it and closed, never called: loads the client's classes and endpoint rules
        try (EventBridgeClient client = new ClientFactory(environment).configure(EventBridgeClient.builder(), "EVENTBRIDGE")
                .httpClient(ClientFactory.httpClient()).build()) {
            client.serviceName();
        }
        ChangeEventFactory factory = new ChangeEventFactory(config);
        StructuredLog log = new StructuredLog(Router.class.getName(), SINK, Clock.systemUTC());
        RouterMetrics metrics = RouterMetrics.emf(new EmfMetrics("Priming", RouterMetrics.SERVICE, SINK, Clock.systemUTC()));
        List<PutEventsRequestEntry> entries = new ArrayList<>();
        int bytes = 0;
        for (DynamodbStreamRecord record : sampleRecords(config.definitions().table())) {
            ChangeEvent event = factory.toEvent(ChangeRecord.from(record));
            bytes += event.size();
            entries.add(event.toEntry(config.eventBusName()));
            log.info("event built", Map.of("itemKey", event.itemKey(), "detailType", event.detailType()));
        }
        PutEventsRequest request = PutEventsRequest.builder().entries(entries).build();
        metrics.batchProcessed(new RouterMetrics.BatchSummary(entries.size(), 0, entries.size(), 0, 0, 0, 0, 0));
        if (bytes <= 0 || request.entries().size() != sampleRecords(config.definitions().table()).size()) {
            throw new IllegalStateException("priming built " + request.entries().size() + " entries");
        }
        return request.entries().size();
    }

    /**
     * An item created and updated (one field), a layer record expired by TTL, keyed as the definitions' table is:
     * a string partition key holds {@code issue#priming} and {@code layer#us-east-1#priming#1}, other key attributes
     * a sample of their type.
     */
    static List<DynamodbStreamRecord> sampleRecords(KeySchema table) {
        Map<String, AttributeValue> item = new HashMap<>(Map.of(
                "project", new AttributeValue().withS("project#priming"),
                "num", new AttributeValue().withN("1"),
                "custom_fields", new AttributeValue().withM(Map.of(
                        "priming-date", new AttributeValue().withS("2026-01-01"),
                        "priming-number", new AttributeValue().withN("123456789012345678901234567890"),
                        "priming-flag", new AttributeValue().withBOOL(true),
                        "priming-tags", new AttributeValue().withSS("a", "b"),
                        "priming-points", new AttributeValue().withNS("1", "2.5"),
                        "priming-list", new AttributeValue().withL(new AttributeValue().withNULL(true))))));
        Map<String, AttributeValue> itemKeys = keys(table, "issue#priming");
        item.putAll(itemKeys);
        Map<String, AttributeValue> renamed = new HashMap<>(item);
        renamed.put("name", new AttributeValue().withS("renamed"));
        Map<String, AttributeValue> layerKeys = keys(table, "layer#us-east-1#priming#1");
        Map<String, AttributeValue> layer = new HashMap<>(Map.of(
                "arn", new AttributeValue().withS("arn:aws:lambda:us-east-1:123456789012:layer:priming:1"),
                "expiresAt", new AttributeValue().withN("1")));
        layer.putAll(layerKeys);
        DynamodbStreamRecord expired = record("REMOVE", "3", layerKeys, layer, null);
        expired.setUserIdentity(new Identity().withType("Service").withPrincipalId("dynamodb.amazonaws.com"));
        return List.of(record("INSERT", "1", itemKeys, null, item), record("MODIFY", "2", itemKeys, item, renamed), expired);
    }

    private static Map<String, AttributeValue> keys(KeySchema table, String partitionText) {
        Map<String, AttributeValue> keys = new HashMap<>();
        boolean first = true;
        for (KeySchema.KeyAttribute key : table.attributes()) {
            keys.put(key.name(), switch (key.type()) {
                case S -> new AttributeValue().withS(first ? partitionText : "priming");
                case N -> new AttributeValue().withN("1");
                case B -> new AttributeValue().withB(ByteBuffer.wrap(partitionText.getBytes(StandardCharsets.UTF_8)));
            });
            first = false;
        }
        return keys;
    }

    private static DynamodbStreamRecord record(String eventName, String sequenceNumber, Map<String, AttributeValue> keys,
                                               Map<String, AttributeValue> oldImage, Map<String, AttributeValue> newImage) {
        StreamRecord stream = new StreamRecord().withKeys(keys)
                .withSequenceNumber(sequenceNumber).withStreamViewType(StreamViewType.NEW_AND_OLD_IMAGES).withSizeBytes(100L)
                .withApproximateCreationDateTime(new Date(0));
        stream.setOldImage(oldImage);
        stream.setNewImage(newImage);
        DynamodbStreamRecord record = new DynamodbStreamRecord();
        record.setEventID("priming-" + sequenceNumber);
        record.setEventName(eventName);
        record.setEventSource("aws:dynamodb");
        record.setDynamodb(stream);
        return record;
    }
}
