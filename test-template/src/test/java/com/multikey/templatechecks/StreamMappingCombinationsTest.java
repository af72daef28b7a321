package com.multikey.templatechecks;

import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateException;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static com.multikey.emulator.template.SamTemplate.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every combination of StreamSource x StreamReaders x KinesisConsumers x ExistingTableName: the stack deploys exactly
 * one mapping a stream consumer it deploys (none for a function it does not), each on a source its role may read (a
 * statement of the role names the mapping's source), and a combination the rules refuse is refused.
 */
class StreamMappingCombinationsTest {

    private static final String EXISTING_STREAM = "arn:aws:dynamodb:us-east-1:123456789012:table/Existing/stream/2026-01-01T00:00:00.000";
    private static final String EXISTING_KINESIS = "arn:aws:kinesis:us-east-1:123456789012:stream/existing-changes";

    private final SamTemplate template = SamTemplate.ofRepository();

    @Test
    void everyCombination_deploysOneMappingAConsumer_onASourceItsRoleReads() {
        int checked = 0;
        for (String source : List.of("dynamodb", "kinesis")) {
            for (String readers : List.of("two", "one")) {
                for (String consumers : List.of("shared", "enhanced-fan-out")) {
                    for (boolean existing : List.of(false, true)) {
                        Map<String, String> parameters = new HashMap<>(Map.of("StreamSource", source, "StreamReaders", readers,
                                "KinesisConsumers", consumers));
                        if (existing) {
                            parameters.put("ExistingTableName", "Existing");
                            parameters.put("ExistingTableStreamArn", EXISTING_STREAM);
                            if (source.equals("kinesis")) {
                                parameters.put("KinesisStreamArn", EXISTING_KINESIS);
                            }
                        }
                        if (source.equals("kinesis") && readers.equals("one")) {
                            assertThatThrownBy(() -> template.withParameterOverrides(parameters)).as("%s", parameters)
                                    .isInstanceOf(TemplateException.class);
                            continue;
                        }
                        SamTemplate deployed = template.withParameterOverrides(parameters).deployed();
                        check(deployed, "StreamIndexerFunction", "StreamIndexerRole", parameters);
                        boolean router = deployed.resources().containsKey("RouterFunction");
                        assertThat(router).as("%s: the router is deployed with two readers", parameters).isEqualTo(readers.equals("two"));
                        if (router) {
                            check(deployed, "RouterFunction", "RouterRole", parameters);
                        } else {
                            assertThat(StreamMappings.invoking(deployed, "RouterFunction")).as("%s", parameters).isEmpty();
                        }
                        assertThat(deployed.resourcesOfType(StreamMappings.TYPE)).as("%s", parameters).hasSize(router ? 2 : 1);
                        checked++;
                    }
                }
            }
        }
        assertThat(checked).isEqualTo(12);
    }

    /** One mapping for the function, and its role has a statement whose Resource is the mapping's source. */
    private static void check(SamTemplate deployed, String function, String role, Map<String, String> parameters) {
        Map<String, Object> mapping = StreamMappings.of(deployed, function);
        Object arn = mapping.get("EventSourceArn");
        List<Object> resources = new java.util.ArrayList<>();
        for (Object policy : (List<?>) deployed.properties(role).get("Policies")) {
            for (Object statement : (List<?>) map(map(policy, "policy").get("PolicyDocument"), "document").get("Statement")) {
                resources.add(map(statement, "statement").get("Resource"));
            }
        }
        if (parameters.get("StreamSource").equals("dynamodb")) {
            // a DynamoDB stream: the role names the table's streams
            assertThat(resources).as("%s %s reads %s", parameters, function, arn).anySatisfy(r -> assertThat(String.valueOf(r)).contains("/stream/"));
        } else {
            assertThat(resources).as("%s %s reads %s", parameters, function, arn).contains(arn);
        }
    }
}
