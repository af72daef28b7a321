package com.multikey.templatechecks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateEnvironment;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static com.multikey.emulator.template.SamTemplate.map;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each stream source has mappings of its own, created under its condition, with only the properties Lambda takes for
 * that source (AWS::Lambda::EventSourceMapping, CreateEventSourceMapping): {@code AT_TIMESTAMP} and
 * {@code StartingPositionTimestamp} are for Kinesis only, and a filter's patterns match what the source's records hold
 * (a DynamoDB stream record's {@code dynamodb}, a Kinesis record's {@code data}).
 */
class StreamMappingsPerSourceTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The properties CloudFormation documents for an event source mapping on a DynamoDB stream or a Kinesis stream. */
    private static final Set<String> STREAM_PROPERTIES = Set.of("BatchSize", "BisectBatchOnFunctionError", "DestinationConfig", "Enabled",
            "EventSourceArn", "FilterCriteria", "FunctionName", "FunctionResponseTypes", "KmsKeyArn", "MaximumBatchingWindowInSeconds",
            "MaximumRecordAgeInSeconds", "MaximumRetryAttempts", "MetricsConfig", "ParallelizationFactor", "StartingPosition",
            "StartingPositionTimestamp", "Tags", "TumblingWindowInSeconds");

    private final SamTemplate template = SamTemplate.ofRepository();

    @Test
    void kinesisSource_deploysTheKinesisMappingsOnly_eachOnItsStreamOrConsumer() {
        SamTemplate shared = template.withParameterOverrides(Map.of("StreamSource", "kinesis")).deployed();
        SamTemplate fanOut = template.withParameterOverrides(Map.of("StreamSource", "kinesis", "KinesisConsumers", "enhanced-fan-out")).deployed();

        assertThat(shared.resourcesOfType(StreamMappings.TYPE))
                .containsExactlyInAnyOrder("StreamIndexerFunctionAppTableKinesisStream", "RouterFunctionAppTableKinesisStream")
                .allSatisfy(mapping -> assertThat(shared.properties(mapping).get("EventSourceArn"))
                        .isEqualTo(Map.of("Fn::GetAtt", List.of("AppTableChangesStream", "Arn"))));
        assertThat(fanOut.properties("StreamIndexerFunctionAppTableKinesisStream").get("EventSourceArn"))
                .isEqualTo(Map.of("Fn::GetAtt", List.of("StreamIndexerStreamConsumer", "ConsumerARN")));
        assertThat(fanOut.properties("RouterFunctionAppTableKinesisStream").get("EventSourceArn"))
                .isEqualTo(Map.of("Fn::GetAtt", List.of("RouterStreamConsumer", "ConsumerARN")));
    }

    @Test
    void dynamoDbSource_deploysTheDynamoDbStreamsMappingsOnly() {
        for (Map<String, String> parameters : List.of(Map.<String, String>of(), Map.of("StreamReaders", "one"))) {
            SamTemplate deployed = template.withParameterOverrides(parameters).deployed();

            assertThat(deployed.resourcesOfType(StreamMappings.TYPE)).as("%s", parameters).isNotEmpty().allSatisfy(mapping ->
                    assertThat(deployed.properties(mapping).get("EventSourceArn")).isEqualTo(Map.of("Fn::GetAtt", List.of("AppTable", "StreamArn"))));
        }
    }

    @Test
    void everyMapping_hasACondition_andOnlyTheStreamPropertiesOfItsSource() {
        List<String> mappings = template.resourcesOfType(StreamMappings.TYPE);

        assertThat(mappings).hasSize(4).allSatisfy(mapping -> {
            Map<String, Object> resource = template.resource(mapping);
            Map<String, Object> properties = template.properties(mapping);
            boolean kinesis = mapping.endsWith("KinesisStream");
            assertThat(template.conditions()).as(mapping).containsKey((String) resource.get("Condition"));
            assertThat(STREAM_PROPERTIES).as(mapping).containsAll(properties.keySet());
            assertThat(properties.get("StartingPosition")).as(mapping).isIn(kinesis ? List.of("TRIM_HORIZON", "LATEST", "AT_TIMESTAMP")
                    : List.of("TRIM_HORIZON", "LATEST"));
            if (!kinesis) {
                assertThat(properties).as("AT_TIMESTAMP is Kinesis's only").doesNotContainKey("StartingPositionTimestamp");
            }
        });
    }

    @Test
    void filters_matchWhatTheirSourcesRecordsHold() throws Exception {
        for (SamTemplate deployed : List.of(template.deployed(), template.withParameterOverrides(Map.of("StreamSource", "kinesis")).deployed())) {
            for (String mapping : deployed.resourcesOfType(StreamMappings.TYPE)) {
                if (!(deployed.properties(mapping).get("FilterCriteria") instanceof Map<?, ?> criteria)) {
                    continue;
                }
                String record = mapping.endsWith("KinesisStream") ? "data" : "dynamodb";
                for (Object filter : (List<?>) criteria.get("Filters")) {
                    String pattern = TemplateEnvironment.resolve(map(filter, "filter").get("Pattern"), deployed, Map.of(), mapping);
                    JsonNode parsed = JSON.readTree(pattern);
                    assertThat(parsed.fieldNames()).as("%s: %s", mapping, pattern).toIterable().containsOnly(record);
                }
            }
        }
    }
}
