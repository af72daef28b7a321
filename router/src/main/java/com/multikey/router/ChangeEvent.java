package com.multikey.router;

import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One PutEvents entry built from one stream record, with what routing needs besides it.
 *
 * @param itemKey        the item's key as canonical JSON: events of one item keep their order
 * @param sequenceNumber the record's, reported as a batch item failure when the event cannot be sent
 * @param eventId        the record's, for log lines
 * @param imagesDropped  the images were left out (see the detail's {@code imagesDroppedReason})
 * @param adjustments    what was changed to fit PutEvents' limits, as reasons for a log line (never content)
 * @param withoutImages  the same event without its images, sent once instead when EventBridge refuses this one
 *                       with a permanent error; empty when this one carries no images
 */
public record ChangeEvent(String itemKey, Optional<String> sequenceNumber, String eventId, String source, String detailType,
                          String detail, Optional<Instant> time, List<String> resources, boolean imagesDropped,
                          List<String> adjustments, Optional<ChangeEvent> withoutImages) {

    public ChangeEvent {
        resources = List.copyOf(resources);
        adjustments = List.copyOf(adjustments);
    }

    public PutEventsRequestEntry toEntry(String eventBusName) {
        PutEventsRequestEntry.Builder entry = PutEventsRequestEntry.builder()
                .eventBusName(eventBusName)
                .source(source)
                .detailType(detailType)
                .detail(detail)
                .resources(resources);
        time.ifPresent(entry::time);
        return entry.build();
    }

    /** The entry's size as EventBridge counts it against the PutEvents limits. */
    public int size() {
        int size = time.isPresent() ? PutEventsLimits.TIME_BYTES : 0;
        size += utf8(source) + utf8(detailType) + utf8(detail);
        for (String resource : resources) {
            size += utf8(resource);
        }
        return size;
    }

    private static int utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
