package com.multikey.templatechecks;

import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateEnvironment;
import com.multikey.redrive.QueueKind;
import com.multikey.redrive.RedriveConfig;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** The redrive function in template.yaml: its settings and its least-privilege role. */
class RedriveTemplateTest {

    private final SamTemplate template = SamTemplate.ofRepository();

    @Test
    void function_isConfiguredWithEveryQueueTableAndFunction() {
        Map<String, String> names = new HashMap<>();
        template.resources().keySet().forEach(id -> names.put(id, id));

        RedriveConfig config = RedriveConfig.fromEnvironment(TemplateEnvironment.of(template, "RedriveFunction", names));

        assertThat(config).isEqualTo(new RedriveConfig("AppTable", "IssueAttribIndexTable", "StreamIndexerFailureQueue",
                "RouterFailureQueue", "DeleteLayerDeadLetterQueue", "RouterFunction", "DeleteLayerFunction", config.definitions()));
        for (QueueKind kind : QueueKind.values()) {
            assertThat(config.queue(kind)).isNotBlank();
        }
    }

    @Test
    void role_grantsOnlyWhatRedriveCalls_onTheStacksOwnResources() {
        // as deployed, in either mode (with StreamReaders one a statement on the consumer's checkpoints is added)
        for (SamTemplate deployed : List.of(template.deployed(), template.withParameterOverrides(Map.of("StreamReaders", "one")).deployed())) {
            roleGrantsOnlyWhatRedriveCalls(deployed);
        }
    }

    private static void roleGrantsOnlyWhatRedriveCalls(SamTemplate template) {
        Map<String, Object> role = template.properties("RedriveRole");
        List<?> policies = (List<?>) role.get("Policies");
        Set<String> actions = new TreeSet<>();
        for (Object policy : policies) {
            Map<String, Object> document = SamTemplate.map(SamTemplate.map(policy, "policy").get("PolicyDocument"), "document");
            for (Object value : (List<?>) document.get("Statement")) {
                // a statement of one mode only (Fn::If): its statement, whichever mode creates it
                Object conditional = value instanceof Map<?, ?> m && m.get("Fn::If") instanceof List<?> branches ? branches.get(1) : value;
                Map<String, Object> statement = SamTemplate.map(conditional, "statement");
                assertThat(statement.get("Effect")).isEqualTo("Allow");
                assertThat(String.valueOf(statement.get("Resource"))).as("%s", statement.get("Sid")).doesNotContain("'*'").isNotEqualTo("*");
                Object action = statement.get("Action");
                if (action instanceof List<?> list) {
                    list.forEach(a -> actions.add((String) a));
                } else {
                    actions.add((String) action);
                }
            }
        }
        assertThat(actions).containsExactlyInAnyOrder("logs:CreateLogGroup", "logs:CreateLogStream", "logs:PutLogEvents",
                "dynamodb:GetRecords", "dynamodb:GetShardIterator", "dynamodb:GetItem", "dynamodb:ConditionCheckItem",
                "dynamodb:BatchGetItem", "dynamodb:PutItem", "dynamodb:DeleteItem",
                // the counters of kept counts, in the transactions of the index items they count
                "dynamodb:UpdateItem",
                // the grid layout's control item in the index table, and the one-time scan for a stack's layout
                "dynamodb:Scan", "sqs:ReceiveMessage", "sqs:DeleteMessage",
                "sqs:ChangeMessageVisibility", "sqs:GetQueueAttributes", "lambda:InvokeFunction");
    }
}
