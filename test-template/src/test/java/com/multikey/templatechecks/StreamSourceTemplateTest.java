package com.multikey.templatechecks;

import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateException;
import com.multikey.indexer.KinesisStreamIndexerHandler;
import com.multikey.indexer.StreamIndexerHandler;
import com.multikey.router.KinesisRouterHandler;
import com.multikey.router.RouterHandler;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static com.multikey.emulator.template.SamTemplate.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The parameter StreamSource: with dynamodb (the default) the indexer and the router read the table's DynamoDB stream as
 * before; with kinesis they read the table's Kinesis streaming destination (created, or given), with the order-independent
 * indexer and its item states, each role granted the Kinesis reads of that stream only (enhanced fan-out: its own
 * consumer; a customer managed key: kms:Decrypt on it), and every reference of each mode names what it creates.
 */
class StreamSourceTemplateTest {

    private static final List<String> KINESIS_READS = List.of("kinesis:DescribeStream", "kinesis:DescribeStreamSummary",
            "kinesis:GetRecords", "kinesis:GetShardIterator", "kinesis:ListShards", "kinesis:ListStreams");
    private static final String GIVEN_STREAM = "arn:aws:kinesis:us-east-1:123456789012:stream/changes";

    private final SamTemplate template = SamTemplate.ofRepository();
    private final SamTemplate dynamodb = template.deployed();
    private final SamTemplate kinesis = template.withParameterOverrides(Map.of("StreamSource", "kinesis")).deployed();
    private final SamTemplate fanOut = template.withParameterOverrides(Map.of("StreamSource", "kinesis",
            "KinesisConsumers", "enhanced-fan-out")).deployed();
    private final SamTemplate givenStream = template.withParameterOverrides(Map.of("StreamSource", "kinesis",
            "KinesisStreamArn", GIVEN_STREAM, "KinesisStreamKmsKeyArn", "arn:aws:kms:us-east-1:123456789012:key/k")).deployed();

    @Test
    void streamSource_defaultsToDynamodb_andTakesKinesis() {
        Map<String, Object> parameter = map(template.parameters().get("StreamSource"), "StreamSource");

        assertThat(parameter.get("Default")).isEqualTo("dynamodb");
        assertThat(parameter.get("AllowedValues")).isEqualTo(List.of("dynamodb", "kinesis"));
    }

    @Test
    void dynamodbSource_readsTheDynamoDbStream_asBefore() throws Exception {
        assertThat(handler(dynamodb, "StreamIndexerFunction")).isEqualTo(StreamIndexerHandler.class);
        assertThat(handler(dynamodb, "RouterFunction")).isEqualTo(RouterHandler.class);
        assertThat(stream(dynamodb, "StreamIndexerFunction").get("EventSourceArn")).isEqualTo(Map.of("Fn::GetAtt", List.of("AppTable", "StreamArn")));
        assertThat(dynamodb.resources()).doesNotContainKeys("AppTableChangesStream", "ItemStateTable",
                "StreamIndexerStreamConsumer", "RouterStreamConsumer");
        assertThat(dynamodb.properties("AppTable")).doesNotContainKey("KinesisStreamSpecification");
        for (String role : List.of("StreamIndexerRole", "RouterRole")) {
            assertThat(statements(dynamodb, role)).containsKey("ReadAppTableStream")
                    .doesNotContainKeys("ReadAppTableKinesisStream", "SubscribeWithItsConsumer", "DecryptTheKinesisStream", "ItemStates");
        }
    }

