package com.multikey.dynamodb.conformance;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ExpiredIteratorException;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

import java.math.BigInteger;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static com.multikey.dynamodb.conformance.Errors.expect;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * DynamoDB Streams, written from https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_GetRecords.html,
 * API_streams_GetShardIterator.html, API_streams_DescribeStream.html and API_streams_StreamRecord.html (and
 * the TTL pages https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/time-to-live-ttl-streams.html and
 * time-to-live-ttl-before-you-start.html).
 */
class StreamsTest extends EngineTestSupport {

    private String streamArn(String table) {
        return dynamoDb.describeTable(b -> b.tableName(table)).table().latestStreamArn();
    }

    private List<Record> readAll(String table) {
        String arn = streamArn(table);
        String shard = streams.describeStream(b -> b.streamArn(arn)).streamDescription().shards().get(0).shardId();
        String iterator = streams.getShardIterator(b -> b.streamArn(arn).shardId(shard).shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
        return streams.getRecords(b -> b.shardIterator(iterator)).records();
    }

    @EngineOnly("the engine's clock, to compare a record's time with")
    @Test
    void records_insertModifyRemove_withImagesSecondsAndIncreasingSequenceNumbers() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"), "v", n("1"))));
        dynamoDb.updateItem(b -> b.tableName(table).key(Map.of("id", s("a"))).updateExpression("SET v = :v")
                .expressionAttributeValues(Map.of(":v", n("2.50"))));
        dynamoDb.deleteItem(b -> b.tableName(table).key(Map.of("id", s("a"))));

        List<Record> records = readAll(table);

        assertThat(records).extracting(Record::eventName).containsExactly(OperationType.INSERT, OperationType.MODIFY, OperationType.REMOVE);
        Record modify = records.get(1);
        assertThat(modify.eventSource()).isEqualTo("aws:dynamodb");
        assertThat(modify.eventVersion()).isEqualTo("1.1");
        assertThat(modify.awsRegion()).isEqualTo("us-east-1");
        assertThat(modify.dynamodb().keys()).isEqualTo(Map.of("id", s("a")));
        assertThat(modify.dynamodb().oldImage()).isEqualTo(Map.of("id", s("a"), "v", n("1")));
        assertThat(modify.dynamodb().newImage()).isEqualTo(Map.of("id", s("a"), "v", n("2.5")));
        assertThat(modify.dynamodb().streamViewType()).isEqualTo(StreamViewType.NEW_AND_OLD_IMAGES);
        assertThat(modify.dynamodb().approximateCreationDateTime()).isEqualTo(clock.instant());
        assertThat(modify.dynamodb().sizeBytes()).isPositive();
        assertThat(records).allSatisfy(r -> assertThat(r.dynamodb().sequenceNumber()).hasSizeGreaterThanOrEqualTo(21));
        assertThat(records).extracting(r -> new BigInteger(r.dynamodb().sequenceNumber())).isSorted().doesNotHaveDuplicates();
        assertThat(records.get(2).userIdentity()).isNull();
    }

