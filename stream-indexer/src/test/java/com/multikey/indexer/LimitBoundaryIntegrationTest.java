package com.multikey.indexer;

import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.multikey.common.Sleeper;
import com.multikey.common.StructuredLog;
import com.multikey.index.DynamoDbLimits;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexValue;
import com.multikey.index.IssueImages;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static com.multikey.index.IssueImages.s;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Inputs exactly at DynamoDB's limits, through the real handler on the local DynamoDB engine: item sizes counted as
 * DynamoDB counts them, requests packed by their size as sent, and refused puts over existing keys.
 */
@ExtendWith(IndexerStackExtension.class)
class LimitBoundaryIntegrationTest {

    private final IndexerStack stack;
    private final ByteArrayOutputStream logged = new ByteArrayOutputStream();
    private final StructuredLog log = new StructuredLog("test", new PrintStream(logged, true, StandardCharsets.UTF_8), Clock.systemUTC());

    LimitBoundaryIntegrationTest(IndexerStack stack) {
        this.stack = stack;
    }

    /**
     * A text value of the length that makes the index item of (f1, value) of the issue exactly
     * {@code targetBytes} by {@link DynamoDbLimits#itemBytes}, with the value copied.
     */
    private static String valueFor(String issueId, int num, long targetBytes) {
        String value = "v".repeat(300_000);
        for (int round = 0; round < 3; round++) {
            IndexItem item = IndexItem.of("f1", new IndexValue.Text(value), issueId, "project#1", BigDecimal.valueOf(num));
            long bytes = DynamoDbLimits.itemBytes(IndexerStack.withValueCopied(item));
            value = "v".repeat((int) (value.length() + targetBytes - bytes));
        }
        return value;
    }

    /**
     * DynamoDB counts the number 110 as 3 bytes (base-100 digits 01|10 plus the exponent byte),
     * DynamoDbLimits as 2 ("one byte per two significant digits" of "11"). An issue with num 110 whose
     * index item itemBytes puts at exactly 400 KB with its text value copied is one byte over for DynamoDB
     * Local, which refuses the put: the field is not indexed at all (RefusedWrites, alarmed), where the
     * README promises a value that does not fit is indexed without its copy (valueOmitted).
     */
    @Test
    void aValueAtTheItemSizeBoundary_isIndexed_notRefusedByDynamoDb() {
        String value = valueFor("issue#edge", 110, DynamoDbLimits.MAX_ITEM_BYTES);
        stack.put(IssueImages.issue("issue#good", "project#1", 7, Map.of("f1", s("a"))));
        stack.put(IssueImages.issue("issue#edge", "project#1", 110, Map.of("f1", s(value))));
        List<Record> batch = stack.newRecords();
        assertThat(batch).hasSize(2);

        StreamsEventResponse response = stack.invoke(stack.handler(stack.dynamoDb, Duration.ofMillis(1), Sleeper.SYSTEM, log), batch);

        assertThat(response.getBatchItemFailures()).isEmpty();
        assertThat(stack.metrics.last().refusedWrites()).as("writes the DynamoDB engine refused").isZero();
        assertThat(stack.storedIndex()).as("index items").hasSize(2)
                .anyMatch(item -> item.get(IndexItem.ITEM_ID).s().equals("issue#edge"));
    }

    /**
     * The reverse: DynamoDB counts the number 0 as one byte. An issue with num 0 whose index item DynamoDB
     * takes with its value (exactly 400 KB as DynamoDB counts) keeps the value's copy.
     */
    @Test
    void aValueThatFitsAsDynamoDbCounts_isCopied() {
        String value = valueFor("issue#zero", 0, DynamoDbLimits.MAX_ITEM_BYTES);
        IndexItem fits = IndexItem.of("f1", new IndexValue.Text(value), "issue#zero", "project#1", BigDecimal.ZERO);
        Map<String, AttributeValue> copied = IndexerStack.withValueCopied(fits);
        // the DynamoDB engine itself accepts the item with its value copy
        stack.dynamoDb.putItem(b -> b.tableName(stack.config.indexTableName()).item(copied));
        stack.dynamoDb.deleteItem(b -> b.tableName(stack.config.indexTableName()).key(fits.key().toKey()));

        stack.put(IssueImages.issue("issue#zero", "project#1", 0, Map.of("f1", s(value))));
        StreamsEventResponse response = stack.invoke(stack.handler(stack.dynamoDb, Duration.ofMillis(1), Sleeper.SYSTEM, log),
                stack.newRecords());

        assertThat(response.getBatchItemFailures()).isEmpty();
        assertThat(stack.metrics.last().valuesNotCopied()).as("values not copied").isZero();
        assertThat(stack.storedIndex()).singleElement().satisfies(item -> assertThat(item).containsKey(IndexItem.VALUE));
    }

    /**
     * A put DynamoDB refuses for a key that already holds the issue's previous item (here the project
     * changed; the key is value, num and id, so it is the same) leaves that previous item in place: the
     * index keeps an item of a superseded image (the issue still listed under its old project), which the
     * latest image does not imply. Replaying the batch changes nothing.
     */
    @Test
    void aRefusedPutOverAnExistingKey_leavesNoItemOfTheSupersededImage() {
        stack.put(IssueImages.issue("issue#a", "project#old", 1, Map.of("f1", s("a"))));
        stack.pump();
        assertThat(stack.storedIndex()).hasSize(1);

        stack.put(IssueImages.issue("issue#a", "project#new", 1, Map.of("f1", s("a"))));
        List<Record> batch = stack.newRecords();
        DynamoDbClient refusing = RefusingDynamoDbClient.refusingPuts(stack.dynamoDb, IndexItem.PROJECT, "project#new");
        for (int delivery = 0; delivery < 2; delivery++) {
            StreamsEventResponse response = stack.invoke(stack.handler(refusing, Duration.ofMillis(1), Sleeper.SYSTEM, log), batch);
            assertThat(response.getBatchItemFailures()).isEmpty();
        }

        assertThat(stack.metrics.last().refusedWrites()).isEqualTo(1);
        assertThat(stack.storedIndex()).as("index items left from the superseded image")
                .noneMatch(item -> item.get(IndexItem.PROJECT).s().equals("project#old"));
    }

    /**
     * BatchWriteItem calls are packed by DynamoDB's item-size accounting, but DynamoDB (and the local engine)
     * limit the request as sent, and JSON escapes control characters six-fold (U+0001 is 1 byte in an item,
     * {@code \u0001} on the wire). Eight good issues whose values are 390,000 control characters each make
     * a call of about 3 MB by item size and about 19 MB on the wire: DynamoDB (and the engine) answer 413 Request
     * too large, every one of the eight is a batch item failure, and a replay fails the same way, forever.
     */
    @Test
    void goodItemsWhoseJsonIsLarge_areWritten_notFailedForever() {
        String control = "\u0001".repeat(390_000);
        for (int i = 0; i < 8; i++) {
            stack.put(IssueImages.issue("issue#c" + i, "project#1", i, Map.of("f1", s(control))));
        }
        List<Record> batch = stack.newRecords();
        assertThat(batch).hasSize(8);

        StreamsEventResponse response = stack.invoke(stack.handler(stack.dynamoDb, Duration.ofMillis(1), Sleeper.SYSTEM, log), batch);

        assertThat(response.getBatchItemFailures()).as("batch item failures for good issues; log: %s",
                logged.toString(StandardCharsets.UTF_8).lines().filter(line -> line.contains("error")).toList()).isEmpty();
        assertThat(stack.query("f1", true)).hasSize(8);
    }
}