    @Test
    void kinesisSource_createsTheTablesDestination_atMicrosecondPrecision_andReadsItWithTheKinesisHandlers() throws Exception {
        assertThat(map(kinesis.properties("AppTable").get("KinesisStreamSpecification"), "spec")).isEqualTo(Map.of(
                "StreamArn", Map.of("Fn::GetAtt", List.of("AppTableChangesStream", "Arn")),
                "ApproximateCreationDateTimePrecision", "MICROSECOND"));
        assertThat(kinesis.typeOf("AppTableChangesStream")).isEqualTo("AWS::Kinesis::Stream");
        assertThat(handler(kinesis, "StreamIndexerFunction")).isEqualTo(KinesisStreamIndexerHandler.class);
        assertThat(handler(kinesis, "RouterFunction")).isEqualTo(KinesisRouterHandler.class);
        for (String function : List.of("StreamIndexerFunction", "RouterFunction")) {
            Map<String, Object> stream = stream(kinesis, function);
            assertThat(stream.get("EventSourceArn")).isEqualTo(Map.of("Fn::GetAtt", List.of("AppTableChangesStream", "Arn")));
            assertThat(stream.get("FunctionResponseTypes")).isEqualTo(List.of("ReportBatchItemFailures"));
            assertThat(stream).containsEntry("BisectBatchOnFunctionError", true).containsKey("DestinationConfig")
                    .doesNotContainKey("FilterCriteria");
        }
        assertThat(environment(kinesis, "StreamIndexerFunction")).containsEntry("ITEM_STATE_TABLE_NAME", Map.of("Ref", "ItemStateTable"));
        assertThat(map(kinesis.properties("ItemStateTable").get("TimeToLiveSpecification"), "ttl"))
                .isEqualTo(Map.of("AttributeName", "expiresAt", "Enabled", true));
    }

    @Test
    void kinesisSource_eachRole_readsThatStreamOnly_andTheIndexerItsItemStates() {
        for (String role : List.of("StreamIndexerRole", "RouterRole")) {
            Map<String, Map<String, Object>> statements = statements(kinesis, role);
            assertThat(statements).doesNotContainKeys("ReadAppTableStream", "SubscribeWithItsConsumer", "DecryptTheKinesisStream");
            assertThat(statements.get("ReadAppTableKinesisStream")).containsEntry("Action", KINESIS_READS)
                    .containsEntry("Resource", Map.of("Fn::GetAtt", List.of("AppTableChangesStream", "Arn")));
        }
        assertThat(statements(kinesis, "StreamIndexerRole").get("ItemStates"))
                .containsEntry("Action", List.of("dynamodb:BatchGetItem", "dynamodb:PutItem"))
                .containsEntry("Resource", Map.of("Fn::GetAtt", List.of("ItemStateTable", "Arn")));
        assertThat(statements(kinesis, "RouterRole")).doesNotContainKey("ItemStates");
    }

    @Test
    void kinesisSource_redriveRole_readsFailedRangesBackFromThatStreamOnly_andNothingElseOfKinesis() {
        assertThat(statements(dynamodb, "RedriveRole")).doesNotContainKeys("ReadBackAppTableKinesisStream", "DecryptTheKinesisStream");
        assertThat(statements(kinesis, "RedriveRole").get("ReadBackAppTableKinesisStream"))
                .containsEntry("Action", List.of("kinesis:GetShardIterator", "kinesis:GetRecords"))
                .containsEntry("Resource", Map.of("Fn::GetAtt", List.of("AppTableChangesStream", "Arn")));
        assertThat(statements(kinesis, "RedriveRole")).doesNotContainKey("DecryptTheKinesisStream");
        assertThat(statements(givenStream, "RedriveRole").get("ReadBackAppTableKinesisStream")).containsEntry("Resource", Map.of("Ref", "KinesisStreamArn"));
        assertThat(statements(givenStream, "RedriveRole").get("DecryptTheKinesisStream")).containsEntry("Action", "kms:Decrypt")
                .containsEntry("Resource", Map.of("Ref", "KinesisStreamKmsKeyArn"));
    }

    @Test
    void enhancedFanOut_eachMappingReadsItsOwnConsumer_andMaySubscribeWithItOnly() {
        Map<String, String> consumers = Map.of("StreamIndexerFunction", "StreamIndexerStreamConsumer", "RouterFunction", "RouterStreamConsumer");
        Map<String, String> roles = Map.of("StreamIndexerFunction", "StreamIndexerRole", "RouterFunction", "RouterRole");
        consumers.forEach((function, consumer) -> {
            assertThat(fanOut.typeOf(consumer)).isEqualTo("AWS::Kinesis::StreamConsumer");
            assertThat(stream(fanOut, function).get("EventSourceArn")).isEqualTo(Map.of("Fn::GetAtt", List.of(consumer, "ConsumerARN")));
            assertThat(statements(fanOut, roles.get(function)).get("SubscribeWithItsConsumer"))
                    .containsEntry("Action", List.of("kinesis:SubscribeToShard", "kinesis:DescribeStreamConsumer"))
                    .containsEntry("Resource", Map.of("Fn::GetAtt", List.of(consumer, "ConsumerARN")));
        });
    }

