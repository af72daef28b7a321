package com.multikey.router;

import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One PutEvents entry built from one stream record, with what routing needs besides it: the item's key as
 * canonical JSON (events of one item keep their order), the record's sequence number (reported as a batch
 * item failure when the event cannot be sent; a record may have none) and event id (for log lines), whether
 * the images were left out (see the detail's {@code imagesDroppedReason}), what was changed to fit PutEvents'
 * limits (reasons for a log line, never content), and the same event without its images, sent once instead
 * when EventBridge refuses this one with a permanent error (none when this one carries no images).
 */
public final class ChangeEvent {

    private final String itemKey;
    private final String sequenceNumber;
    private final String eventId;
    private final String source;
    private final String detailType;
    private final String detail;
    private final Instant time;
    private final List<String> resources;
    private final boolean imagesDropped;
    private final List<String> adjustments;
    private final ChangeEvent withoutImages;

    /** The parts an event may lack (sequence number, time, the event without images) are null here. */
    public ChangeEvent(String itemKey, String sequenceNumber, String eventId, String source, String detailType, String detail,
                       Instant time, List<String> resources, boolean imagesDropped, List<String> adjustments,
                       ChangeEvent withoutImages) {
        this.itemKey = Objects.requireNonNull(itemKey, "itemKey");
        this.sequenceNumber = sequenceNumber;
        this.eventId = eventId;
        this.source = source;
        this.detailType = detailType;
        this.detail = detail;
        this.time = time;
        this.resources = List.copyOf(resources);
        this.imagesDropped = imagesDropped;
        this.adjustments = List.copyOf(adjustments);
        this.withoutImages = withoutImages;
    }

    public String itemKey() {
        return itemKey;
    }

    public Optional<String> sequenceNumber() {
        return Optional.ofNullable(sequenceNumber);
    }

    public String eventId() {
        return eventId;
    }

    public String source() {
        return source;
    }

    public String detailType() {
        return detailType;
    }

    public String detail() {
        return detail;
    }

    public Optional<Instant> time() {
        return Optional.ofNullable(time);
    }

    public List<String> resources() {
        return resources;
    }

    public boolean imagesDropped() {
        return imagesDropped;
    }

    public List<String> adjustments() {
        return adjustments;
    }

    public Optional<ChangeEvent> withoutImages() {
        return Optional.ofNullable(withoutImages);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ChangeEvent that && imagesDropped == that.imagesDropped && itemKey.equals(that.itemKey)
                && Objects.equals(sequenceNumber, that.sequenceNumber) && Objects.equals(eventId, that.eventId)
                && Objects.equals(source, that.source) && Objects.equals(detailType, that.detailType)
                && Objects.equals(detail, that.detail) && Objects.equals(time, that.time) && resources.equals(that.resources)
                && adjustments.equals(that.adjustments) && Objects.equals(withoutImages, that.withoutImages);
    }

    @Override
    public int hashCode() {
        return Objects.hash(itemKey, sequenceNumber, eventId, detailType, detail);
    }

    /** Keys and types only, never the detail (it holds the images). */
    @Override
    public String toString() {
        return "ChangeEvent[itemKey=" + itemKey + ", eventId=" + eventId + ", sequenceNumber=" + sequenceNumber
                + ", detailType=" + detailType + ", imagesDropped=" + imagesDropped + "]";
    }

    public PutEventsRequestEntry toEntry(String eventBusName) {
        PutEventsRequestEntry.Builder entry = PutEventsRequestEntry.builder()
                .eventBusName(eventBusName)
                .source(source)
                .detailType(detailType)
                .detail(detail)
                .resources(resources);
        if (time != null) {
            entry.time(time);
        }
        return entry.build();
    }

    /** The entry's size as EventBridge counts it against the PutEvents limits. */
    public int size() {
        int size = time != null ? PutEventsLimits.TIME_BYTES : 0;
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
