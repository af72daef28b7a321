package com.multikey.common;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.Identity;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamRecord;
import com.amazonaws.services.lambda.runtime.events.transformers.v2.dynamodb.DynamodbAttributeValueTransformer;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * One stream record as the consumers need it: its images converted to SDK v2 attribute values with the
 * official events transformer, and what identifies it in logs and batch item failures.
 *
 * @param sequenceNumber the shard sequence number; empty for record shapes that carry none
 *                       (Kinesis Data Streams for DynamoDB)
 * @param oldImage       absent for INSERT records and for stream view types without old images
 * @param newImage       absent for REMOVE records and for stream view types without new images
 */
public record ChangeRecord(
        String eventId,
        ChangeKind kind,
        Optional<String> sequenceNumber,
        Map<String, AttributeValue> keys,
        Optional<Map<String, AttributeValue>> oldImage,
        Optional<Map<String, AttributeValue>> newImage,
        Optional<UserIdentity> userIdentity,
        Optional<Instant> approximateCreationTime) {

    public ChangeRecord {
        keys = Map.copyOf(keys);
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
                Optional.ofNullable(stream.getSequenceNumber()).filter(s -> !s.isBlank()),
                keys,
                Optional.ofNullable(convert(stream.getOldImage(), "OldImage")),
                Optional.ofNullable(convert(stream.getNewImage(), "NewImage")),
                Optional.ofNullable(identity).map(i -> new UserIdentity(i.getType(), i.getPrincipalId())),
                Optional.ofNullable(stream.getApproximateCreationDateTime()).map(d -> plausible(d.toInstant())));
    }

    /**
     * The one rule for creation times: epoch values past the year 5000 were milliseconds read as seconds
     * (some producers, DynamoDB Local, where AWS sends seconds); read them as such.
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
