package com.multikey.router;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse.BatchItemFailure;
import com.multikey.common.ChangeRecord;
import com.multikey.common.Deadline;
import com.multikey.common.MalformedRecordException;
import com.multikey.common.StructuredLog;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns one batch of app table stream records into events on the bus and answers with the records Lambda
 * must deliver again. A record that can never become an event is skipped and logged; an event EventBridge
 * refuses permanently, also without images, is skipped, logged and counted ({@code EventsRefused}); one
 * that could not be sent in time is a batch item failure.
 */
public final class Router {

    private final ChangeEventFactory factory;
    private final OrderedEventSender sender;
    private final RouterMetrics metrics;
    private final StructuredLog log;

    public Router(ChangeEventFactory factory, OrderedEventSender sender, RouterMetrics metrics, StructuredLog log) {
        this.factory = factory;
        this.sender = sender;
        this.metrics = metrics;
        this.log = log;
    }

    /** @throws RoutingException when an unsent event's record has no sequence number to report */
    public StreamsEventResponse process(List<DynamodbStreamRecord> records, Deadline deadline) {
        List<DynamodbStreamRecord> batch = records == null ? List.of() : records;
        List<ChangeEvent> events = new ArrayList<>();
        int skipped = 0;
        for (DynamodbStreamRecord record : batch) {
            try {
                events.add(ImageNesting.tooDeep(record)
                        ? factory.toEventWithoutImages(ChangeRecord.from(ImageNesting.withoutImages(record)))
                        : factory.toEvent(ChangeRecord.from(record)));
            } catch (MalformedRecordException e) {
                skipped++;
                log.warn("stream record skipped", Map.of(
                        "eventId", String.valueOf(record == null ? null : record.getEventID()),
                        "sequenceNumber", sequenceOf(record),
                        "reason", e.getMessage()));
            }
        }
        int adjusted = 0;
        for (ChangeEvent event : events) {
            if (!event.adjustments().isEmpty()) {
                adjusted++;
                log.info("event adjusted to PutEvents limits", fields(event, Map.of("reasons", event.adjustments())));
            }
        }
        OrderedEventSender.Outcome outcome = sender.send(events, deadline);
        outcome.resentWithoutImages().forEach((position, code) -> log.warn("event refused by EventBridge, sent again without images",
                fields(events.get(position), Map.of("errorCode", code))));
        outcome.refused().forEach((position, code) -> log.error("event refused by EventBridge, skipped",
                fields(events.get(position), Map.of("errorCode", code, "reason", events.get(position).withoutImages().isPresent()
                        ? "refused with a permanent error code, also without images" : "refused with a permanent error code"))));
        Set<String> failed = new LinkedHashSet<>();
        for (int position : outcome.unsent()) {
            ChangeEvent event = events.get(position);
            failed.add(event.sequenceNumber().orElseThrow(() -> new RoutingException(
                    "an event could not be sent and its record has no sequence number to report")));
        }
        if (!outcome.unsent().isEmpty()) {
            log.warn("events not accepted by EventBridge in time, their records are batch item failures", Map.of(
                    "unsentEvents", outcome.unsent().size(), "failedRecords", failed.size(), "errorCodes", outcome.errorCodes()));
        }
        int sent = 0;
        int withoutImages = 0;
        for (int position = 0; position < events.size(); position++) {
            if (outcome.accepted(position)) {
                sent++;
                if (events.get(position).imagesDropped() || outcome.resentWithoutImages().containsKey(position)) {
                    withoutImages++;
                }
            }
        }
        metrics.batchProcessed(new RouterMetrics.BatchSummary(batch.size(), skipped, sent, withoutImages, adjusted,
                outcome.retriedEntries(), outcome.refused().size(), failed.size()));
        log.info("batch routed", Map.of("records", batch.size(), "events", sent, "skippedRecords", skipped,
                "refusedEvents", outcome.refused().size(), "failedRecords", failed.size()));
        return new StreamsEventResponse(failed.stream().map(BatchItemFailure::new).toList());
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

    private static String sequenceOf(DynamodbStreamRecord record) {
        if (record == null || record.getDynamodb() == null || record.getDynamodb().getSequenceNumber() == null) {
            return "";
        }
        return record.getDynamodb().getSequenceNumber();
    }
}
