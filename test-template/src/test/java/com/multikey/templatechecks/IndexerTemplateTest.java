package com.multikey.templatechecks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateEnvironment;
import com.multikey.indexer.IndexerMetrics;
import com.multikey.indexer.StreamIndexerHandler;
import com.multikey.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import software.amazon.event.ruler.Machine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static com.multikey.emulator.template.SamTemplate.map;
import static org.assertj.core.api.Assertions.assertThat;

/** The indexer's part of template.yaml: tables, event source mapping, filter, permissions and alarms. */
class IndexerTemplateTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final SamTemplate template = SamTemplate.ofRepository();

    /** The stream's event source mapping as a deploy with the default parameters makes it (AppTable created, its !If resolved). */
    private Map<String, Object> streamEvent() {
        assertThat(StreamMappings.invoking(template.deployed(), "StreamIndexerFunction")).containsExactly("StreamIndexerFunctionAppTableStream");
        return StreamMappings.of(template.deployed(), "StreamIndexerFunction");
    }

    @Test
    void eventSourceMapping_reportsPartialFailures_bisects_boundsRetries_andKeepsWhatFails() {
        Map<String, Object> source = streamEvent();

        assertThat(source.get("EventSourceArn")).isEqualTo(Map.of("Fn::GetAtt", List.of("AppTable", "StreamArn")));
        assertThat(source.get("FunctionResponseTypes")).isEqualTo(List.of("ReportBatchItemFailures"));
        assertThat(source.get("BisectBatchOnFunctionError")).isEqualTo(true);
        assertThat(source.get("StartingPosition")).isEqualTo("TRIM_HORIZON");
        assertThat(parameterDefault(source.get("MaximumRetryAttempts"))).isBetween(1, 10000);
        assertThat(parameterDefault(source.get("MaximumRecordAgeInSeconds"))).isBetween(60, 604800);
        Map<String, Object> onFailure = map(map(source.get("DestinationConfig"), "DestinationConfig").get("OnFailure"), "OnFailure");
        // an SQS queue (CloudFormation's OnFailure has its Destination only; SAM's Type SQS was SAM's own)
        assertThat(onFailure).containsOnlyKeys("Destination");
        @SuppressWarnings("unchecked")
        List<String> queue = (List<String>) map(onFailure.get("Destination"), "Destination").get("Fn::GetAtt");
        assertThat(template.typeOf(queue.get(0))).isEqualTo("AWS::SQS::Queue");
    }

    @Test
    void parallelizationFactor_isItsOwnParameter_withinLambdasRange() {
        Object factor = streamEvent().get("ParallelizationFactor");

        assertThat(factor).isEqualTo(Map.of("Ref", "StreamIndexerParallelizationFactor"));
        Map<String, Object> parameter = map(template.parameters().get("StreamIndexerParallelizationFactor"), "parameter");
        assertThat(parameter).containsEntry("Type", "Number").containsEntry("MinValue", 1).containsEntry("MaxValue", 10);
        assertThat(parameterDefault(factor)).isEqualTo(2);
    }

    @Test
    void filterCriteria_passesIssueRecordsOnly_checkedWithEventRuler() throws Exception {
        Machine machine = new Machine();
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> filters = (List<Map<String, Object>>) map(streamEvent().get("FilterCriteria"), "FilterCriteria").get("Filters");
        for (Map<String, Object> filter : filters) {
            machine.addRule("indexer", TemplateEnvironment.resolve(filter.get("Pattern"), template, java.util.Map.of(), "Pattern"));
        }

        List<JsonNode> records = new ArrayList<>(Fixtures.externalStreamRecords());
        records.add(record("issue#020e"));
        records.add(record("issue#"));
        records.add(record("layer#us-east-1#requests#12"));
        records.add(record("issues#1"));
        records.add(record("project#35e9"));
        records.add(record("Issue#1"));

        int issues = 0;
        for (JsonNode record : records) {
            String id = record.path("dynamodb").path("Keys").path("id").path("S").asText(null);
            boolean isIssue = id != null && id.startsWith("issue#");
            issues += isIssue ? 1 : 0;
            assertThat(!machine.rulesForJSONEvent(record.toString()).isEmpty()).as("%s", record.path("dynamodb").path("Keys"))
                    .isEqualTo(isIssue);
        }
        assertThat(issues).isEqualTo(2);
        assertThat(records).hasSizeGreaterThan(30);
    }

    @Test
    void tables_matchTheDataModel() {
        Map<String, Object> app = template.properties("AppTable");
        assertThat(app.get("KeySchema")).isEqualTo(List.of(Map.of("AttributeName", "id", "KeyType", "HASH")));
        assertThat(map(app.get("StreamSpecification"), "s").get("StreamViewType")).isEqualTo("NEW_AND_OLD_IMAGES");
        assertThat(app.get("TimeToLiveSpecification")).isEqualTo(Map.of("AttributeName", "expiresAt", "Enabled", true));
        assertThat(app.get("GlobalSecondaryIndexes").toString()).contains("IndexName=ByProject",
                "{AttributeName=project, KeyType=HASH}", "{AttributeName=num, KeyType=RANGE}");
        Map<String, Object> index = template.properties("IssueAttribIndexTable");
        assertThat(index.get("KeySchema")).isEqualTo(List.of(Map.of("AttributeName", "attribId", "KeyType", "HASH"),
                Map.of("AttributeName", "sortKey", "KeyType", "RANGE")));
        for (Map<String, Object> table : List.of(app, index)) {
            assertThat(table.get("BillingMode")).isEqualTo("PAY_PER_REQUEST");
            assertThat(table.get("PointInTimeRecoverySpecification")).isEqualTo(Map.of("PointInTimeRecoveryEnabled", true));
            assertThat(table.get("SSESpecification")).isEqualTo(Map.of("SSEEnabled", true));
        }
    }

    @Test
    void role_readsOnlyTheAppStream_andWritesOnlyTheIndexTable() {
        @SuppressWarnings("unchecked")
        // the default StreamSource dynamodb; StreamSourceTemplateTest checks the Kinesis source's statements
        List<Map<String, Object>> policies = (List<Map<String, Object>>) template.deployed().properties("StreamIndexerRole").get("Policies");
        List<Map<String, Object>> statements = new ArrayList<>();
        for (Map<String, Object> policy : policies) {
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> s = (List<Map<String, Object>>) map(policy.get("PolicyDocument"), "doc").get("Statement");
            statements.addAll(s);
        }
        assertThat(statements).allSatisfy(statement -> {
            assertThat(statement.get("Resource")).isNotEqualTo("*");
            assertThat(String.valueOf(statement.get("Action"))).doesNotContain("*");
        });
        Map<String, Object> write = statements.stream().filter(s -> "WriteIndexTable".equals(s.get("Sid"))).findFirst().orElseThrow();
        assertThat(write.get("Resource")).isEqualTo(Map.of("Fn::GetAtt", List.of("IssueAttribIndexTable", "Arn")));
        assertThat(statements).filteredOn(s -> String.valueOf(s.get("Action")).contains("dynamodb:"))
                .extracting(s -> s.get("Sid")).containsExactlyInAnyOrder("ReadAppTableStream", "WriteIndexTable");
        assertThat(template.properties("StreamIndexerFunction").get("Role"))
                .isEqualTo(Map.of("Fn::GetAtt", List.of("StreamIndexerRole", "Arn")));
    }

    @Test
    void alarms_watchTheFailureQueue_theIteratorAge_andErrors() {
        List<String> alarms = template.resourcesOfType("AWS::CloudWatch::Alarm");
        List<String> watched = alarms.stream().map(a -> template.properties(a).get("MetricName") + " "
                + template.properties(a).get("Dimensions")).toList();

        assertThat(watched).anySatisfy(w -> assertThat(w).startsWith("ApproximateNumberOfMessagesVisible").contains("StreamIndexerFailureQueue"));
        assertThat(watched).anySatisfy(w -> assertThat(w).startsWith("IteratorAge").contains("StreamIndexerFunction"));
        assertThat(watched).anySatisfy(w -> assertThat(w).startsWith("Errors").contains("StreamIndexerFunction"));
    }

    @Test
    void refusedWritesAlarm_watchesAMetricTheIndexerEmits_inItsNamespaceAndDimension() throws Exception {
        Map<String, Object> alarm = template.properties("StreamIndexerRefusedWritesAlarm");
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        IndexerMetrics.emf(new com.multikey.common.EmfMetrics("Multikey", "stream-indexer",
                new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8), java.time.Clock.systemUTC()))
                .batchProcessed(new IndexerMetrics.BatchSummary(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0));
        com.fasterxml.jackson.databind.JsonNode emitted = JSON.readTree(out.toString(java.nio.charset.StandardCharsets.UTF_8));

        assertThat(emitted.get("RefusedWrites").asInt()).isEqualTo(1);
        assertThat(alarm.get("MetricName")).isEqualTo("RefusedWrites");
        Map<String, Object> globals = map(map(map(template.root().get("Globals"), "Globals").get("Function"), "Function")
                .get("Environment"), "Environment");
        assertThat(alarm.get("Namespace")).isEqualTo(map(globals.get("Variables"), "Variables").get("METRICS_NAMESPACE"))
                .isEqualTo(emitted.get("_aws").get("CloudWatchMetrics").get(0).get("Namespace").asText());
        assertThat(alarm.get("Dimensions")).isEqualTo(List.of(Map.of("Name", "service", "Value", emitted.get("service").asText())));
        assertThat(alarm.get("AlarmActions")).isEqualTo(List.of(Map.of("Ref", "AlarmTopic")));
    }

    @Test
    void handler_namesTheIndexersHandlerClass() throws Exception {
        // the default StreamReaders two; StreamReadersTemplateTest checks the one-reader mode's handler
        String handler = (String) template.deployed().properties("StreamIndexerFunction").get("Handler");

        assertThat(Class.forName(handler.substring(0, handler.indexOf("::")))).isEqualTo(StreamIndexerHandler.class);
        assertThat(template.properties("StreamIndexerFunction").get("CodeUri")).isEqualTo("stream-indexer/target/stream-indexer.jar");
    }

    private int parameterDefault(Object value) {
        String name = (String) map(value, "ref").get("Ref");
        Map<String, Object> parameter = map(template.parameters().get(name), name);
        return ((Number) parameter.get("Default")).intValue();
    }

    private static ObjectNode record(String id) {
        ObjectNode record = JSON.createObjectNode();
        record.put("eventName", "INSERT");
        record.putObject("dynamodb").putObject("Keys").putObject("id").put("S", id);
        return record;
    }

    @Test
    void streamEvents_invokeTheAliasSamPublishes_withSnapStartOnByDefault() {
        Map<String, Object> function = template.properties("StreamIndexerFunction");

        // the stream's event source mappings invoke the alias AutoPublishAlias names (the version published on each deploy)
        assertThat(function.get("AutoPublishAlias")).isEqualTo("live");
        assertThat(function).doesNotContainKey("Events");
        List<String> mappings = StreamMappings.invoking(template, "StreamIndexerFunction");
        assertThat(mappings).containsExactlyInAnyOrder("StreamIndexerFunctionAppTableStream", "StreamIndexerFunctionAppTableKinesisStream")
                .allSatisfy(mapping -> assertThat(template.properties(mapping).get("FunctionName"))
                        .isEqualTo(Map.of("Ref", "StreamIndexerFunction.Alias")));
        // no mapping invokes a function but through its alias, so nothing reaches $LATEST instead of the snapshot
        assertThat(template.resourcesOfType("AWS::Lambda::EventSourceMapping")).allSatisfy(mapping ->
                assertThat(String.valueOf(map(template.properties(mapping).get("FunctionName"), "FunctionName").get("Ref"))).endsWith(".Alias"));
        assertThat(template.resourcesOfType("AWS::Lambda::Permission")).noneSatisfy(permission ->
                assertThat(template.properties(permission).get("FunctionName").toString()).contains("StreamIndexerFunction"));

        Object applyOn = map(function.get("SnapStart"), "SnapStart").get("ApplyOn");
        assertThat(TemplateEnvironment.resolve(applyOn, template, Map.of(), "StreamIndexerFunction.SnapStart")).isEqualTo("PublishedVersions");
    }
}
