package com.multikey.indexer;

import com.multikey.common.ChangeRecord;
import com.multikey.index.IndexChange;
import com.multikey.index.IssueImages;
import com.multikey.index.ItemKey;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.testkit.SingleTableFixtures;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static com.multikey.index.IssueImages.issue;
import static com.multikey.index.IssueImages.s;
import static org.assertj.core.api.Assertions.assertThat;

class BatchPlannerTest {

    private final BatchPlanner planner = new BatchPlanner(new IndexerConfig("index"));

    private final BatchPlanner singleTable = new BatchPlanner(new IndexerConfig("index", "Items",
            DefinitionsYaml.read(Path.of("..", "examples", "single-table", "index-definitions.yaml"))));

    private BatchPlan plan(Record... records) {
        return plan(planner, records);
    }

    private static BatchPlan plan(BatchPlanner planner, Record... records) {
        return planner.plan(StreamRecords.lambdaRecords(List.of(records)).stream().map(ChangeRecord::from).toList());
    }

    /** The record as a stream of another view type carries it: only the images named here are kept. */
    private static Record asViewType(Record record, String viewType, boolean keepOld, boolean keepNew) {
        StreamRecord.Builder stream = record.dynamodb().toBuilder().streamViewType(viewType);
        if (!keepOld) {
            stream.oldImage((Map<String, AttributeValue>) null);
        }
        if (!keepNew) {
            stream.newImage((Map<String, AttributeValue>) null);
        }
        return record.toBuilder().dynamodb(stream.build()).build();
    }

    private static Map<String, AttributeValue> keys(String pk, String sk) {
        return Map.of("pk", s(pk), "sk", s(sk));
    }

