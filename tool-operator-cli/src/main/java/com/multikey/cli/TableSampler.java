package com.multikey.cli;

import com.multikey.index.DynamoDbLimits;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads a table's description and a bounded sample of its items, and nothing else: {@code DescribeTable}, then
 * {@code Scan} pages of at most {@code pageSize} items (eventually consistent) until the sample is full or the table
 * ends, pausing after each page so the read units consumed stay under {@code readUnitsPerSecond}. It never writes.
 */
final class TableSampler {

    /** Waits between pages (a test passes one that does not sleep). */
    interface Pause {
        void sleep(Duration duration) throws InterruptedException;

        Pause SLEEP = duration -> Thread.sleep(duration.toMillis(), duration.toNanosPart() % 1_000_000);
    }

    /**
     * What was read.
     *
     * @param table     the table's description
     * @param items     the items sampled, in scan order
     * @param pages     Scan calls made
     * @param readUnits read capacity units consumed (as DynamoDB reported them, or estimated from the items' sizes)
     * @param whole     whether the scan reached the table's end (the sample is the whole table)
     */
    record Sample(TableDescription table, List<Map<String, AttributeValue>> items, int pages, double readUnits, boolean whole) {
        Sample {
            items = List.copyOf(items);
        }
    }

    private final DynamoDbClient client;
    private final int pageSize;
    private final double readUnitsPerSecond;
    private final Pause pause;

    TableSampler(DynamoDbClient client, int pageSize, double readUnitsPerSecond, Pause pause) {
        if (pageSize < 1 || readUnitsPerSecond <= 0) {
            throw new IllegalArgumentException("page size and read rate must be positive");
        }
        this.client = client;
        this.pageSize = pageSize;
        this.readUnitsPerSecond = readUnitsPerSecond;
        this.pause = pause;
    }

    Sample sample(String table, int maxItems) throws InterruptedException {
        TableDescription description = client.describeTable(b -> b.tableName(table)).table();
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        int pages = 0;
        double units = 0;
        boolean whole = false;
        while (items.size() < maxItems) {
            Map<String, AttributeValue> from = start;
            int limit = Math.min(pageSize, maxItems - items.size());
            ScanResponse page = client.scan(b -> b.tableName(table).limit(limit).exclusiveStartKey(from)
                    .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
            pages++;
            items.addAll(page.items());
            double consumed = page.consumedCapacity() != null && page.consumedCapacity().capacityUnits() != null
                    ? page.consumedCapacity().capacityUnits() : estimatedUnits(page.items());
            units += consumed;
            if (!page.hasLastEvaluatedKey() || page.lastEvaluatedKey().isEmpty()) {
                whole = true;
                break;
            }
            start = page.lastEvaluatedKey();
            pause.sleep(Duration.ofNanos(Math.round(consumed / readUnitsPerSecond * 1e9)));
        }
        return new Sample(description, items, pages, units, whole);
    }

    /** An eventually consistent read bills half a unit per 4 KB of the items read, at least half a unit a call. */
    private static double estimatedUnits(List<Map<String, AttributeValue>> items) {
        long bytes = items.stream().mapToLong(DynamoDbLimits::itemBytes).sum();
        return Math.max(0.5, Math.ceil(bytes / 4096.0) * 0.5);
    }
}
