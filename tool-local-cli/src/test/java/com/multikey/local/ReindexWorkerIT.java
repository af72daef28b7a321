package com.multikey.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.emulator.TemplateRuntime;
import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import com.multikey.emulator.services.lambda.LocalLambdaApi;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexValue;
import com.multikey.reindex.JobStatus;
import com.multikey.reindex.JobStore;
import com.multikey.testkit.IssueFixtures;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;
import software.amazon.awssdk.services.lambda.model.RequestTooLargeException;
import software.amazon.awssdk.services.lambda.model.ResourceNotFoundException;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The reindex worker from its deployable jar in the local runtime, driven through the local Lambda Invoke API
 * as the operator's command line drives it on AWS: a table populated before the stream (the stream is never
 * read here) backfilled over many segments, every invocation "timing out" after one page and continuing from
 * its checkpoint in a new asynchronous invocation; then verify finding injected drift and repair fixing it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReindexWorkerIT {

    private static final String WORKER = "ReindexWorkerFunction";
    private static final int SEGMENTS = 16;
    private static final int ISSUES = 300;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> lines = new CopyOnWriteArrayList<>();
    private static TemplateRuntime runtime;
    private static DynamoDbClient dynamoDb;
    private static LambdaClient lambda;
    private static JobStore jobs;

    @BeforeAll
    static void start() {
        runtime = new TemplateRuntime(SamTemplate.ofRepository(), 0, lines::add);
        dynamoDb = runtime.dynamoDb();
        lambda = LambdaClient.builder().endpointOverride(runtime.lambdaApi().endpoint()).region(LocalDynamoDb.REGION)
                .credentialsProvider(LocalDynamoDb.credentials()).httpClient(UrlConnectionHttpClient.create()).build();
        jobs = new JobStore(dynamoDb, runtime.table("ReindexJobsTable"));
        IssueFixtures.putRandomIssues(dynamoDb, runtime.table("AppTable"), ISSUES, new Random(7));
        dynamoDb.putItem(b -> b.tableName(runtime.table("AppTable")).item(Map.of("id", AttributeValue.fromS("project#0"),
                "name", AttributeValue.fromS("not an issue"))));
        // the worker keeps SAFETY_MARGIN_SECONDS (60) in reserve: with 60.001 s left at the start, every invocation
        // has time for one page only, then saves its checkpoint and hands the segment to a new invocation
        runtime.lambdaApi().onInvocation(WORKER, context -> context.setRemainingTimeInMillis(60_001));
    }

    @AfterAll
    static void stop() {
        if (lambda != null) {
            lambda.close();
        }
        if (runtime != null) {
            runtime.close();
        }
    }

    private static JsonNode invoke(String json) throws Exception {
        InvokeResponse response = lambda.invoke(b -> b.functionName("local-reindex-worker").payload(SdkBytes.fromUtf8String(json)));
        assertThat(response.functionError()).as(response.payload().asUtf8String()).isNull();
        return JSON.readTree(response.payload().asUtf8String());
    }

    private static JobStatus runJob(String jobId, String kind) throws Exception {
        JsonNode started = invoke("{\"action\":\"start\",\"jobId\":\"" + jobId + "\",\"kind\":\"" + kind + "\",\"totalSegments\":"
                + SEGMENTS + ",\"writeUnitsPerSecond\":1000000,\"concurrency\":4,\"pageSize\":10}");
        assertThat(started.get("segmentsInvoked").asInt()).isEqualTo(SEGMENTS);
        assertThat(runtime.lambdaApi().awaitAsyncIdle(Duration.ofMinutes(5))).isTrue();
        assertThat(runtime.lambdaApi().asyncFailures()).isEmpty();
        return jobs.job(jobId).orElseThrow();
    }

    private static long invocations() {
        return runtime.lambdaApi().calls().stream().filter(call -> call.path().endsWith("/invocations")).count();
    }

    private static java.util.Set<Map<String, AttributeValue>> index() {
        return IssueFixtures.storedIndex(dynamoDb, runtime.table("IssueAttribIndexTable"));
    }

    private static java.util.Set<Map<String, AttributeValue>> expected() {
        // a new stack: the grid grouped by project, as the worker recorded it at its first job
        return IssueFixtures.expectedIndex(dynamoDb, runtime.table("AppTable"), IssueFixtures.recorded(dynamoDb, runtime.table("IssueAttribIndexTable")));
    }

    @Test
    @Order(1)
    void backfill_overSixteenSegments_chainingFromCheckpoints_buildsExactlyTheImpliedIndex() throws Exception {
        assertThat(index()).as("nothing read the stream").isEmpty();
        long before = invocations();

        JobStatus job = runJob("backfill-1", "backfill");

        assertThat(job.done()).isTrue();
        assertThat(job.segmentsLeft()).isZero();
        assertThat(job.totals().sourceItems()).isEqualTo(ISSUES);
        assertThat(job.totals().items()).isEqualTo(ISSUES + 1);
        assertThat(index()).isEqualTo(expected()).hasSizeGreaterThan(ISSUES);
        assertThat(invocations() - before).as("the start, one per segment, and the continuations of segments of more than one page")
                .isGreaterThan(1 + SEGMENTS + 10);
    }

    @Test
    @Order(2)
    void start_ofAFinishedJob_resumesNothing_andOfAnotherKindUnderItsId_isRefused() throws Exception {
        JsonNode resumed = invoke("{\"action\":\"start\",\"jobId\":\"backfill-1\",\"kind\":\"backfill\",\"totalSegments\":" + SEGMENTS + "}");
        assertThat(resumed.get("resumed").asBoolean()).isTrue();
        assertThat(resumed.get("segmentsInvoked").asInt()).isZero();

        InvokeResponse refused = lambda.invoke(b -> b.functionName(WORKER)
                .payload(SdkBytes.fromUtf8String("{\"action\":\"start\",\"jobId\":\"backfill-1\",\"kind\":\"verify\",\"totalSegments\":3}")));
        assertThat(refused.functionError()).isEqualTo("Unhandled");
        assertThat(refused.payload().asUtf8String()).contains("exists as a backfill over 16 segments");
    }

    @Test
    @Order(3)
    void verify_findsInjectedDrift_repairFixesIt_andVerifyThenFindsNone() throws Exception {
        String indexTable = runtime.table("IssueAttribIndexTable");
        List<IndexItem> items = new ArrayList<>(IssueFixtures.expectedItems(dynamoDb, runtime.table("AppTable"),
                IssueFixtures.recorded(dynamoDb, indexTable)));
        items.sort(Comparator.comparing(IndexItem::sortKey).thenComparing(IndexItem::attribId));
        IndexItem removed = items.get(0);
        IndexItem changed = items.stream().filter(i -> !i.itemKeyText().equals(removed.itemKeyText())).findFirst().orElseThrow();
        dynamoDb.deleteItem(b -> b.tableName(indexTable).key(removed.key().toKey()));
        Map<String, AttributeValue> wrongProject = new LinkedHashMap<>(changed.toItem());
        wrongProject.put("project", AttributeValue.fromS("project#elsewhere"));
        dynamoDb.putItem(b -> b.tableName(indexTable).item(wrongProject));
        dynamoDb.putItem(b -> b.tableName(indexTable).item(
                IndexItem.of("f1", new IndexValue.Text("ghost"), "issue#gone", "project#0", BigDecimal.ONE).toItem()));
        dynamoDb.putItem(b -> b.tableName(indexTable).item(
                IndexItem.of("f9", new IndexValue.Text("extra"), "issue#5", "project#2", BigDecimal.valueOf(5)).toItem()));

        JobStatus verify = runJob("verify-1", "verify");
        assertThat(verify.done()).isTrue();
        assertThat(verify.totals().missing()).isEqualTo(1);
        assertThat(verify.totals().stale()).as("a changed item and an item its issue does not imply").isEqualTo(2);
        assertThat(verify.totals().orphaned()).isEqualTo(1);
        assertThat(verify.totals().repaired()).isZero();
        assertThat(index()).isNotEqualTo(expected());

        JobStatus repair = runJob("repair-1", "repair");
        assertThat(repair.totals().drift()).isEqualTo(4);
        assertThat(repair.totals().repaired()).as("one conditional write per wrong issue and side").isEqualTo(4);
        assertThat(index()).isEqualTo(expected());

        JobStatus again = runJob("verify-2", "verify");
        assertThat(again.totals().drift()).isZero();
        assertThat(again.totals().sourceItems()).isEqualTo(ISSUES);
    }

    @Test
    @Order(4)
    void invokeApi_refusesWhatLambdaRefuses() {
        assertThatThrownBy(() -> lambda.invoke(b -> b.functionName("no-such-function").payload(SdkBytes.fromUtf8String("{}"))))
                .isInstanceOf(ResourceNotFoundException.class);
        String big = "{\"x\":\"" + "a".repeat(LocalLambdaApi.MAX_ASYNC_PAYLOAD_BYTES) + "\"}";
        assertThatThrownBy(() -> lambda.invoke(b -> b.functionName(WORKER)
                .invocationType(software.amazon.awssdk.services.lambda.model.InvocationType.EVENT).payload(SdkBytes.fromUtf8String(big))))
                .isInstanceOf(RequestTooLargeException.class);
        String tooBigForSync = "{\"x\":\"" + "a".repeat(LocalLambdaApi.MAX_SYNC_PAYLOAD_BYTES) + "\"}";
        assertThatThrownBy(() -> lambda.invoke(b -> b.functionName(WORKER).payload(SdkBytes.fromUtf8String(tooBigForSync))))
                .isInstanceOf(RequestTooLargeException.class);
        assertThat(lambda.invoke(b -> b.functionName(WORKER).invocationType(software.amazon.awssdk.services.lambda.model.InvocationType.DRY_RUN)
                .payload(SdkBytes.fromUtf8String("{}"))).statusCode()).isEqualTo(204);
        InvokeResponse bad = lambda.invoke(b -> b.functionName(WORKER).payload(SdkBytes.fromUtf8String("{\"action\":\"dance\"}")));
        assertThat(bad.functionError()).isEqualTo("Unhandled");
        assertThat(bad.payload().asUtf8String()).contains("\\\"action\\\" must be");
    }

    @Test
    @Order(5)
    void asyncInvocation_thatKeepsFailing_isRetriedAsConfigured_thenSentToItsOnFailureQueue() throws Exception {
        InvokeResponse queued = lambda.invoke(b -> b.functionName(WORKER)
                .invocationType(software.amazon.awssdk.services.lambda.model.InvocationType.EVENT)
                .payload(SdkBytes.fromUtf8String("{\"action\":\"segment\",\"jobId\":\"no-such-job\",\"segment\":0}")));

        assertThat(queued.statusCode()).isEqualTo(202);
        assertThat(runtime.lambdaApi().awaitAsyncIdle(Duration.ofMinutes(1))).isTrue();
        assertThat(runtime.lambdaApi().asyncFailures()).singleElement().satisfies(failure -> {
            assertThat(failure.function()).isEqualTo(WORKER);
            assertThat(failure.attempts()).as("the first and EventInvokeConfig.MaximumRetryAttempts (2) retries").isEqualTo(3);
            assertThat(failure.error()).contains("no reindex job no-such-job");
        });
        assertThat(runtime.sqs().bodies("ReindexWorkerFailureQueue")).as("the invocation record in the on-failure destination")
                .singleElement().satisfies(body -> {
                    JsonNode record = JSON.readTree(body);
                    assertThat(record.at("/requestContext/condition").asText()).isEqualTo("RetriesExhausted");
                    assertThat(record.at("/requestContext/approximateInvokeCount").asInt()).isEqualTo(3);
                    assertThat(record.at("/requestContext/functionArn").asText()).endsWith(":function:ReindexWorkerFunction:$LATEST");
                    assertThat(record.path("requestPayload")).isEqualTo(JSON.readTree("{\"action\":\"segment\",\"jobId\":\"no-such-job\",\"segment\":0}"));
                    assertThat(record.at("/responsePayload/errorMessage").asText()).contains("no reindex job no-such-job");
                });
    }
}
