package com.multikey.router;

import com.multikey.local.runtime.SamTemplate;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static com.multikey.local.runtime.SamTemplate.map;
import static org.assertj.core.api.Assertions.assertThat;

/** The router's part of template.yaml that its code depends on. */
class RouterTemplateTest {

    private final SamTemplate template = SamTemplate.ofRepository();

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
}
