package com.multikey.common;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.Identity;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamRecord;
import com.amazonaws.services.lambda.runtime.events.transformers.v2.dynamodb.DynamodbAttributeValueTransformer;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One stream record as the consumers need it: its images converted to SDK v2 attribute values with the
 * official events transformer, and what identifies it in logs and batch item failures. What a record may
 * lack is answered as {@link Optional}: the sequence number (record shapes that carry none, such as Kinesis
 * Data Streams for DynamoDB), the old image (INSERT records, stream view types without old images), the new
 * image (REMOVE records, view types without new images), the user identity and the creation time.
 */
public final class ChangeRecord {

    private final String eventId;
    private final ChangeKind kind;
    private final String sequenceNumber;
    private final Map<String, AttributeValue> keys;
    private final Map<String, AttributeValue> oldImage;
    private final Map<String, AttributeValue> newImage;
    private final UserIdentity userIdentity;
    private final Instant approximateCreationTime;
    private final String eventSourceArn;

    /** The parts a record may lack are null here; a record built this way names no event source. */
    public ChangeRecord(String eventId, ChangeKind kind, String sequenceNumber, Map<String, AttributeValue> keys,
                        Map<String, AttributeValue> oldImage, Map<String, AttributeValue> newImage,
                        UserIdentity userIdentity, Instant approximateCreationTime) {
        this(eventId, kind, sequenceNumber, keys, oldImage, newImage, userIdentity, approximateCreationTime, null);
    }

    /**
     * The parts a record may lack are null here.
     *
     * @param eventSourceArn the ARN of the stream the record came from (Lambda's {@code eventSourceARN})
     */
    public ChangeRecord(String eventId, ChangeKind kind, String sequenceNumber, Map<String, AttributeValue> keys,
                        Map<String, AttributeValue> oldImage, Map<String, AttributeValue> newImage,
                        UserIdentity userIdentity, Instant approximateCreationTime, String eventSourceArn) {
        this.eventId = eventId;
        this.kind = Objects.requireNonNull(kind, "kind");
        this.sequenceNumber = sequenceNumber;
        this.keys = Map.copyOf(keys);
        this.oldImage = oldImage;
        this.newImage = newImage;
        this.userIdentity = userIdentity;
        this.approximateCreationTime = approximateCreationTime;
        this.eventSourceArn = eventSourceArn;
    }

    public String eventId() {
        return eventId;
    }

    public ChangeKind kind() {
        return kind;
    }

    public Optional<String> sequenceNumber() {
        return Optional.ofNullable(sequenceNumber);
    }

    public Map<String, AttributeValue> keys() {
        return keys;
    }

    public Optional<Map<String, AttributeValue>> oldImage() {
        return Optional.ofNullable(oldImage);
    }

    public Optional<Map<String, AttributeValue>> newImage() {
        return Optional.ofNullable(newImage);
    }

    public Optional<UserIdentity> userIdentity() {
        return Optional.ofNullable(userIdentity);
    }

    public Optional<Instant> approximateCreationTime() {
        return Optional.ofNullable(approximateCreationTime);
    }

    /** The ARN of the stream the record came from, when the event names it. */
    public Optional<String> eventSourceArn() {
        return Optional.ofNullable(eventSourceArn);
    }

    /**
     * The name of the table whose stream the record came from, read from {@link #eventSourceArn()}
     * ({@code arn:aws:dynamodb:REGION:ACCOUNT:table/NAME/stream/LABEL}); empty when the event names no stream.
     */
    public Optional<String> sourceTable() {
        if (eventSourceArn == null) {
            return Optional.empty();
        }
        int table = eventSourceArn.indexOf(":table/");
        if (table < 0) {
            return Optional.empty();
        }
        String rest = eventSourceArn.substring(table + ":table/".length());
        int end = rest.indexOf('/');
        String name = end < 0 ? rest : rest.substring(0, end);
        return name.isEmpty() ? Optional.empty() : Optional.of(name);
    }

    /**
     * This record with every number of its keys and images in DynamoDB's canonical spelling ({@link CanonicalNumbers}):
     * what DynamoDB on AWS writes in a stream record, whatever spelling the request used.
     */
    public ChangeRecord withCanonicalNumbers() {
        return new ChangeRecord(eventId, kind, sequenceNumber, CanonicalNumbers.canonical(keys),
                oldImage == null ? null : CanonicalNumbers.canonical(oldImage), newImage == null ? null : CanonicalNumbers.canonical(newImage),
                userIdentity, approximateCreationTime, eventSourceArn);
    }

    /** Who caused a change; DynamoDB's TTL process appears as type {@code Service}, principal {@code dynamodb.amazonaws.com}. */
    public record UserIdentity(String type, String principalId) {

        public boolean isTimeToLiveExpiry() {
            return "Service".equals(type) && "dynamodb.amazonaws.com".equals(principalId);
        }
    }

    /**
     * Converts a record from a Lambda DynamoDB event.
     *
     * @throws MalformedRecordException when the record lacks what every record has, or an image cannot be
     *                                  converted (the message names the part, never its content)
     */
    public static ChangeRecord from(DynamodbStreamRecord record) {
        if (record == null) {
            throw new MalformedRecordException("record is null");
        }
        ChangeKind kind = ChangeKind.fromEventName(record.getEventName());
        StreamRecord stream = record.getDynamodb();
        if (stream == null) {
            throw new MalformedRecordException("record has no dynamodb section");
        }
        Map<String, AttributeValue> keys = convert(stream.getKeys(), "Keys");
        if (keys == null || keys.isEmpty()) {
            throw new MalformedRecordException("record has no Keys");
        }
        Identity identity = record.getUserIdentity();
        return new ChangeRecord(
                record.getEventID(),
                kind,
                stream.getSequenceNumber() == null || stream.getSequenceNumber().isBlank() ? null : stream.getSequenceNumber(),
                keys,
                convert(stream.getOldImage(), "OldImage"),
                convert(stream.getNewImage(), "NewImage"),
                identity == null ? null : new UserIdentity(identity.getType(), identity.getPrincipalId()),
                stream.getApproximateCreationDateTime() == null ? null : plausible(stream.getApproximateCreationDateTime().toInstant()),
                record.getEventSourceARN() == null || record.getEventSourceARN().isBlank() ? null : record.getEventSourceARN());
    }

    /**
     * The one rule for creation times: epoch values past the year 5000 were milliseconds read as seconds
     * (some producers, DynamoDB Local among them, where AWS sends seconds); read them as such.
     */
    public static Instant plausible(Instant time) {
        return time.getEpochSecond() > MILLIS_READ_AS_SECONDS ? Instant.ofEpochMilli(time.getEpochSecond()) : time;
    }

    private static final long MILLIS_READ_AS_SECONDS = 100_000_000_000L;

    /** The string value of a key attribute, when the key has that attribute as a string. */
    public Optional<String> stringKey(String attribute) {
        AttributeValue value = keys.get(attribute);
        return value == null ? Optional.empty() : Optional.ofNullable(value.s());
    }

    private static Map<String, AttributeValue> convert(
            Map<String, com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue> image, String part) {
        if (image == null) {
            return null;
        }
        try {
            return DynamodbAttributeValueTransformer.toAttributeValueMapV2(image);
        } catch (RuntimeException e) {
            throw new MalformedRecordException(part + " cannot be converted: " + e.getClass().getSimpleName(), e);
        }
    }
}
