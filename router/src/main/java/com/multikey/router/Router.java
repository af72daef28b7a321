package com.multikey.router;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.KinesisEvent.KinesisEventRecord;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.multikey.common.ChangeRecord;
import com.multikey.common.Deadline;
import com.multikey.common.KinesisChangeRecords;
import com.multikey.common.MalformedRecordException;
import com.multikey.common.PartialBatch;
import com.multikey.common.StructuredLog;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns one batch of app table stream records into events on the bus and answers with the records Lambda
 * must deliver again. A record that can never become an event is skipped and logged; an event EventBridge
 * refuses permanently, also without images, is skipped, logged and counted ({@code EventsRefused}); one
 * that could not be sent in time is a batch item failure.
 */
public final class Router {

    private final PartialBatch<ChangeEvent> batch;
    private final ChangeEventFactory factory;
    private final KinesisChangeRecords kinesis;
    private final OrderedEventSender sender;
    private final RouterMetrics metrics;
    private final StructuredLog log;

    public Router(ChangeEventFactory factory, OrderedEventSender sender, RouterMetrics metrics, StructuredLog log) {
        this.batch = new PartialBatch<>(this::read, ChangeEvent::sequenceNumber, factory.keyAttribute(), log);
        this.kinesis = new KinesisChangeRecords(factory.keyAttribute());
        this.factory = factory;
        this.sender = sender;
        this.metrics = metrics;
        this.log = log;
    }

    /** @throws com.multikey.common.BatchFailedException when an unsent event's record has no sequence number to report */
    public StreamsEventResponse process(List<DynamodbStreamRecord> records, Deadline deadline) {
        PartialBatch.Result<Counts> result = batch.process(records, deadline, this::route);
        Counts counts = result.report();
        metrics.batchProcessed(new RouterMetrics.BatchSummary(result.records(), result.skipped(), counts.sent(),
                counts.withoutImages(), counts.adjusted(), counts.retried(), counts.refused(), result.failed()));
        log.info("batch routed", Map.of("records", result.records(), "events", counts.sent(), "skippedRecords", result.skipped(),
                "refusedEvents", counts.refused(), "failedRecords", result.failed()));
        return result.response();
    }

    /**
     * As {@link #process}, for the Kinesis records of a table's Kinesis streaming destination: each record's change
     * becomes the same event; its {@code sequenceNumber} is the Kinesis record's, which the batch item failures name.
     * Records may come twice and out of order there: events are sent in the batch's order per item (see
     * docs/event-contract.md for what that promises).
     */
    public StreamsEventResponse processKinesis(List<KinesisEventRecord> records, Deadline deadline) {
        List<PartialBatch.Decoded<ChangeEvent>> events = new ArrayList<>();
        for (PartialBatch.Decoded<ChangeRecord> record : kinesis.read(records)) {
            events.add(switch (record) {
                case PartialBatch.Decoded.Read<ChangeRecord> read -> readKinesis(read.record());
                case PartialBatch.Decoded.Unreadable<ChangeRecord> unreadable -> new PartialBatch.Decoded.Unreadable<>(unreadable.skipped());
            });
        }
        PartialBatch.Result<Counts> result = batch.processDecoded(events, deadline, this::route);
        Counts counts = result.report();
        metrics.batchProcessed(new RouterMetrics.BatchSummary(result.records(), result.skipped(), counts.sent(),
                counts.withoutImages(), counts.adjusted(), counts.retried(), counts.refused(), result.failed()));
        log.info("batch routed", Map.of("records", result.records(), "events", counts.sent(), "skippedRecords", result.skipped(),
                "refusedEvents", counts.refused(), "failedRecords", result.failed()));
        return result.response();
    }

    private PartialBatch.Decoded<ChangeEvent> readKinesis(ChangeRecord record) {
        try {
            return new PartialBatch.Decoded.Read<>(factory.toEvent(record));
        } catch (MalformedRecordException e) {
            return new PartialBatch.Decoded.Unreadable<>(new PartialBatch.Skipped(record.keys().toString(), record.eventId(),
                    record.sequenceNumber().orElse(""), e.getMessage()));
        }
    }

    /** What one batch's events did, for the metrics. */
    private record Counts(int sent, int withoutImages, int adjusted, int retried, int refused) {
    }

    /** A record as its event; one whose images nest deeper than DynamoDB allows is read without them. */
    private ChangeEvent read(DynamodbStreamRecord record) {
        return ImageNesting.tooDeep(record)
                ? factory.toEventWithoutImages(ChangeRecord.from(ImageNesting.withoutImages(record)))
                : factory.toEvent(ChangeRecord.from(record));
    }

    private PartialBatch.Outcome<ChangeEvent, Counts> route(List<ChangeEvent> events, Deadline deadline) {
        int adjusted = 0;
        for (ChangeEvent event : events) {
            if (!event.adjustments().isEmpty()) {
                adjusted++;
                log.info("event adjusted to PutEvents limits", fields(event, Map.of("reasons", event.adjustments())));
            }
        }
        OrderedEventSender.Outcome outcome = sender.send(events, deadline);
        outcome.resentWithoutImages().forEach((event, code) -> log.warn("event refused by EventBridge, sent again without images",
                fields(event, Map.of("errorCode", code))));
        outcome.refused().forEach((event, code) -> log.error("event refused by EventBridge, skipped",
                fields(event, Map.of("errorCode", code, "reason", event.withoutImages().isPresent()
                        ? "refused with a permanent error code, also without images" : "refused with a permanent error code"))));
        if (!outcome.unsent().isEmpty()) {
            log.warn("events not accepted by EventBridge in time, their records are batch item failures", Map.of(
                    "unsentEvents", outcome.unsent().size(), "errorCodes", outcome.errorCodes()));
        }
        int sent = 0;
        int withoutImages = 0;
        for (ChangeEvent event : events) {
            if (outcome.accepted(event)) {
                sent++;
                if (event.imagesDropped() || outcome.resentWithoutImages().containsKey(event)) {
                    withoutImages++;
                }
            }
        }
        return new PartialBatch.Outcome<>(outcome.unsent(), List.of(),
                new Counts(sent, withoutImages, adjusted, outcome.retriedEntries(), outcome.refused().size()));
    }

    /** What names an event in a log line: its item's key, record and sequence number; never image content. */
    private static Map<String, Object> fields(ChangeEvent event, Map<String, ?> more) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("itemKey", event.itemKey());
        fields.put("eventId", event.eventId());
        fields.put("sequenceNumber", event.sequenceNumber().orElse(""));
        fields.put("detailType", event.detailType());
        fields.putAll(more);
        return fields;
    }
}
