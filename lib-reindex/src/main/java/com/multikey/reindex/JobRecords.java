package com.multikey.reindex;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.Update;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static com.multikey.reindex.JobItems.JOB_PART;
import static com.multikey.reindex.JobItems.TOTALS;
import static com.multikey.reindex.JobItems.expiry;
import static com.multikey.reindex.JobItems.key;
import static com.multikey.reindex.JobItems.number;
import static com.multikey.reindex.JobStore.EXPIRES_AT;
import static com.multikey.reindex.JobStore.PART;

/**
 * A job's own item ({@code part} {@code job}): written once, read back, its totals and segments left changed by each
 * checkpoint, and marked done by exactly one caller.
 */
final class JobRecords {

    private final DynamoDbClient dynamoDb;
    private final String table;

    JobRecords(DynamoDbClient dynamoDb, String table) {
        this.dynamoDb = dynamoDb;
        this.table = table;
    }

    /** See {@link JobStore#create}. */
    boolean create(JobSpec spec, Instant now) {
        Map<String, AttributeValue> job = JobItems.newJob(spec, now);
        try {
            dynamoDb.putItem(b -> b.tableName(table).item(job).conditionExpression("attribute_not_exists(#p)")
                    .expressionAttributeNames(Map.of("#p", PART)));
        } catch (ConditionalCheckFailedException exists) {
            return false;
        }
        return true;
    }

    Optional<JobStatus> job(String jobId) {
        Map<String, AttributeValue> item = dynamoDb.getItem(b -> b.tableName(table).key(key(jobId, JOB_PART)).consistentRead(true)).item();
        return item == null || item.isEmpty() ? Optional.empty() : Optional.of(JobItems.status(item));
    }

    /**
     * The update, for a checkpoint's transaction, that adds a page's counts to the job's totals and, when its segment is
     * now done, takes the segment off {@code segmentsLeft}.
     */
    Update addPage(String jobId, PageCounts counts, boolean segmentDone, Instant now) {
        Map<String, String> names = new HashMap<>(Map.of("#exp", EXPIRES_AT));
        Map<String, AttributeValue> values = new HashMap<>(Map.of(":exp", expiry(now)));
        List<String> adds = new ArrayList<>();
        long[] totals = JobItems.totals(counts);
        for (int i = 0; i < TOTALS.size(); i++) {
            names.put("#t" + i, TOTALS.get(i));
            values.put(":t" + i, number(totals[i]));
            adds.add("#t" + i + " :t" + i);
        }
        if (segmentDone) {
            names.put("#left", "segmentsLeft");
            values.put(":minusOne", number(-1));
            adds.add("#left :minusOne");
        }
        return Update.builder().tableName(table).key(key(jobId, JOB_PART))
                .updateExpression("SET #exp = :exp ADD " + String.join(", ", adds))
                .expressionAttributeNames(names).expressionAttributeValues(values).build();
    }

    /** See {@link JobStore#completeIfLast}. */
    Optional<JobStatus> completeIfLast(String jobId, Instant now) {
        try {
            Map<String, AttributeValue> item = dynamoDb.updateItem(b -> b.tableName(table).key(key(jobId, JOB_PART))
                    .updateExpression("SET #status = :done, #finished = :now")
                    .conditionExpression("#left = :zero AND #status = :running")
                    .expressionAttributeNames(Map.of("#status", "status", "#finished", "finishedAt", "#left", "segmentsLeft"))
                    .expressionAttributeValues(Map.of(":done", AttributeValue.fromS("DONE"), ":running", AttributeValue.fromS("RUNNING"),
                            ":now", number(now.toEpochMilli()), ":zero", number(0)))
                    .returnValues(ReturnValue.ALL_NEW)).attributes();
            return Optional.of(JobItems.status(item));
        } catch (ConditionalCheckFailedException notLast) {
            return Optional.empty();
        }
    }
}
