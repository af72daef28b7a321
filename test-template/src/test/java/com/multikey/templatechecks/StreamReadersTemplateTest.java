package com.multikey.templatechecks;

import com.multikey.emulator.template.SamTemplate;
import com.multikey.indexer.StreamConsumerHandler;
import com.multikey.indexer.StreamIndexerHandler;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static com.multikey.emulator.template.SamTemplate.map;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The parameter StreamReaders: with two (the default) the indexer and the router each read the stream, with one a single
 * consumer does both jobs; each mode's Conditions leave exactly its own mappings, roles, tables and alarms, and every
 * reference of the deployed template names a resource it creates.
 */
class StreamReadersTemplateTest {

    private final SamTemplate template = SamTemplate.ofRepository();
    private final SamTemplate two = template.deployed();
    private final SamTemplate one = template.withParameterOverrides(Map.of("StreamReaders", "one")).deployed();

    @Test
    void streamReaders_defaultsToTwo_andTakesTwoOrOne() {
        Map<String, Object> parameter = map(template.parameters().get("StreamReaders"), "StreamReaders");

        assertThat(parameter.get("Default")).isEqualTo("two");
        assertThat(parameter.get("AllowedValues")).isEqualTo(List.of("two", "one"));
        assertThat(template.conditions()).containsEntry("TwoStreamReaders", true).containsEntry("OneStreamReader", false);
        assertThat(template.withParameterOverrides(Map.of("StreamReaders", "one")).conditions())
                .containsEntry("TwoStreamReaders", false).containsEntry("OneStreamReader", true);
    }

    @Test
    void twoReaders_theIndexerAndTheRouterReadTheStream_asBefore() throws Exception {
        assertThat(streamReaders(two)).containsExactly("RouterFunction", "StreamIndexerFunction");
        assertThat(handlerClass(two)).isEqualTo(StreamIndexerHandler.class);
        assertThat(two.resources()).containsKeys("RouterRole", "RouterIteratorAgeAlarm", "RouterErrorsAlarm")
                .doesNotContainKey("StreamCheckpointsTable");
        assertThat(stream(two, "StreamIndexerFunction")).containsKey("FilterCriteria");
        assertThat(environment(two)).doesNotContainKeys("STREAM_CHECKPOINTS_TABLE", "EVENT_BUS_NAME");
        assertThat(statementIds(two)).doesNotContain("PutEventsOnTheAppBus", "JobCheckpoints");
    }

    @Test
    void oneReader_oneConsumerReadsTheStream_andDoesBothJobs() throws Exception {
        assertThat(streamReaders(one)).containsExactly("StreamIndexerFunction");
        assertThat(handlerClass(one)).isEqualTo(StreamConsumerHandler.class);
        assertThat(one.resources()).doesNotContainKeys("RouterFunction", "RouterRole", "RouterIteratorAgeAlarm", "RouterErrorsAlarm")
                .containsKey("StreamCheckpointsTable");
        Map<String, Object> stream = stream(one, "StreamIndexerFunction");
        assertThat(stream).as("every record reaches the consumer: its route job needs them all").doesNotContainKey("FilterCriteria");
        assertThat(stream.get("ParallelizationFactor")).isEqualTo(Map.of("Ref", "RouterParallelizationFactor"));
        assertThat(environment(one)).containsKeys("STREAM_CHECKPOINTS_TABLE", "EVENT_BUS_NAME", "EVENT_SOURCE", "TABLE_ARN",
                "INCLUDE_IMAGES", "MAX_ENTRY_BYTES", "INDEX_TABLE_NAME");
        assertThat(((Map<?, ?>) map(one.resource("StreamCheckpointsTable"), "table").get("Properties")).get("TimeToLiveSpecification"))
                .isEqualTo(Map.of("AttributeName", "expiresAt", "Enabled", true));
    }

    @Test
    void oneReader_createsNoRouterFailureQueue_norItsAlarmOrOutput_andRedriveRoutesThroughTheConsumer() {
        assertThat(two.resources()).containsKeys("RouterFailureQueue", "RouterFailureQueueAlarm");
        assertThat(map(two.root().get("Outputs"), "Outputs")).containsKey("RouterFailureQueueUrl");
        assertThat(one.resources()).doesNotContainKeys("RouterFailureQueue", "RouterFailureQueueAlarm");
        assertThat(map(one.root().get("Outputs"), "Outputs")).doesNotContainKey("RouterFailureQueueUrl");

        Map<String, Object> redrive = map(map(one.properties("RedriveFunction").get("Environment"), "Environment").get("Variables"), "Variables");
        assertThat(redrive).doesNotContainKeys("ROUTER_FAILURE_QUEUE", "ROUTER_FUNCTION_NAME")
                .containsEntry("STREAM_CHECKPOINTS_TABLE", Map.of("Ref", "StreamCheckpointsTable"))
                .containsEntry("STREAM_CONSUMER_FUNCTION_NAME", Map.of("Ref", "StreamIndexerFunction"));
        Map<String, Object> twoRedrive = map(map(two.properties("RedriveFunction").get("Environment"), "Environment").get("Variables"), "Variables");
        assertThat(twoRedrive).containsKeys("ROUTER_FAILURE_QUEUE", "ROUTER_FUNCTION_NAME")
                .doesNotContainKeys("STREAM_CHECKPOINTS_TABLE", "STREAM_CONSUMER_FUNCTION_NAME");
    }

