package com.multikey.router;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse.BatchItemFailure;
import com.multikey.common.ChangeRecord;
import com.multikey.common.Deadline;
import com.multikey.common.MalformedRecordException;
import com.multikey.common.StructuredLog;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns one batch of app table stream records into events on the bus and answers with the records Lambda
 * must deliver again. A record that can never become an event is skipped and logged; one whose event
 * could not be sent is a batch item failure.
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
                events.add(factory.toEvent(ChangeRecord.from(record)));
            } catch (MalformedRecordException e) {
                skipped++;
                log.warn("stream record skipped", Map.of(
                        "eventId", String.valueOf(record == null ? null : record.getEventID()),
                        "sequenceNumber", sequenceOf(record),
                        "reason", e.getMessage()));
            }
        }
        Set<Integer> unsent = sender.send(events, deadline);
        Set<String> failed = new LinkedHashSet<>();
        for (int position : unsent) {
            ChangeEvent event = events.get(position);
            failed.add(event.sequenceNumber().orElseThrow(() -> new RoutingException(
                    "an event could not be sent and its record has no sequence number to report")));
        }
        int withoutImages = (int) events.stream().filter(ChangeEvent::imagesDropped).count();
        metrics.batchProcessed(new RouterMetrics.BatchSummary(batch.size(), skipped, events.size() - unsent.size(),
                withoutImages, failed.size()));
        log.info("batch routed", Map.of("records", batch.size(), "events", events.size() - unsent.size(),
                "skippedRecords", skipped, "failedRecords", failed.size()));
        return new StreamsEventResponse(failed.stream().map(BatchItemFailure::new).toList());
    }

    private static String sequenceOf(DynamodbStreamRecord record) {
        if (record == null || record.getDynamodb() == null || record.getDynamodb().getSequenceNumber() == null) {
            return "";
        }
        return record.getDynamodb().getSequenceNumber();
    }
}
