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
 * @param imagesDropped  the images were left out because the entry would have exceeded the size limit
 */
public record ChangeEvent(String itemKey, Optional<String> sequenceNumber, String source, String detailType,
                          String detail, Optional<Instant> time, List<String> resources, boolean imagesDropped) {

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
        int size = time.isPresent() ? 14 : 0;
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