    @Test
    void records_noneForAWriteThatChangesNothing_andKeysCanonical() {
        String table = rangeTable();
        dynamoDb.updateTable(b -> b.tableName(table).streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.KEYS_ONLY)));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("p"), "sk", n("1.0"), "v", n("1"))));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("p"), "sk", n("1"), "v", n("1.00"))));
        dynamoDb.updateItem(b -> b.tableName(table).key(Map.of("pk", s("p"), "sk", n("1.000"))).updateExpression("SET v = :v")
                .expressionAttributeValues(Map.of(":v", n("1"))));
        dynamoDb.updateItem(b -> b.tableName(table).key(Map.of("pk", s("p"), "sk", n("10E-1"))).updateExpression("SET v = :v")
                .expressionAttributeValues(Map.of(":v", n("2"))));

        List<Record> records = readAll(table);

        assertThat(records).extracting(Record::eventName).containsExactly(OperationType.INSERT, OperationType.MODIFY);
        assertThat(records).allSatisfy(r -> {
            assertThat(r.dynamodb().keys()).isEqualTo(Map.of("pk", s("p"), "sk", n("1")));
            assertThat(r.dynamodb().hasNewImage()).isFalse();
        });
    }

    @EngineOnly("TTL expiry on demand (AWS deletes expired items within days)")
    @Test
    void timeToLive_expiredItemRemovedWithTheServiceIdentity() {
        String table = hashTable();
        dynamoDb.updateTimeToLive(b -> b.tableName(table).timeToLiveSpecification(t -> t.enabled(true).attributeName("expiresAt")));
        long now = clock.instant().getEpochSecond();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("old"), "expiresAt", n(Long.toString(now - 1)))));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("later"), "expiresAt", n(Long.toString(now + 60)))));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("text"), "expiresAt", s("1"))));
        // time-to-live-ttl-before-you-start.html: an expiry more than five years in the past is not expired
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("ancient"), "expiresAt", n(Long.toString(now - 6L * 366 * 24 * 3600)))));

        int expired = engine.expire(table, clock.instant());

        assertThat(expired).isEqualTo(1);
        assertThat(dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("ancient")))).hasItem()).isTrue();
        Record remove = readAll(table).get(4);
        assertThat(remove.eventName()).isEqualTo(OperationType.REMOVE);
        assertThat(remove.userIdentity().type()).isEqualTo("Service");
        assertThat(remove.userIdentity().principalId()).isEqualTo("dynamodb.amazonaws.com");
        assertThat(dynamoDb.describeTimeToLive(b -> b.tableName(table)).timeToLiveDescription().attributeName()).isEqualTo("expiresAt");
    }

    @Test
    void stream_disabledAndReEnabled_getsANewArn_andOldShardEnds() {
        String table = hashTable();
        String first = streamArn(table);
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"))));
        dynamoDb.updateTable(b -> b.tableName(table).streamSpecification(s -> s.streamEnabled(false)));
        dynamoDb.updateTable(b -> b.tableName(table).streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_IMAGE)));

        String second = streamArn(table);

        assertThat(second).isNotEqualTo(first);
        var old = streams.describeStream(b -> b.streamArn(first)).streamDescription();
        assertThat(old.streamStatusAsString()).isEqualTo("DISABLED");
        assertThat(old.shards().get(0).sequenceNumberRange().endingSequenceNumber()).isNotNull();
        String iterator = streams.getShardIterator(b -> b.streamArn(first).shardId(old.shards().get(0).shardId())
                .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
        var read = streams.getRecords(b -> b.shardIterator(iterator));
        assertThat(read.records()).hasSize(1);
        assertThat(read.nextShardIterator()).isNull();
        assertThat(streams.listStreams(b -> b.tableName(table)).streams()).hasSize(2);
    }

    @Test
    void tableDeletedAndCreatedAgainAtOnce_getsAStreamOfItsOwn() {
        String table = hashTable();
        String first = streamArn(table);
        dynamoDb.deleteTable(b -> b.tableName(table));
        dynamoDb.createTable(b -> b.tableName(table).billingMode("PAY_PER_REQUEST")
                .attributeDefinitions(attribute("id", software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType.S))
                .keySchema(key("id", software.amazon.awssdk.services.dynamodb.model.KeyType.HASH))
                .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.KEYS_ONLY)));

        String second = streamArn(table);

        // the test clock stands still: both streams were made in the same millisecond
        assertThat(second).isNotEqualTo(first);
        assertThat(streams.describeStream(b -> b.streamArn(first)).streamDescription().streamStatusAsString()).isEqualTo("DISABLED");
        assertThat(streams.describeStream(b -> b.streamArn(second)).streamDescription().streamStatusAsString()).isEqualTo("ENABLED");
    }

    @EngineOnly("the engine's clock moved 16 minutes")
    @Test
    void shardIterators_atAfterLatest_limitsAndExpiry() {
        String table = hashTable();
        for (int i = 0; i < 3; i++) {
            int index = i;
            dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("i" + index))));
        }
        String arn = streamArn(table);
        String shard = streams.describeStream(b -> b.streamArn(arn)).streamDescription().shards().get(0).shardId();
        List<Record> all = readAll(table);
        String second = all.get(1).dynamodb().sequenceNumber();

        String at = streams.getShardIterator(b -> b.streamArn(arn).shardId(shard).shardIteratorType(ShardIteratorType.AT_SEQUENCE_NUMBER).sequenceNumber(second)).shardIterator();
        String after = streams.getShardIterator(b -> b.streamArn(arn).shardId(shard).shardIteratorType(ShardIteratorType.AFTER_SEQUENCE_NUMBER).sequenceNumber(second)).shardIterator();
        String latest = streams.getShardIterator(b -> b.streamArn(arn).shardId(shard).shardIteratorType(ShardIteratorType.LATEST)).shardIterator();

        assertThat(streams.getRecords(b -> b.shardIterator(at).limit(1)).records()).extracting(r -> r.dynamodb().keys().get("id")).containsExactly(s("i1"));
        assertThat(streams.getRecords(b -> b.shardIterator(after)).records()).extracting(r -> r.dynamodb().keys().get("id")).containsExactly(s("i2"));
        var fromLatest = streams.getRecords(b -> b.shardIterator(latest));
        assertThat(fromLatest.records()).isEmpty();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("i3"))));
        assertThat(streams.getRecords(b -> b.shardIterator(fromLatest.nextShardIterator())).records()).hasSize(1);

        streams.getRecords(b -> b.shardIterator(at).limit(1000));
        expect(() -> streams.getRecords(b -> b.shardIterator(at).limit(1001)), DynamoDbException.class, "Member must have value less than or equal to 1000");
        expect(() -> streams.getRecords(b -> b.shardIterator("not-an-iterator")), DynamoDbException.class, "Invalid ShardIterator");
        clock.advance(Duration.ofMinutes(16));
        expect(() -> streams.getRecords(b -> b.shardIterator(at)), ExpiredIteratorException.class, "Iterator expired");
    }

    /**
     * API_streams_SequenceNumberRange.html: StartingSequenceNumber is "the first sequence number for the stream
     * records contained within a shard", so an iterator AT it reads the shard from its first record, even when
     * another table's write took a sequence number between the stream's creation and that record.
     */
    @Test
    void shardIterator_atTheShardsStartingSequenceNumber_readsItsFirstRecord() {
        String table = hashTable();
        String other = hashTable();
        dynamoDb.putItem(b -> b.tableName(other).item(Map.of("id", s("elsewhere"))));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("first"))));
        String arn = streamArn(table);
        var shard = streams.describeStream(b -> b.streamArn(arn)).streamDescription().shards().get(0);

        String at = streams.getShardIterator(b -> b.streamArn(arn).shardId(shard.shardId()).shardIteratorType(ShardIteratorType.AT_SEQUENCE_NUMBER)
                .sequenceNumber(shard.sequenceNumberRange().startingSequenceNumber())).shardIterator();

        assertThat(streams.getRecords(b -> b.shardIterator(at)).records()).extracting(r -> r.dynamodb().keys().get("id")).containsExactly(s("first"));
    }

    @Test
    void getRecords_answersAtMostOneMegabyte() {
        String table = hashTable();
        String big = "x".repeat(300 * 1024);
        for (int i = 0; i < 5; i++) {
            int index = i;
            dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("big" + index), "v", s(big))));
        }
        String arn = streamArn(table);
        String shard = streams.describeStream(b -> b.streamArn(arn)).streamDescription().shards().get(0).shardId();
        String iterator = streams.getShardIterator(b -> b.streamArn(arn).shardId(shard).shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();

        var first = streams.getRecords(b -> b.shardIterator(iterator));
        var rest = streams.getRecords(b -> b.shardIterator(first.nextShardIterator()));

        assertThat(first.records()).hasSize(3);
        assertThat(rest.records()).hasSize(2);
    }

    @EngineOnly("the engine's clock moved 25 hours")
    @Test
    void records_olderThan24Hours_trimmed() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("old"))));
        clock.advance(Duration.ofHours(25));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("new"), "x", AttributeValue.fromBool(true))));

        assertThat(readAll(table)).extracting(r -> r.dynamodb().keys().get("id")).containsExactly(s("new"));
    }
}
