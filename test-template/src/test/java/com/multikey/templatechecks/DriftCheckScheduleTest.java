package com.multikey.templatechecks;

import com.multikey.emulator.template.SamTemplate;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static com.multikey.emulator.template.SamTemplate.map;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The drift check's schedule in template.yaml: what it starts, how often, where an undeliverable run goes, and its
 * role's least privilege. The run it starts, by the real worker: the reindex worker's {@code DriftCheckTest}.
 */
class DriftCheckScheduleTest {

    private final SamTemplate template = SamTemplate.ofRepository();

    @Test
    void schedule_startsTheWorker_withARoleThatMayOnlyInvokeIt() {
        Map<String, Object> schedule = template.properties("DriftCheckSchedule");
        Map<String, Object> target = map(schedule.get("Target"), "Target");
        assertThat(target.get("Arn")).isEqualTo(Map.of("Fn::GetAtt", List.of("ReindexWorkerFunction", "Arn")));
        assertThat(schedule.get("ScheduleExpression")).isEqualTo(Map.of("Ref", "DriftCheckScheduleExpression"));
        assertThat(map(template.parameters().get("DriftCheckScheduleExpression"), "p").get("Default")).isEqualTo("rate(1 day)");
        assertThat(map(template.parameters().get("DriftCheckRepair"), "p").get("Default")).isEqualTo("false");
        assertThat(map(target.get("DeadLetterConfig"), "DeadLetterConfig").get("Arn"))
                .isEqualTo(Map.of("Fn::GetAtt", List.of("DriftCheckDeadLetterQueue", "Arn")));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> statements = (List<Map<String, Object>>) map(((List<Map<String, Object>>) template
                .properties("DriftCheckSchedulerRole").get("Policies")).get(0).get("PolicyDocument"), "doc").get("Statement");
        assertThat(statements).extracting(s -> s.get("Action") + " on " + s.get("Resource")).containsExactlyInAnyOrder(
                "lambda:InvokeFunction on {Fn::GetAtt=[ReindexWorkerFunction, Arn]}",
                "sqs:SendMessage on {Fn::GetAtt=[DriftCheckDeadLetterQueue, Arn]}");
    }
}
