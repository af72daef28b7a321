package com.multikey.reindex.worker;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.common.EmfMetrics;
import com.multikey.common.StructuredLog;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexValue;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.reindex.IndexScope;
import com.multikey.reindex.JobSpec;
import com.multikey.reindex.JobStore;
import com.multikey.reindex.SegmentVerifier;
import com.multikey.testkit.IssueFixtures;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static com.multikey.emulator.template.SamTemplate.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The scheduled drift check as the template wires it: the schedule's input (its {@code !Sub} resolved with the
 * parameters' defaults, the scheduler's {@code <aws.scheduler.scheduled-time>} filled in as the scheduler does)
 * starts a verify job of the real worker over the local DynamoDB engine, which finds injected drift and publishes it as
 * exactly the metrics {@code IndexDriftAlarm} adds up. The schedule's target and role are checked with the rest of the
 * template, in test-template's {@code DriftCheckScheduleTest}.
 */
@ExtendWith(LocalTablesExtension.class)
class DriftCheckTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern SUB_VARIABLE = Pattern.compile("\\$\\{([^}]+)}");
    private static final String SCHEDULED_TIME = "2026-11-22T03:00:00Z";

    private final SamTemplate template = SamTemplate.ofRepository();
    private final LocalTables tables;
    private final DynamoDbClient dynamoDb;
    private final ByteArrayOutputStream output = new ByteArrayOutputStream();
    private final List<Integer> invoked = new ArrayList<>();
    private final ReindexWorker worker;

    DriftCheckTest(LocalTables tables) {
        this.tables = tables;
        this.dynamoDb = tables.dynamoDb();
        PrintStream out = new PrintStream(output, true, StandardCharsets.UTF_8);
        this.worker = new ReindexWorker(new JobStore(dynamoDb, tables.name("ReindexJobsTable")),
                spec -> new SegmentVerifier(dynamoDb, tables.name("AppTable"), tables.name("IssueAttribIndexTable"), IndexScope.all(IndexDefinitions.packaged()),
                        spec.kind() == JobSpec.Kind.REPAIR, spec.writeUnitsPerSegment(), spec.pageSize(), found -> { }),
                (jobId, segment) -> invoked.add(segment),
                new WorkerMetrics(new EmfMetrics("Multikey", WorkerMetrics.SERVICE, out, Clock.systemUTC())),
                new StructuredLog("ReindexWorker", out, Clock.systemUTC()), Clock.systemUTC(), Duration.ofSeconds(60));
    }

    @Test
    void scheduledRun_findsInjectedDrift_andPublishesWhatTheAlarmAddsUp() throws Exception {
        IssueFixtures.putRandomIssues(dynamoDb, tables.name("AppTable"), 40, new Random(3));
        String indexTable = tables.name("IssueAttribIndexTable");
        List<IndexItem> expected = new ArrayList<>(IssueFixtures.expectedItems(dynamoDb, tables.name("AppTable"), IndexDefinitions.packaged()));
        expected.sort(java.util.Comparator.comparing(IndexItem::sortKey).thenComparing(IndexItem::attribId));
        expected.subList(1, expected.size()).forEach(item -> dynamoDb.putItem(b -> b.tableName(indexTable).item(item.toItem())));
        dynamoDb.putItem(b -> b.tableName(indexTable).item(
                IndexItem.of("f1", new IndexValue.Text("ghost"), "issue#gone", "project#0", BigDecimal.ONE).toItem()));

        ReindexWorker.Outcome started = deliver(scheduledInput("verify"));

        assertThat(started).isInstanceOf(ReindexWorker.Outcome.Started.class);
        String jobId = ((ReindexWorker.Outcome.Started) started).jobId();
        assertThat(jobId).isEqualTo("drift-20261122T030000Z");
        int segments = invoked.size();
        assertThat(segments).as("DriftCheckTotalSegments' default").isEqualTo(100);
        for (int segment = 0; segment < segments; segment++) {
            worker.handle(new WorkerRequest.Segment(jobId, segment), () -> 900_000L);
        }

        Map<String, Long> published = new java.util.TreeMap<>();
        for (JsonNode line : lines()) {
            if (line.has("IndexDrift")) {
                published.put(line.path("service").asText() + "/" + line.path("drift").asText(), line.path("IndexDrift").asLong());
            }
        }
        assertThat(published).containsExactlyInAnyOrderEntriesOf(Map.of(
                "reindex-worker/missing", 1L, "reindex-worker/stale", 0L, "reindex-worker/orphaned", 1L));
        assertThat(alarmedSeries()).as("every series the drift alarm adds up").containsExactlyInAnyOrder(
                "IndexDrift/reindex-worker/missing", "IndexDrift/reindex-worker/stale", "IndexDrift/reindex-worker/orphaned",
                "IndexDriftRepaired/reindex-worker/missing", "IndexDriftRepaired/reindex-worker/stale",
                "IndexDriftRepaired/reindex-worker/orphaned");
        for (JsonNode line : lines()) {
            if (line.has("IndexDrift")) {
                assertThat(alarmedSeries()).contains("IndexDrift/" + line.path("service").asText() + "/" + line.path("drift").asText());
                assertThat(line.at("/_aws/CloudWatchMetrics/0/Namespace").asText()).isEqualTo("Multikey");
            }
        }
    }

    @Test
    void aRetriedDeliveryOfOneRun_resumesThatRunsJob_insteadOfStartingAnother() throws Exception {
        ReindexWorker.Outcome first = deliver(scheduledInput("verify"));
        invoked.clear();

        ReindexWorker.Outcome again = deliver(scheduledInput("verify"));

        assertThat(again).isEqualTo(new ReindexWorker.Outcome.Started(((ReindexWorker.Outcome.Started) first).jobId(), true, 100));
    }

    @Test
    void schedule_repairsOnlyWhenAsked() throws Exception {
        assertThat(WorkerRequest.of(scheduledInput("repair"), new WorkerRequest.Defaults(1, 1, 1, 1)))
                .isInstanceOfSatisfying(WorkerRequest.Start.class, start -> assertThat(start.spec().kind()).isEqualTo(JobSpec.Kind.REPAIR));
        assertThatThrownBy(() -> WorkerRequest.of(Map.of("action", "start", "kind", "verify", "jobIdPrefix", "drift",
                "scheduledTime", "yesterday"), new WorkerRequest.Defaults(1, 1, 1, 1))).hasMessageContaining("ISO-8601");
    }

    private ReindexWorker.Outcome deliver(Map<String, Object> input) throws InterruptedException {
        return worker.handle(WorkerRequest.of(input, new WorkerRequest.Defaults(1, 1, 10, 100)), () -> 900_000L);
    }

    /** The schedule's Input with its {@code !Sub} resolved (Kind as given, parameters at their defaults), as delivered. */
    private Map<String, Object> scheduledInput(String kind) throws Exception {
        List<?> sub = (List<?>) map(map(template.properties("DriftCheckSchedule").get("Target"), "Target").get("Input"), "Input").get("Fn::Sub");
        Map<String, Object> local = map(sub.get(1), "Sub variables");
        assertThat(local.get("Kind")).isEqualTo(Map.of("Fn::If", List.of("DriftCheckRepairs", "repair", "verify")));
        Matcher matcher = SUB_VARIABLE.matcher((String) sub.get(0));
        StringBuilder text = new StringBuilder();
        while (matcher.find()) {
            String name = matcher.group(1);
            String value = "Kind".equals(name) ? kind : String.valueOf(map(template.parameters().get(name), name).get("Default"));
            matcher.appendReplacement(text, Matcher.quoteReplacement(value));
        }
        matcher.appendTail(text);
        String delivered = text.toString().replace("<aws.scheduler.scheduled-time>", SCHEDULED_TIME);
        return JSON.readValue(delivered, new TypeReference<Map<String, Object>>() { });
    }

    /** metric/service/drift of every series the drift alarm's expression adds up. */
    @SuppressWarnings("unchecked")
    private Set<String> alarmedSeries() {
        Set<String> series = new HashSet<>();
        Map<String, Object> alarm = template.properties("IndexDriftAlarm");
        String expression = null;
        List<String> ids = new ArrayList<>();
        for (Map<String, Object> query : (List<Map<String, Object>>) alarm.get("Metrics")) {
            if (query.containsKey("Expression")) {
                expression = (String) query.get("Expression");
                continue;
            }
            ids.add((String) query.get("Id"));
            Map<String, Object> metric = map(map(query.get("MetricStat"), "MetricStat").get("Metric"), "Metric");
            assertThat(metric.get("Namespace")).isEqualTo("Multikey");
            Map<String, String> dimensions = new java.util.LinkedHashMap<>();
            ((List<Map<String, Object>>) metric.get("Dimensions")).forEach(d -> dimensions.put((String) d.get("Name"), (String) d.get("Value")));
            assertThat(dimensions.keySet()).containsExactly("service", "drift");
            series.add(metric.get("MetricName") + "/" + dimensions.get("service") + "/" + dimensions.get("drift"));
        }
        assertThat(expression).isNotNull();
        for (String id : ids) {
            assertThat(expression).as("the expression adds %s", id).contains("FILL(" + id + ", 0)");
        }
        return series;
    }

    private List<JsonNode> lines() throws Exception {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : output.toString(StandardCharsets.UTF_8).split("\n")) {
            if (!line.isBlank()) {
                lines.add(JSON.readTree(line));
            }
        }
        return lines;
    }
}
