package com.multikey.templatechecks;

import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateEnvironment;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static com.multikey.emulator.template.SamTemplate.map;
import static org.assertj.core.api.Assertions.assertThat;

/** The query function's part of template.yaml that its priming depends on (docs/decisions/0018). */
class QueryApiTemplateTest {

    private final SamTemplate template = SamTemplate.ofRepository();

    @Test
    void theReadApi_invokesTheAliasSamPublishes_withSnapStartOnByDefault() {
        Map<String, Object> function = template.properties("QueryFunction");

        // when
        Object applyOn = map(function.get("SnapStart"), "SnapStart").get("ApplyOn");

        // then
        assertThat(function.get("AutoPublishAlias")).isEqualTo("live");
        assertThat(TemplateEnvironment.resolve(applyOn, template, Map.of(), "QueryFunction.SnapStart")).isEqualTo("PublishedVersions");
        assertThat(template.properties("QueryHttpApiIntegration").get("IntegrationUri")).isEqualTo(Map.of("Ref", "QueryFunction.Alias"));
        // whatever invokes the function names the alias, so nothing reaches $LATEST instead of the snapshot
        assertThat(template.resourcesOfType("AWS::Lambda::Permission")).filteredOn(permission ->
                template.properties(permission).get("FunctionName").toString().contains("QueryFunction"))
                .isNotEmpty()
                .allSatisfy(permission -> assertThat(template.properties(permission).get("FunctionName"))
                        .isEqualTo(Map.of("Ref", "QueryFunction.Alias")));
        assertThat(template.resourcesOfType("AWS::ApiGatewayV2::Integration")).allSatisfy(integration ->
                assertThat(template.properties(integration).get("IntegrationUri").toString()).doesNotContain("QueryFunction.Arn")
                        .doesNotContain("[QueryFunction, Arn]"));
        assertThat(function).doesNotContainKey("Events");
    }
}
