package com.multikey.indexer;

import com.multikey.common.ChangeRecord;
import com.multikey.index.IndexChange;
import com.multikey.index.IssueImages;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;

import java.util.List;
import java.util.Map;

import static com.multikey.index.IssueImages.issue;
import static com.multikey.index.IssueImages.s;
import static org.assertj.core.api.Assertions.assertThat;

class BatchPlannerTest {

    private final BatchPlanner planner = new BatchPlanner(new IndexerConfig("index"));

    private BatchPlan plan(Record... records) {
        return planner.plan(StreamRecords.lambdaRecords(List.of(records)).stream().map(ChangeRecord::from).toList());
    }

    @Test
    void plan_whenOnlyUnindexedAttributesChange_writesNothing() {
        var before = issue("issue#1", "p", 1, Map.of("f", s("v")));
        var after = IssueImages.with(before, "state", s("closed"));

        assertThat(plan(StreamRecords.change(1, "issue#1", before, after)).changes()).isEmpty();
    }

    @Test
    void plan_whenNumChanges_deletesTheOldKeyAndPutsTheNew() {
        var before = issue("issue#1", "p", 1, Map.of("f", s("v")));
        var after = issue("issue#1", "p", 2, Map.of("f", s("v")));

        BatchPlan plan = plan(StreamRecords.change(1, "issue#1", before, after));

        assertThat(plan.changes()).hasSize(2);
        assertThat(plan.puts()).isEqualTo(1);
        assertThat(plan.deletes()).isEqualTo(1);
    }

    @Test
    void plan_whenOnlyProjectChanges_putsOverTheSameKey() {
        var before = issue("issue#1", "p", 1, Map.of("f", s("v")));
        var after = issue("issue#1", "q", 1, Map.of("f", s("v")));

        BatchPlan plan = plan(StreamRecords.change(1, "issue#1", before, after));

        assertThat(plan.changes()).singleElement().isInstanceOf(IndexChange.Put.class)
                .satisfies(c -> assertThat(((IndexChange.Put) c).item().toItem().get("project").s()).isEqualTo("q"));
    }

    @Test
    void plan_whenSeveralRecordsOfOneIssue_keepsTheLastChangePerKey() {
        var v1 = issue("issue#1", "p", 1, Map.of("f", s("a")));
        var v2 = issue("issue#1", "p", 1, Map.of("f", s("b")));
        var v3 = issue("issue#1", "p", 1, Map.of("f", s("a")));

        BatchPlan plan = plan(
                StreamRecords.change(1, "issue#1", null, v1),
                StreamRecords.change(2, "issue#1", v1, v2),
                StreamRecords.change(3, "issue#1", v2, v3),
                StreamRecords.change(4, "issue#1", v3, null));

        assertThat(plan.changes()).hasSize(2).allMatch(c -> c instanceof IndexChange.Delete);
        assertThat(plan.firstRecord().get(com.multikey.index.ItemKey.ofString("id", "issue#1")).sequenceNumber()).contains(String.format("%021d", 1));
    }

    @Test
    void plan_whenOtherEntityTypesOrOtherKeys_ignoresThem() {
        var layer = Map.of("id", s("layer#us-east-1#requests#12"), "arn", s("arn:aws:lambda:us-east-1:1:layer:x:12"));

        BatchPlan plan = plan(StreamRecords.change(1, "layer#us-east-1#requests#12", null, layer));

        assertThat(plan.ignoredCount()).isEqualTo(1);
        assertThat(plan.changes()).isEmpty();
        assertThat(plan.skipped()).isEmpty();
    }

    @Test
    void plan_whenModifyHasNoOldImage_reportsTheRecordAsMissingAnImage() {
        Record newImageOnly = Record.builder().eventID("e1").eventName(OperationType.MODIFY)
                .dynamodb(StreamRecord.builder().keys(Map.of("id", s("issue#1"))).sequenceNumber("5")
                        .newImage(issue("issue#1", "p", 1, Map.of("f", s("v")))).streamViewType("NEW_IMAGE").build())
                .build();

        BatchPlan plan = plan(newImageOnly);

        assertThat(plan.changes()).isEmpty();
        assertThat(plan.skipped()).isEmpty();
        assertThat(plan.missingImages()).singleElement().satisfies(missing -> {
            assertThat(missing.item()).hasToString("issue#1");
            assertThat(missing.record().sequenceNumber()).contains("5");
            assertThat(missing.reason()).contains("no OldImage");
        });
    }
}
