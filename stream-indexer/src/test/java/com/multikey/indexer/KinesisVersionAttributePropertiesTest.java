package com.multikey.indexer;

import com.amazonaws.services.lambda.runtime.events.KinesisEvent.KinesisEventRecord;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The randomized histories on a Kinesis shard with duplicates and records moved by a bounded distance, each item's
 * changes ordered by a version attribute of the table's ({@code ItemVersionAttribute}, docs/decisions/0024) that the
 * writers raise on every write, across removals and re-creations, while the records' creation times say nothing of
 * the order (they run backwards): the index ends as the index of every issue's last version.
 */
class KinesisVersionAttributePropertiesTest {

    private static final String REV = "rev";

    @Property(tries = 300)
    void duplicatesAndReordering_orderedByTheVersionAttribute_leaveTheIndexOfTheLastVersions(
            @ForAll("histories") List<IndexDiffPropertiesTest.Step> history,
            @ForAll @IntRange(min = 1, max = 12) int batchSize,
            @ForAll @IntRange(min = 0, max = 8) int displacement,
            @ForAll long seed) {
        IndexDiffPropertiesTest.History h = IndexDiffPropertiesTest.History.of(history);
        Random random = new Random(seed);
        List<KinesisEventRecord> shard = shard(withVersions(h.records()), random, 0.3, displacement);

        KinesisIndexingPropertiesTest.Lambda lambda = new KinesisIndexingPropertiesTest.Lambda(batchSize, ChangeVersion.fromSetting(REV));
        lambda.deliver(shard, random, 0.0);

        assertThat(lambda.index.items()).isEqualTo(h.expectedIndex());
    }

    @Property(tries = 200)
    void partialFailures_orderedByTheVersionAttribute_converge(@ForAll("histories") List<IndexDiffPropertiesTest.Step> history,
                                                               @ForAll @IntRange(min = 1, max = 12) int batchSize,
                                                               @ForAll @IntRange(min = 0, max = 8) int displacement,
                                                               @ForAll long seed) {
        IndexDiffPropertiesTest.History h = IndexDiffPropertiesTest.History.of(history);
        Random random = new Random(seed);
        List<KinesisEventRecord> shard = shard(withVersions(h.records()), random, 0.3, displacement);

        KinesisIndexingPropertiesTest.Lambda lambda = new KinesisIndexingPropertiesTest.Lambda(batchSize, ChangeVersion.fromSetting(REV));
        lambda.deliver(shard, random, 0.3);

        assertThat(lambda.index.items()).isEqualTo(h.expectedIndex());
    }

    /**
     * The history's records with the version attribute in their images: each write sets it to one more than any value
     * before it (the record's place in the history, from 1), so it keeps growing across a removal and a re-creation;
     * an old image holds the value of the write that made it.
     */
    static List<Record> withVersions(List<Record> records) {
        Map<Map<String, AttributeValue>, Long> written = new HashMap<>();
        List<Record> versioned = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            Record record = records.get(i);
            Map<String, AttributeValue> keys = record.dynamodb().keys();
            var dynamodb = record.dynamodb().toBuilder();
            if (record.dynamodb().hasOldImage()) {
                dynamodb.oldImage(with(record.dynamodb().oldImage(), written.get(keys)));
            }
            if (record.dynamodb().hasNewImage()) {
                long rev = i + 1;
                dynamodb.newImage(with(record.dynamodb().newImage(), rev));
                written.put(keys, rev);
            }
            versioned.add(record.toBuilder().dynamodb(dynamodb.build()).build());
        }
        return versioned;
    }

    private static Map<String, AttributeValue> with(Map<String, AttributeValue> image, Long rev) {
        Map<String, AttributeValue> out = new LinkedHashMap<>(image);
        out.put(REV, AttributeValue.fromN(Long.toString(rev)));
        return out;
    }

    /**
     * One shard of the stream: the changes with duplicates, each moved by at most a bounded distance, created at times
     * that run backwards (the later change, the earlier time: a clock that says nothing of the order).
     */
    private static List<KinesisEventRecord> shard(List<Record> changes, Random random, double duplicateRate, int displacement) {
        record Placed(Record change, int historyIndex, double at) {
        }
        List<Placed> placed = new ArrayList<>();
        for (int i = 0; i < changes.size(); i++) {
            placed.add(new Placed(changes.get(i), i, i + random.nextDouble() * (displacement + 1)));
            while (random.nextDouble() < duplicateRate) {
                placed.add(new Placed(changes.get(i), i, i + random.nextDouble() * (2 * displacement + 1)));
            }
        }
        placed.sort(Comparator.comparingDouble(Placed::at));
        List<KinesisEventRecord> records = new ArrayList<>();
        for (int position = 0; position < placed.size(); position++) {
            Placed p = placed.get(position);
            records.add(KinesisRecords.record(p.change(), position, KinesisRecords.microsOf(changes.size() - p.historyIndex())));
        }
        return records;
    }

    @Provide
    Arbitrary<List<IndexDiffPropertiesTest.Step>> histories() {
        return new IndexDiffPropertiesTest().histories();
    }
}
