package com.multikey.indexer;

import com.multikey.common.DynamoDbJobCheckpoints;
import com.multikey.common.JobProgress;
import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateTables;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Set;

import static com.multikey.emulator.template.SamTemplate.map;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one-reader consumer's checkpoints in the template's StreamCheckpointsTable on the local DynamoDB engine: each write
 * conditional on the attempt it read, so of two invocations that read the same attempt only the first writes.
 */
class DynamoDbJobCheckpointsIntegrationTest {

    private static final SamTemplate ONE_READER = SamTemplate.ofRepository().withParameterOverrides(Map.of("StreamReaders", "one"));
    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

    private static LocalDynamoDb local;
    private static DynamoDbClient dynamoDb;
    private static String table;
    private DynamoDbJobCheckpoints checkpoints;

    @BeforeAll
    static void start() {
        local = LocalDynamoDb.start();
        dynamoDb = local.client();
        table = TemplateTables.create(ONE_READER, dynamoDb).get("StreamCheckpointsTable");
    }

    @AfterAll
    static void stop() {
        dynamoDb.close();
        local.close();
    }

    @BeforeEach
    void emptyTable() {
        dynamoDb.scanPaginator(b -> b.tableName(table)).items().forEach(item ->
                dynamoDb.deleteItem(b -> b.tableName(table).key(Map.of("restartAt", item.get("restartAt")))));
        checkpoints = new DynamoDbJobCheckpoints(dynamoDb, table, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private static JobProgress progress(String restartAt, Set<String> indexed, Set<String> routed) {
        return new JobProgress(restartAt, indexed, routed, 0);
    }

    @Test
    void read_whenNoCheckpointWasWritten_isEmpty() {
        assertThat(checkpoints.read("event-1")).isEmpty();
    }

    @Test
    void write_whenAbsent_createsTheItem_readBackAsWritten_atAttemptOne() {
        // when
        boolean written = checkpoints.write(progress("event-1", Set.of("200", "300"), Set.of("100", "300")), 0);

        // then
        assertThat(written).isTrue();
        assertThat(checkpoints.read("event-1")).contains(new JobProgress("event-1", Set.of("200", "300"), Set.of("100", "300"), 1));
    }

    @Test
    void write_setsTheExpiryTheTablesTimeToLiveReads_twoDaysAfterTheWrite() {
        // given
        Object ttl = map(ONE_READER.deployed().properties("StreamCheckpointsTable").get("TimeToLiveSpecification"), "ttl").get("AttributeName");

        // when
        checkpoints.write(progress("event-1", Set.of("200"), Set.of()), 0);

        // then
        Map<String, AttributeValue> item = dynamoDb.getItem(b -> b.tableName(table).key(Map.of("restartAt", AttributeValue.fromS("event-1"))))
                .item();
        assertThat(ttl).isEqualTo("expiresAt");
        assertThat(item.get("expiresAt")).isEqualTo(AttributeValue.fromN(Long.toString(NOW.plus(Duration.ofDays(2)).getEpochSecond())));
        assertThat(dynamoDb.describeTimeToLive(b -> b.tableName(table)).timeToLiveDescription().attributeName()).isEqualTo(ttl);
    }

    @Test
    void write_withEmptySets_leavesTheirAttributesOut_andReadsThemBackEmpty() {
        // DynamoDB refuses an empty string set: a job that finished nothing has no attribute
        assertThat(checkpoints.write(progress("event-1", Set.of(), Set.of()), 0)).isTrue();

        Map<String, AttributeValue> item = dynamoDb.getItem(b -> b.tableName(table).key(Map.of("restartAt", AttributeValue.fromS("event-1"))))
                .item();
        assertThat(item).doesNotContainKeys("indexed", "routed");
        assertThat(checkpoints.read("event-1")).contains(new JobProgress("event-1", Set.of(), Set.of(), 1));
    }

    @Test
    void write_atTheAttemptRead_replacesTheItem_andCountsTheAttempt() {
        // given
        checkpoints.write(progress("event-1", Set.of("200"), Set.of()), 0);

        // when
        boolean written = checkpoints.write(progress("event-1", Set.of("200"), Set.of("200", "300")), 1);

        // then
        assertThat(written).isTrue();
        assertThat(checkpoints.read("event-1")).contains(new JobProgress("event-1", Set.of("200"), Set.of("200", "300"), 2));
    }

    @Test
    void write_ofTwoInvocationsThatReadNoItem_onlyTheFirstWrites_andItsProgressStays() {
        // given: both read no item (attempt 0); one writes first
        assertThat(checkpoints.write(progress("event-1", Set.of("200"), Set.of("100")), 0)).isTrue();

        // when: the other, which lost the race
        boolean written = checkpoints.write(progress("event-1", Set.of(), Set.of("100", "200")), 0);

        // then
        assertThat(written).isFalse();
        assertThat(checkpoints.read("event-1")).contains(new JobProgress("event-1", Set.of("200"), Set.of("100"), 1));
    }

    @Test
    void write_atAnAttemptNoLongerCurrent_isRefused() {
        // given: the item at attempt 2
        checkpoints.write(progress("event-1", Set.of("1"), Set.of()), 0);
        checkpoints.write(progress("event-1", Set.of("1", "2"), Set.of()), 1);

        // when: an invocation that read attempt 1
        boolean written = checkpoints.write(progress("event-1", Set.of(), Set.of()), 1);

        // then
        assertThat(written).isFalse();
        assertThat(checkpoints.read("event-1")).contains(new JobProgress("event-1", Set.of("1", "2"), Set.of(), 2));
    }

    @Test
    void write_expectingAnAttempt_whenTheItemIsMissing_isRefused_andCreatesNothing() {
        // given: an invocation read attempt 1, then the item expired (TTL) or was deleted

        // when
        boolean written = checkpoints.write(progress("event-1", Set.of("1"), Set.of()), 1);

        // then
        assertThat(written).isFalse();
        assertThat(checkpoints.read("event-1")).isEmpty();
    }
}
