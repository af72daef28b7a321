package com.multikey.templatechecks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.common.EmfMetrics;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.indexer.IndexerMetrics;
import com.multikey.reindex.JobSpec;
import com.multikey.reindex.JobStatus;
import com.multikey.reindex.PageCounts;
import com.multikey.reindex.worker.WorkerMetrics;
import com.multikey.router.RouterMetrics;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

import static com.multikey.emulator.template.SamTemplate.map;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operator's view of the stack: every {@code Multikey} metric the dashboard draws or an alarm watches is
 * one a function emits, under the {@code service} that emits it (names taken from the lines the functions'
 * metrics publishers write, not from a list kept beside them); every queue holding failures is drawn and
 * alarmed; every alarm notifies the topic.
 */
class OperationsTemplateTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final SamTemplate template = SamTemplate.ofRepository();

    @Test
    void dashboard_drawsOnlyMetricsTheFunctionsEmit_underTheirService() throws Exception {
        Set<String> emitted = emittedMetrics();
        List<String> drawn = new ArrayList<>();
        for (JsonNode widget : dashboard().path("widgets")) {
            for (JsonNode metric : widget.path("properties").path("metrics")) {
                if ("Multikey".equals(metric.get(0).asText())) {
                    assertThat(metric.get(2).asText()).as("dimension of %s", metric).isEqualTo("service");
                    Map<String, String> further = new java.util.TreeMap<>();
                    for (int i = 4; i + 1 < metric.size() && metric.get(i).isTextual(); i += 2) {
                        further.put(metric.get(i).asText(), metric.get(i + 1).asText());
                    }
                    drawn.add(series(metric.get(3).asText(), metric.get(1).asText(), further));
                }
            }
        }
        assertThat(drawn).isNotEmpty();
        assertThat(emitted).containsAll(drawn);
        assertThat(drawn).contains("stream-indexer/IndexPuts", "stream-indexer/IndexDeletes", "stream-indexer/RejectedFields",
                "stream-indexer/SkippedRecords", "router/EventsSent", "router/EventsWithoutImages", "router/EventsRefused",
                "reindex-worker/IndexDrift{drift=missing}", "reindex-worker/IndexDrift{drift=stale}",
                "reindex-worker/IndexDrift{drift=orphaned}", "reindex-worker/SegmentsLeft");
    }

    @Test
    void dashboard_drawsIteratorAgeOfBothConsumers_andEveryQueueDepth() throws Exception {
        String body = dashboard().toString();
        // the router's lines name RouterFunctionName: RouterFunction with two readers, the one consumer with one
        for (String function : List.of("StreamIndexerFunction", "RouterFunctionName")) {
            assertThat(body).contains("[\"AWS/Lambda\",\"IteratorAge\",\"FunctionName\",\"${" + function + "}\"");
        }
        Object variables = ((List<?>) map(template.properties("OperationsDashboard").get("DashboardBody"), "DashboardBody").get("Fn::Sub")).get(1);
        assertThat(map(template.deployed().applyConditions(variables, "variables"), "variables"))
                .containsEntry("RouterFunctionName", Map.of("Ref", "RouterFunction"));
        assertThat(map(template.withParameterOverrides(Map.of("StreamReaders", "one")).deployed().applyConditions(variables, "variables"), "variables"))
                .containsEntry("RouterFunctionName", Map.of("Ref", "StreamIndexerFunction"));
        for (String queue : template.resourcesOfType("AWS::SQS::Queue")) {
            assertThat(body).as("queue %s on the dashboard", queue)
                    .contains("\"ApproximateNumberOfMessagesVisible\",\"QueueName\",\"${" + queue + ".QueueName}\"");
        }
    }

    @Test
    void dashboard_withOneReader_drawsEveryQueueTheStackCreates_andNoRouterQueue() throws Exception {
        SamTemplate one = template.withParameterOverrides(Map.of("StreamReaders", "one")).deployed();

        String body = dashboard(one).toString();

        assertThat(one.resourcesOfType("AWS::SQS::Queue")).isNotEmpty().doesNotContain("RouterFailureQueue").allSatisfy(queue ->
                assertThat(body).as("queue %s on the dashboard", queue)
                        .contains("\"ApproximateNumberOfMessagesVisible\",\"QueueName\",\"${" + queue + ".QueueName}\""));
        assertThat(body).doesNotContain("RouterFailureQueue").doesNotContain("router failures");
    }

    @Test
    void everyAlarm_onAMultikeyMetric_watchesOneAFunctionEmits() throws Exception {
        Set<String> emitted = emittedMetrics();
        List<String> watched = new ArrayList<>();
        for (String alarm : template.resourcesOfType("AWS::CloudWatch::Alarm")) {
            Map<String, Object> properties = template.properties(alarm);
            List<Map<String, Object>> metrics = new ArrayList<>();
            if (properties.get("Metrics") instanceof List<?> queries) {
                for (Object query : queries) {
                    Object stat = map(query, "query").get("MetricStat");
                    if (stat != null) {
                        metrics.add(map(map(stat, "MetricStat").get("Metric"), "Metric"));
                    }
                }
            } else {
                metrics.add(properties);
            }
            for (Map<String, Object> metric : metrics) {
                if (!"Multikey".equals(metric.get("Namespace"))) {
                    continue;
                }
                Map<String, String> dimensions = new java.util.LinkedHashMap<>();
                for (Object dimension : (List<?>) metric.get("Dimensions")) {
                    dimensions.put((String) map(dimension, "dimension").get("Name"), (String) map(dimension, "dimension").get("Value"));
                }
                String service = dimensions.remove("service");
                assertThat(service).as("%s: the service dimension", alarm).isNotNull();
                String identity = series(service, (String) metric.get("MetricName"), new java.util.TreeMap<>(dimensions));
                assertThat(emitted).as(alarm).contains(identity);
                watched.add(identity);
            }
        }
        assertThat(watched).contains("stream-indexer/RefusedWrites", "router/EventsRefused", "reindex-worker/IndexDrift{drift=missing}",
                "reindex-worker/IndexDriftRepaired{drift=orphaned}");
    }

    @Test
    void everyQueue_hasAnAlarm_andEveryAlarmNotifiesTheTopic() {
        Set<String> alarmedQueues = new HashSet<>();
        for (String alarm : template.resourcesOfType("AWS::CloudWatch::Alarm")) {
            Map<String, Object> properties = template.properties(alarm);
            assertThat(properties.get("AlarmActions")).as(alarm).isEqualTo(List.of(Map.of("Ref", "AlarmTopic")));
            if ("AWS/SQS".equals(properties.get("Namespace"))) {
                alarmedQueues.add(String.valueOf(properties.get("Dimensions")));
            }
        }
        for (String queue : template.resourcesOfType("AWS::SQS::Queue")) {
            assertThat(alarmedQueues).as("alarm on %s", queue).anySatisfy(dimensions -> assertThat(dimensions).contains(queue));
        }
    }

    /** {@code service/Name}, followed by {@code {k=v, ...}} when there are further dimensions. */
    private static String series(String service, String name, Map<String, String> furtherDimensions) {
        return service + "/" + name + (furtherDimensions.isEmpty() ? "" : furtherDimensions.toString());
    }

    private JsonNode dashboard() throws Exception {
        return dashboard(template.deployed());
    }

    /**
     * The dashboard's body as a deploy with these parameters writes it: !Sub [body, {variables}], each variable whose value
     * is text (a line drawn in one StreamReaders mode only) put in; references (${Name}) left as they are.
     */
    private static JsonNode dashboard(SamTemplate deployed) throws Exception {
        Object sub = map(deployed.properties("OperationsDashboard").get("DashboardBody"), "DashboardBody").get("Fn::Sub");
        if (!(sub instanceof List<?> parts)) {
            return JSON.readTree((String) sub);
        }
        String body = (String) parts.get(0);
        for (Map.Entry<String, Object> variable : map(parts.get(1), "variables").entrySet()) {
            Object value = variable.getValue() instanceof Map<?, ?> m && m.get("Fn::Sub") instanceof String text ? text : variable.getValue();
            if (value instanceof String text) {
                body = body.replace("${" + variable.getKey() + "}", text);
            }
        }
        return JSON.readTree(body);
    }

    /** service/name of every metric the functions' publishers write, read back from the EMF lines they print. */
    static Set<String> emittedMetrics() throws Exception {
        Set<String> names = new TreeSet<>();
        names.addAll(published("stream-indexer", emf -> IndexerMetrics.emf(emf).batchProcessed(
                new IndexerMetrics.BatchSummary(1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0))));
        names.addAll(published(RouterMetrics.SERVICE, emf -> RouterMetrics.emf(emf).batchProcessed(
                new RouterMetrics.BatchSummary(1, 0, 1, 0, 0, 0, 0, 0))));
        for (JobSpec.Kind kind : JobSpec.Kind.values()) {
            names.addAll(published(WorkerMetrics.SERVICE, emf -> {
                WorkerMetrics metrics = new WorkerMetrics(emf);
                metrics.progress(PageCounts.NONE, 1);
                metrics.segmentsLeft(0);
                metrics.jobDone(new JobStatus(new JobSpec("j", kind, 1, 1, 1, 1, Optional.of("an-index")), true, 0, PageCounts.NONE, Instant.EPOCH,
                        Optional.of(Instant.EPOCH)));
            }));
        }
        return names;
    }

    private static Set<String> published(String service, Consumer<EmfMetrics> publish) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        publish.accept(new EmfMetrics("Multikey", service, new PrintStream(out, true, StandardCharsets.UTF_8), Clock.systemUTC()));
        Set<String> names = new TreeSet<>();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            JsonNode emf = JSON.readTree(line);
            for (JsonNode directive : emf.path("_aws").path("CloudWatchMetrics")) {
                assertThat(directive.path("Namespace").asText()).isEqualTo("Multikey");
                Map<String, String> further = new java.util.TreeMap<>();
                for (JsonNode dimension : directive.path("Dimensions").get(0)) {
                    if (!"service".equals(dimension.asText())) {
                        further.put(dimension.asText(), emf.path(dimension.asText()).asText());
                    }
                }
                for (JsonNode metric : directive.path("Metrics")) {
                    names.add(series(emf.path("service").asText(), metric.path("Name").asText(), further));
                }
            }
        }
        return names;
    }
}
