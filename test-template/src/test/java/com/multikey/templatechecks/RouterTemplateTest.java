package com.multikey.templatechecks;

import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateEnvironment;
import com.multikey.router.RouterMetrics;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static com.multikey.emulator.template.SamTemplate.map;
import static org.assertj.core.api.Assertions.assertThat;

/** The router's part of template.yaml that its code depends on. */
class RouterTemplateTest {

    private final SamTemplate template = SamTemplate.ofRepository();

    @Test
    void parallelizationFactor_isItsOwnParameter_withinLambdasRange() {
        for (String mapping : List.of("RouterFunctionAppTableStream", "RouterFunctionAppTableKinesisStream")) {
            assertThat(template.properties(mapping).get("ParallelizationFactor")).as(mapping).isEqualTo(Map.of("Ref", "RouterParallelizationFactor"));
        }
        Map<String, Object> parameter = map(template.parameters().get("RouterParallelizationFactor"), "parameter");
        assertThat(parameter).containsEntry("Type", "Number").containsEntry("MinValue", 1).containsEntry("MaxValue", 10)
                .containsEntry("Default", 1);
    }

    @Test
    void eventsRefused_isAlarmed_onTheNamespaceAndDimensionTheRouterPublishesItWith() {
        Map<String, Object> variables = map(map(map(map(template.root().get("Globals"), "Globals").get("Function"), "Function")
                .get("Environment"), "Environment").get("Variables"), "Variables");
        Object namespace = variables.get("METRICS_NAMESPACE");

        assertThat(template.resourcesOfType("AWS::CloudWatch::Alarm")).anySatisfy(alarm -> {
            Map<String, Object> properties = template.properties(alarm);
            assertThat(properties.get("MetricName")).isEqualTo("EventsRefused");
            assertThat(properties.get("Namespace")).isEqualTo(namespace);
            assertThat(properties.get("Dimensions")).isEqualTo(List.of(Map.of("Name", "service", "Value", RouterMetrics.SERVICE)));
            assertThat(properties.get("Statistic")).isEqualTo("Sum");
            assertThat(properties.get("Threshold")).isEqualTo(0);
            assertThat(properties.get("ComparisonOperator")).isEqualTo("GreaterThanThreshold");
            assertThat(properties.get("AlarmActions")).isEqualTo(List.of(Map.of("Ref", "AlarmTopic")));
        });
    }

    @Test
    void streamEvents_invokeTheAliasSamPublishes_withSnapStartOnByDefault() {
        Map<String, Object> function = template.properties("RouterFunction");

        // the stream's event source mappings invoke the alias AutoPublishAlias names (the version published on each deploy)
        assertThat(function.get("AutoPublishAlias")).isEqualTo("live");
        assertThat(function).doesNotContainKey("Events");
        assertThat(StreamMappings.invoking(template, "RouterFunction"))
                .containsExactlyInAnyOrder("RouterFunctionAppTableStream", "RouterFunctionAppTableKinesisStream")
                .allSatisfy(mapping -> assertThat(template.properties(mapping).get("FunctionName")).isEqualTo(Map.of("Ref", "RouterFunction.Alias")));
        // no mapping invokes a function but through its alias, so nothing reaches $LATEST instead of the snapshot
        assertThat(template.resourcesOfType("AWS::Lambda::EventSourceMapping")).allSatisfy(mapping ->
                assertThat(String.valueOf(map(template.properties(mapping).get("FunctionName"), "FunctionName").get("Ref"))).endsWith(".Alias"));
        assertThat(template.resourcesOfType("AWS::Lambda::Permission")).noneSatisfy(permission ->
                assertThat(template.properties(permission).get("FunctionName").toString()).contains("RouterFunction"));

        Object applyOn = map(function.get("SnapStart"), "SnapStart").get("ApplyOn");
        assertThat(TemplateEnvironment.resolve(applyOn, template, Map.of(), "RouterFunction.SnapStart")).isEqualTo("PublishedVersions");
    }
}