    @Test
    void kinesisSource_alarmsOnTheRecordAgeOfTheStreamItCreates_asItsConsumersReadIt() {
        assertThat(dynamodb.resources()).doesNotContainKey("KinesisRecordAgeAlarm");
        assertThat(givenStream.resources()).as("a given stream: the functions' IteratorAge alarms watch it").doesNotContainKey("KinesisRecordAgeAlarm");
        assertThat(kinesis.properties("KinesisRecordAgeAlarm")).containsEntry("Namespace", "AWS/Kinesis")
                .containsEntry("MetricName", "GetRecords.IteratorAgeMilliseconds").containsEntry("Statistic", "Maximum")
                .containsEntry("Dimensions", List.of(Map.of("Name", "StreamName", "Value", Map.of("Ref", "AppTableChangesStream"))))
                .containsEntry("AlarmActions", List.of(Map.of("Ref", "AlarmTopic")));
        assertThat(fanOut.properties("KinesisRecordAgeAlarm")).containsEntry("MetricName", "SubscribeToShardEvent.MillisBehindLatest");
    }

    @Test
    void givenStream_isReadAndMadeTheDestination_withKmsDecryptOnItsKey() {
        assertThat(givenStream.resources()).doesNotContainKey("AppTableChangesStream");
        assertThat(map(givenStream.properties("AppTable").get("KinesisStreamSpecification"), "spec"))
                .containsEntry("StreamArn", Map.of("Ref", "KinesisStreamArn"));
        for (String role : List.of("StreamIndexerRole", "RouterRole")) {
            assertThat(statements(givenStream, role).get("ReadAppTableKinesisStream")).containsEntry("Resource", Map.of("Ref", "KinesisStreamArn"));
            assertThat(statements(givenStream, role).get("DecryptTheKinesisStream")).containsEntry("Action", "kms:Decrypt")
                    .containsEntry("Resource", Map.of("Ref", "KinesisStreamKmsKeyArn"));
        }
    }

    @Test
    void kinesisSource_withOneReader_orAnExistingTableWithoutItsStream_isRefused() {
        assertThatThrownBy(() -> template.withParameterOverrides(Map.of("StreamSource", "kinesis", "StreamReaders", "one")).checkRules())
                .isInstanceOf(TemplateException.class).hasMessageContaining("StreamReaders two");
        assertThatThrownBy(() -> template.withParameterOverrides(Map.of("StreamSource", "kinesis", "ExistingTableName", "Issues",
                "ExistingTableStreamArn", "arn:aws:dynamodb:us-east-1:123456789012:table/Issues/stream/2026")).checkRules())
                .isInstanceOf(TemplateException.class).hasMessageContaining("KinesisStreamArn");
    }

    @Test
    void kinesisSource_withOneReader_isRefusedSayingWhyTwoReadersAreRightThere() {
        assertThatThrownBy(() -> template.withParameterOverrides(Map.of("StreamSource", "kinesis", "StreamReaders", "one")).checkRules())
                .isInstanceOf(TemplateException.class).hasMessageContaining("KinesisSourceHasTwoReaders")
                .hasMessageContaining("no two-readers-a-shard limit");
    }

    @Test
    void everyMode_everyReferenceNamesAResourceOrParameterItHas() {
        for (SamTemplate deployed : List.of(dynamodb, kinesis, fanOut, givenStream)) {
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
                Set<String> variables = parts.size() > 1 && parts.get(1) instanceof Map<?, ?> vars
                        ? new TreeSet<>(vars.keySet().stream().map(String::valueOf).toList()) : Set.of();
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

    private static Class<?> handler(SamTemplate deployed, String function) throws ClassNotFoundException {
        String handler = (String) deployed.properties(function).get("Handler");
        return Class.forName(handler.substring(0, handler.indexOf("::")));
    }

    private static Map<String, Object> stream(SamTemplate deployed, String function) {
        return StreamMappings.of(deployed, function);
    }

    private static Map<String, Object> environment(SamTemplate deployed, String function) {
        return map(map(deployed.properties(function).get("Environment"), "Environment").get("Variables"), "Variables");
    }

    private static Map<String, Map<String, Object>> statements(SamTemplate deployed, String role) {
        Map<String, Map<String, Object>> bySid = new LinkedHashMap<>();
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