    @Test
    void oneReader_redrivesRole_readsAndWritesTheCheckpoints_andInvokesTheConsumer() {
        Map<String, Map<String, Object>> statements = statements(one, "RedriveRole");

        assertThat(statements.get("ReinvokeFunctions").get("Resource")).isEqualTo(List.of(
                Map.of("Fn::GetAtt", List.of("StreamIndexerFunction", "Arn")), Map.of("Fn::GetAtt", List.of("DeleteLayerFunction", "Arn"))));
        assertThat(statements.get("WorkThroughFailureQueues").get("Resource")).isEqualTo(List.of(
                Map.of("Fn::GetAtt", List.of("StreamIndexerFailureQueue", "Arn")), Map.of("Fn::GetAtt", List.of("DeleteLayerDeadLetterQueue", "Arn"))));
        assertThat(statements.get("ConsumerCheckpoints")).containsEntry("Action", List.of("dynamodb:GetItem", "dynamodb:PutItem"))
                .containsEntry("Resource", Map.of("Fn::GetAtt", List.of("StreamCheckpointsTable", "Arn")));
        assertThat(statements(two, "RedriveRole")).doesNotContainKey("ConsumerCheckpoints");
    }

    @Test
    void oneReader_theConsumersRole_mayPutEventsOnTheBusAndReadAndWriteItsCheckpointsOnly() {
        Map<String, Map<String, Object>> statements = statements(one);

        assertThat(statements.get("PutEventsOnTheAppBus")).containsEntry("Action", "events:PutEvents")
                .containsEntry("Resource", Map.of("Fn::GetAtt", List.of("AppEventBus", "Arn")));
        assertThat(statements.get("JobCheckpoints")).containsEntry("Action", List.of("dynamodb:GetItem", "dynamodb:PutItem"))
                .containsEntry("Resource", Map.of("Fn::GetAtt", List.of("StreamCheckpointsTable", "Arn")));
    }

    @Test
    void bothModes_everyReferenceNamesAResourceTheModeCreates() {
        for (SamTemplate deployed : List.of(two, one)) {
            Set<String> names = new TreeSet<>(deployed.resources().keySet());
            names.addAll(deployed.parameters().keySet());
            List<String> references = new ArrayList<>();
            collect(deployed.resources(), references);
            collect(deployed.root().get("Outputs"), references);
            assertThat(references).allSatisfy(name -> assertThat(name.startsWith("AWS::") || names.contains(name))
                    .as("reference %s", name).isTrue());
        }
    }

    private static void collect(Object node, List<String> references) {
        if (node instanceof Map<?, ?> map) {
            if (map.size() == 1 && map.get("Ref") instanceof String ref) {
                references.add(ref.contains(".") ? ref.substring(0, ref.indexOf('.')) : ref);
                return;
            }
            if (map.size() == 1 && map.get("Fn::GetAtt") instanceof List<?> parts) {
                references.add(String.valueOf(parts.get(0)));
                return;
            }
            if (map.size() == 1 && map.get("Fn::Sub") instanceof String text) {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\$\\{([A-Za-z0-9]+)[.}]").matcher(text);
                while (m.find()) {
                    references.add(m.group(1));
                }
                return;
            }
            if (map.size() == 1 && map.get("Fn::Sub") instanceof List<?> parts) {
                // variables of the Sub's own map are names too
                Set<String> variables = parts.size() > 1 && parts.get(1) instanceof Map<?, ?> vars ? new TreeSet<>(vars.keySet().stream().map(String::valueOf).toList()) : Set.of();
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\$\\{([A-Za-z0-9]+)[.}]").matcher(String.valueOf(parts.get(0)));
                while (m.find()) {
                    if (!variables.contains(m.group(1))) {
                        references.add(m.group(1));
                    }
                }
                if (parts.size() > 1) {
                    collect(parts.get(1), references);
                }
                return;
            }
            map.values().forEach(value -> collect(value, references));
        } else if (node instanceof List<?> list) {
            list.forEach(value -> collect(value, references));
        }
    }

    /** The functions an event source mapping on the DynamoDB stream invokes, sorted. */
    private static List<String> streamReaders(SamTemplate deployed) {
        return deployed.resourcesOfType(StreamMappings.TYPE).stream()
                .filter(mapping -> Map.of("Fn::GetAtt", List.of("AppTable", "StreamArn")).equals(deployed.properties(mapping).get("EventSourceArn")))
                .map(mapping -> StreamMappings.functionOf(deployed.properties(mapping)))
                .sorted().toList();
    }

    private static Map<String, Object> stream(SamTemplate deployed, String function) {
        return StreamMappings.of(deployed, function);
    }

    private static Class<?> handlerClass(SamTemplate deployed) throws ClassNotFoundException {
        String handler = (String) deployed.properties("StreamIndexerFunction").get("Handler");
        return Class.forName(handler.substring(0, handler.indexOf("::")));
    }

    private static Map<String, Object> environment(SamTemplate deployed) {
        return map(map(deployed.properties("StreamIndexerFunction").get("Environment"), "Environment").get("Variables"), "Variables");
    }

    private static Set<String> statementIds(SamTemplate deployed) {
        return statements(deployed).keySet();
    }

    private static Map<String, Map<String, Object>> statements(SamTemplate deployed) {
        return statements(deployed, "StreamIndexerRole");
    }

    private static Map<String, Map<String, Object>> statements(SamTemplate deployed, String role) {
        Map<String, Map<String, Object>> bySid = new java.util.LinkedHashMap<>();
        for (Object policy : (List<?>) deployed.properties(role).get("Policies")) {
            Map<String, Object> document = map(map(policy, "policy").get("PolicyDocument"), "PolicyDocument");
            for (Object statement : (List<?>) document.get("Statement")) {
                Map<String, Object> s = map(statement, "statement");
                bySid.put((String) s.get("Sid"), s);
            }
        }
        return bySid;
    }
}