    private static Map<String, AttributeValue> issueItem(String project, int num, String prio, String... labels) {
        Map<String, AttributeValue> item = new LinkedHashMap<>(keys("PROJECT#" + project, "ISSUE#" + num));
        item.put("num", AttributeValue.fromN(Integer.toString(num)));
        item.put("title", s("issue " + num));
        item.put("cf", AttributeValue.fromM(Map.of("prio", s(prio))));
        item.put("labels", AttributeValue.fromL(java.util.Arrays.stream(labels).map(IssueImages::s).toList()));
        return item;
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

    @Test
    void plan_whenRecordKeysDoNotMatchTheDefinitionsKey_skipsTheRecordNamingTheExpectedKey() {
        // given: the packaged definitions' table is keyed id (S); these records come from tables keyed otherwise
        Record composite = StreamRecords.change(1, keys("PROJECT#p1", "ISSUE#1"), null, issueItem("p1", 1, "high"));
        Record numberId = StreamRecords.change(2, Map.of("id", AttributeValue.fromN("7")), null, Map.of("id", AttributeValue.fromN("7")));

        // when
        BatchPlan plan = plan(composite, numberId);

        // then
        assertThat(plan.changes()).isEmpty();
        assertThat(plan.ignoredCount()).isZero();
        assertThat(plan.missingImages()).isEmpty();
        assertThat(plan.skipped()).hasSize(2).allSatisfy(skipped -> assertThat(skipped.reason()).contains("id (S)"));
        assertThat(plan.skipped()).extracting(com.multikey.common.PartialBatch.Skipped::itemKey)
                .containsExactly("pk=PROJECT#p1 sk=ISSUE#1", "id=7");
        assertThat(plan.skipped()).extracting(com.multikey.common.PartialBatch.Skipped::sequenceNumber)
                .containsExactly(String.format("%021d", 1), String.format("%021d", 2));
    }

    @Test
    void plan_whenRecordsOfSeveralEntityTypes_diffsEveryIndexInOnePass_andIgnoresItemsNoIndexCovers() {
        // given
        Map<String, AttributeValue> issue = issueItem("p1", 1, "high", "red", "blue");
        Map<String, AttributeValue> relabelled = issueItem("p1", 1, "high", "red", "green");
        Map<String, AttributeValue> project = new LinkedHashMap<>(keys("PROJECT#p1", "PROJECT#p1"));
        project.put("name", s("project one"));
        Map<String, AttributeValue> layer = SingleTableFixtures.layerVersion(12, "latest");

        // when
        BatchPlan plan = plan(singleTable,
                StreamRecords.change(1, keys("PROJECT#p1", "ISSUE#1"), null, issue),
                StreamRecords.change(2, keys("PROJECT#p1", "PROJECT#p1"), null, project),
                StreamRecords.change(3, keys("PROJECT#p1", "ISSUE#1"), issue, relabelled),
                StreamRecords.change(4, keys(layer.get("pk").s(), layer.get("sk").s()), null, layer));

        // then: the issue's field and its labels red and green (blue put, then deleted), and the layer in both layer indexes
        assertThat(plan.ignoredCount()).isEqualTo(1);
        assertThat(plan.changes()).filteredOn(c -> c instanceof IndexChange.Put)
                .extracting(c -> ((IndexChange.Put) c).item().index())
                .containsExactlyInAnyOrder("issue-fields", "issue-labels", "issue-labels", "layers-by-package", "layers-by-region");
        assertThat(plan.changes()).filteredOn(c -> c instanceof IndexChange.Delete).hasSize(1);
        ItemKey issueKey = new ItemKey(new LinkedHashMap<>(Map.of("pk", s("PROJECT#p1"), "sk", s("ISSUE#1"))));
        assertThat(plan.firstRecord().get(issueKey).sequenceNumber()).contains(String.format("%021d", 1));
        assertThat(plan.itemOfKey().values()).extracting(ItemKey::toString)
                .containsOnly("pk=PROJECT#p1 sk=ISSUE#1", "pk=lyr#ap-southeast-1.requests sk=lyrVrsn12#");
    }

    @Test
    void plan_whenKeysOnlyRecordsOfItemsAnIndexMayCover_reportsThemAsMissingImages() {
        // given: KEYS_ONLY records; an issue's key meets the issue indexes' key condition, a layer's the layer indexes'
        Record issue = asViewType(StreamRecords.change(1, keys("PROJECT#p1", "ISSUE#1"), issueItem("p1", 1, "a"),
                issueItem("p1", 1, "b")), "KEYS_ONLY", false, false);
        Map<String, AttributeValue> layer = SingleTableFixtures.layerVersion(3, "latest");
        Record removedLayer = asViewType(StreamRecords.change(2, keys(layer.get("pk").s(), layer.get("sk").s()), layer, null),
                "KEYS_ONLY", false, false);

        // when
        BatchPlan plan = plan(singleTable, issue, removedLayer);

        // then
        assertThat(plan.changes()).isEmpty();
        assertThat(plan.ignoredCount()).isZero();
        assertThat(plan.skipped()).isEmpty();
        assertThat(plan.missingImages()).extracting(missing -> missing.item().toString())
                .containsExactly("pk=PROJECT#p1 sk=ISSUE#1", "pk=lyr#ap-southeast-1.requests sk=lyrVrsn3#");
        assertThat(plan.missingImages()).extracting(BatchPlan.MissingImage::reason)
                .containsExactly("MODIFY record has no OldImage", "REMOVE record has no OldImage");
    }

    @Test
    void plan_whenKeysOnlyRecordOfAnItemWhoseKeyEveryIndexRulesOut_ignoresIt() {
        // given: a project's key fails the issue indexes' sk condition and the layer indexes' pk condition
        Record project = asViewType(StreamRecords.change(1, keys("PROJECT#p1", "PROJECT#p1"), null,
                Map.of("pk", s("PROJECT#p1"), "sk", s("PROJECT#p1"))), "KEYS_ONLY", false, false);
        Record layerOfTheGrid = asViewType(StreamRecords.change(2, "layer#us-east-1#requests#12", null,
                Map.of("id", s("layer#us-east-1#requests#12"))), "KEYS_ONLY", false, false);

        // when
        BatchPlan singleTablePlan = plan(singleTable, project);
        BatchPlan gridPlan = plan(layerOfTheGrid);

        // then
        assertThat(singleTablePlan.missingImages()).isEmpty();
        assertThat(singleTablePlan.ignoredCount()).isEqualTo(1);
        assertThat(gridPlan.missingImages()).isEmpty();
        assertThat(gridPlan.ignoredCount()).isEqualTo(1);
    }

    @Test
    void plan_whenAnIndexHasNoConditionOnTheKey_aKeysOnlyRecordOfAnyItemIsMissingImages() {
        // given: a sparse index that covers any item with a status, whatever its key
        BatchPlanner sparse = new BatchPlanner(new IndexerConfig("index", "", DefinitionsYaml.parse("""
                version: 1
                table: {partitionKey: {name: id, type: S}}
                indexes:
                  - name: by-status
                    covers: [{attribute: status, exists: true}]
                    values: {attribute: status}
                """)));
        Record anything = asViewType(StreamRecords.change(1, "anything#1", null, Map.of("id", s("anything#1"))),
                "KEYS_ONLY", false, false);

        // when
        BatchPlan plan = plan(sparse, anything);

        // then
        assertThat(plan.missingImages()).singleElement().satisfies(missing -> assertThat(missing.item()).hasToString("anything#1"));
        assertThat(plan.ignoredCount()).isZero();
    }

    @Test
    void plan_whenNewImageStreamHasAnInsert_indexesIt_butItsModifyAndRemoveAreMissingTheirOldImage() {
        // given: a NEW_IMAGE stream; the modify's new image leaves the sparse layer indexes (no dplySts), so only the
        // old image could say which index items to delete
        Map<String, AttributeValue> latest = SingleTableFixtures.layerVersion(4, "latest");
        Map<String, AttributeValue> deleted = SingleTableFixtures.layerVersion(4, null);
        Map<String, AttributeValue> key = keys(latest.get("pk").s(), latest.get("sk").s());
        Record insert = asViewType(StreamRecords.change(1, key, null, latest), "NEW_IMAGE", false, true);
        Record modify = asViewType(StreamRecords.change(2, key, latest, deleted), "NEW_IMAGE", false, true);
        Record remove = asViewType(StreamRecords.change(3, key, deleted, null), "NEW_IMAGE", false, true);

        // when
        BatchPlan plan = plan(singleTable, insert, modify, remove);

        // then
        assertThat(plan.puts()).isEqualTo(2);
        assertThat(plan.deletes()).isZero();
        assertThat(plan.missingImages()).extracting(missing -> missing.record().sequenceNumber().orElseThrow())
                .containsExactly(String.format("%021d", 2), String.format("%021d", 3));
        assertThat(plan.ignoredCount()).isZero();
    }

    @Test
    void plan_whenOldImageStreamHasAModifyOfAnItemNoIndexCoveredOrCovers_ignoresItByItsKey() {
        // given: an OLD_IMAGE stream; a project's modify lacks its new image, but its key rules out every index
        Map<String, AttributeValue> project = Map.of("pk", s("PROJECT#p1"), "sk", s("PROJECT#p1"), "name", s("one"));
        Record modify = asViewType(StreamRecords.change(1, keys("PROJECT#p1", "PROJECT#p1"), project, project),
                "OLD_IMAGE", true, false);

        // when
        BatchPlan plan = plan(singleTable, modify);

        // then
        assertThat(plan.missingImages()).isEmpty();
        assertThat(plan.ignoredCount()).isEqualTo(1);
    }
}
