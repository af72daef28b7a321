package com.multikey.redrive;

import com.multikey.index.ItemKey;
import com.multikey.reindex.IndexScope;
import com.multikey.reindex.TargetedRepair;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The indexer's failure queue: reads the range back, and repairs the index of exactly the items whose keys are in it
 * (only items a declared index covers, by an image in the range, or any item when the range holds no image) from
 * each item's current state,
 * considering every key the range's old and new images imply ({@link TargetedRepair}). Right even when the
 * records are old and the items changed since.
 */
final class IndexerRedrive implements MessageAction {

    static final String GONE_ADVICE = "a targeted repair needs the records' keys, gone with them: run 'operator-cli verify --repair',"
            + " which rebuilds what the index lacks from the whole table";

    static final String KINESIS_GONE_ADVICE = GONE_ADVICE + " (the Kinesis indexer's next change of each repaired item continues from"
            + " the repaired index, decision 0024)";

    private final StreamRangeReader reader;
    private final KinesisRangeReader kinesis;
    private final TargetedRepair repair;
    private final IndexScope schema;

    IndexerRedrive(StreamRangeReader reader, TargetedRepair repair, IndexScope schema) {
        this(reader, null, repair, schema);
    }

    /** @param kinesis reads the ranges of {@code KinesisBatchInfo} messages back (null: the stack has no Kinesis source) */
    IndexerRedrive(StreamRangeReader reader, KinesisRangeReader kinesis, TargetedRepair repair, IndexScope schema) {
        this.reader = reader;
        this.kinesis = kinesis;
        this.repair = repair;
        this.schema = schema;
    }

    @Override
    public Result handle(String body, boolean dryRun) {
        OnFailureRecord range = OnFailureRecord.parse(body);
        return switch (range.source()) {
            case DYNAMODB_STREAM -> switch (reader.read(range)) {
                case StreamRange.Gone gone -> new Result.Gone(range.describe(), gone.reason(), GONE_ADVICE);
                case StreamRange.Found found -> repair(found.records(), 0, dryRun);
            };
            // the records of the table's Kinesis streaming destination carry the same change records: the items they name
            // are repaired from their current state as a DynamoDB stream's are (the Kinesis indexer's next change of each
            // continues from the repaired index, decision 0024)
            case KINESIS -> switch (kinesisReader().read(range)) {
                case KinesisRange.Gone gone -> new Result.Gone(range.describe(), gone.reason(), KINESIS_GONE_ADVICE);
                case KinesisRange.Found found -> {
                    List<Record> changes = found.records().stream().map(KinesisChanges::change).flatMap(java.util.Optional::stream).toList();
                    yield repair(changes, found.records().size() - changes.size(), dryRun);
                }
            };
        };
    }

    private KinesisRangeReader kinesisReader() {
        if (kinesis == null) {
            throw new IllegalArgumentException("a Kinesis range (KinesisBatchInfo), but redrive has no Kinesis client configured");
        }
        return kinesis;
    }

    private Result repair(List<Record> records, int unreadable, boolean dryRun) {
        Repairs repairs = repairItems(imagesByItem(records, schema), dryRun);
        if (!repairs.changing().isEmpty()) {
            return new Result.Failed(repairs.stillChanging());
        }
        return new Result.Done(records.size() + " records, " + (unreadable == 0 ? "" : unreadable + " not change records (skipped), ")
                + repairs.describe(dryRun));
    }

    /** What the repair of some items came to. */
    record Repairs(int items, int repaired, int puts, int deletes, int right, List<String> changing) {
        Repairs {
            changing = List.copyOf(changing);
        }

        String describe(boolean dryRun) {
            return String.format("%d items: %s %d (%d puts, %d deletes), %d already right", items, dryRun ? "would repair" : "repaired",
                    repaired, puts, deletes, right);
        }

        String stillChanging() {
            return changing.size() + " items kept changing while being repaired (" + String.join(", ", changing) + "); run again";
        }
    }

    /** Repairs each item from its current state, considering every key its images imply ({@link TargetedRepair}). */
    Repairs repairItems(Map<ItemKey, List<Map<String, AttributeValue>>> imagesByItem, boolean dryRun) {
        int repaired = 0;
        int right = 0;
        int puts = 0;
        int deletes = 0;
        List<String> changing = new ArrayList<>();
        for (Map.Entry<ItemKey, List<Map<String, AttributeValue>>> item : imagesByItem.entrySet()) {
            switch (repair.repair(item.getKey(), item.getValue(), dryRun)) {
                case TargetedRepair.Outcome.Repaired r -> {
                    repaired++;
                    puts += r.puts();
                    deletes += r.deletes();
                }
                case TargetedRepair.Outcome.Planned p -> {
                    repaired++;
                    puts += p.puts();
                    deletes += p.deletes();
                }
                case TargetedRepair.Outcome.AlreadyRight a -> right++;
                case TargetedRepair.Outcome.StillChanging s -> changing.add(s.itemKey().toString());
            }
        }
        return new Repairs(imagesByItem.size(), repaired, puts, deletes, right, changing);
    }

    /**
     * Every old and new image of each indexed item in the records, by item key in stream order; items no index covers
     * left out (a record without images is kept: what it was cannot be told).
     */
    static Map<ItemKey, List<Map<String, AttributeValue>>> imagesByItem(List<Record> records, IndexScope schema) {
        Map<ItemKey, List<Map<String, AttributeValue>>> images = new LinkedHashMap<>();
        for (Record record : records) {
            var key = schema.keyOf(record.dynamodb().keys());
            boolean hasImage = record.dynamodb().hasOldImage() || record.dynamodb().hasNewImage();
            if (key.isEmpty() || (hasImage && !(record.dynamodb().hasOldImage() && schema.covers(record.dynamodb().oldImage()))
                    && !(record.dynamodb().hasNewImage() && schema.covers(record.dynamodb().newImage())))) {
                continue;
            }
            List<Map<String, AttributeValue>> seen = images.computeIfAbsent(key.get(), id -> new ArrayList<>());
            if (record.dynamodb().hasOldImage()) {
                seen.add(record.dynamodb().oldImage());
            }
            if (record.dynamodb().hasNewImage()) {
                seen.add(record.dynamodb().newImage());
            }
        }
        return images;
    }
}
