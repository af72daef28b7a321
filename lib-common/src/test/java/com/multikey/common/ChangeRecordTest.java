package com.multikey.common;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.Identity;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamRecord;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChangeRecordTest {

    private static DynamodbStreamRecord record(String eventName, Identity identity) {
        DynamodbStreamRecord record = new DynamodbStreamRecord();
        record.setEventID("e1");
        record.setEventName(eventName);
        record.setUserIdentity(identity);
        StreamRecord stream = new StreamRecord();
        stream.setKeys(Map.of("id", new AttributeValue().withS("layer#1")));
        stream.setOldImage(Map.of("id", new AttributeValue().withS("layer#1"), "n", new AttributeValue().withN("1.50")));
        stream.setSequenceNumber("42");
        record.setDynamodb(stream);
        return record;
    }

    @Test
    void from_whenTtlIdentity_recognisesTheExpiry() {
        ChangeRecord change = ChangeRecord.from(record("REMOVE",
                new Identity().withType("Service").withPrincipalId("dynamodb.amazonaws.com")));

        assertThat(change.kind()).isEqualTo(ChangeKind.REMOVE);
        assertThat(change.userIdentity()).hasValueSatisfying(i -> assertThat(i.isTimeToLiveExpiry()).isTrue());
        assertThat(change.oldImage().orElseThrow().get("n").n()).isEqualTo("1.50");
        assertThat(change.newImage()).isEmpty();
        assertThat(change.sequenceNumber()).contains("42");
    }

    @Test
    void from_whenCreationTimeWasMillisecondsReadAsSeconds_readsItAsMilliseconds() {
        DynamodbStreamRecord record = record("INSERT", null);
        record.getDynamodb().setApproximateCreationDateTime(new java.util.Date(1_480_642_020_000L * 1000));
        DynamodbStreamRecord normal = record("INSERT", null);
        normal.getDynamodb().setApproximateCreationDateTime(new java.util.Date(1_480_642_020_000L));

        assertThat(ChangeRecord.from(record).approximateCreationTime()).contains(java.time.Instant.ofEpochMilli(1_480_642_020_000L));
        assertThat(ChangeRecord.from(normal).approximateCreationTime()).contains(java.time.Instant.ofEpochMilli(1_480_642_020_000L));
    }

    @Test
    void from_whenTheEventNamesItsStream_knowsTheSourceTable() {
        // given
        DynamodbStreamRecord record = record("MODIFY", null);
        record.setEventSourceARN("arn:aws:dynamodb:us-east-1:123456789012:table/Items-prod/stream/2026-01-01T00:00:00.000");

        // when
        ChangeRecord change = ChangeRecord.from(record);

        // then
        assertThat(change.eventSourceArn()).contains(record.getEventSourceARN());
        assertThat(change.sourceTable()).contains("Items-prod");
    }

    @Test
    void from_whenTheEventNamesNoStreamOrAnotherKindOfSource_knowsNoSourceTable() {
        DynamodbStreamRecord unnamed = record("MODIFY", null);
        DynamodbStreamRecord kinesis = record("MODIFY", null);
        kinesis.setEventSourceARN("arn:aws:kinesis:us-east-1:123456789012:stream/changes");

        assertThat(ChangeRecord.from(unnamed).eventSourceArn()).isEmpty();
        assertThat(ChangeRecord.from(unnamed).sourceTable()).isEmpty();
        assertThat(ChangeRecord.from(kinesis).sourceTable()).isEmpty();
    }

    @Test
    void from_whenOtherIdentityOrNone_isNoExpiry() {
        assertThat(ChangeRecord.from(record("REMOVE", new Identity().withType("Service").withPrincipalId("someone.amazonaws.com")))
                .userIdentity().orElseThrow().isTimeToLiveExpiry()).isFalse();
        assertThat(ChangeRecord.from(record("REMOVE", null)).userIdentity()).isEmpty();
    }

    @Test
    void from_whenEventNameUnknownOrSectionMissing_explains() {
        assertThatThrownBy(() -> ChangeRecord.from(record("DROP", null))).isInstanceOf(MalformedRecordException.class)
                .hasMessage("unknown eventName 'DROP'");
        DynamodbStreamRecord empty = record("INSERT", null);
        empty.setDynamodb(null);
        assertThatThrownBy(() -> ChangeRecord.from(empty)).hasMessage("record has no dynamodb section");
    }
}
