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
        Map<String, Object> events = map(template.properties("RouterFunction").get("Events"), "Events");
        Map<String, Object> properties = map(map(events.get("AppTableStream"), "AppTableStream").get("Properties"), "Properties");

        assertThat(properties.get("ParallelizationFactor")).isEqualTo(Map.of("Ref", "RouterParallelizationFactor"));
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

        // SAM binds a function's Events to the alias AutoPublishAlias names (the version published on each deploy)
        assertThat(function.get("AutoPublishAlias")).isEqualTo("live");
        Map<String, Object> events = map(function.get("Events"), "Events");
        assertThat(events.values()).isNotEmpty().allSatisfy(event -> assertThat(map(event, "event").get("Type")).isEqualTo("DynamoDB"));
        // nothing outside the function's Events invokes it, so nothing reaches $LATEST instead of the snapshot
        assertThat(template.resourcesOfType("AWS::Lambda::EventSourceMapping")).isEmpty();
        assertThat(template.resourcesOfType("AWS::Lambda::Permission")).noneSatisfy(permission ->
                assertThat(template.properties(permission).get("FunctionName").toString()).contains("RouterFunction"));

        Object applyOn = map(function.get("SnapStart"), "SnapStart").get("ApplyOn");
        assertThat(TemplateEnvironment.resolve(applyOn, template, Map.of(), "RouterFunction.SnapStart")).isEqualTo("PublishedVersions");
    }
}
