package com.multikey.index;

import com.multikey.index.definition.AttributePath;
import com.multikey.index.definition.IndexDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The original issue grid's layout, byte for byte: one item per (map entry, distinct value) in the partition named
 * by the entry alone, the group and the numeric tie-breaker stored as {@code project} and {@code num}.
 *
 * <p>What cannot be indexed is left out the same way every time: an entry holding an unsupported type (a map,
 * binary, a nested list) gets no items and a rejection, and so does an entry whose name cannot be a partition key
 * (empty, over 2,048 bytes, or reading as a partition of a grouped index) or whose index item would exceed
 * DynamoDB's item size even without the value's copy; an image without a string group or a number tie-breaker,
 * with a key longer than a sort key can hold, or whose map is not a map, gets no items at all.
 */
final class FieldPartitionedLayout implements IndexLayout {

    private final IndexDefinition index;
    private final AttributePath map;
    private final AttributePath project;
    private final AttributePath num;
    private final Set<String> groupedIndexNames;

    /** @param groupedIndexNames the other indexes, whose partitions begin with their name: entry names that read as one are left out */
    FieldPartitionedLayout(IndexDefinition index, Set<String> groupedIndexNames) {
        this.index = index;
        this.map = index.values().path();
        this.project = index.group().get(0);
        this.num = index.orderBy().get(0).path();
        this.groupedIndexNames = Set.copyOf(groupedIndexNames);
    }


    @Override
    public IndexProjector.Changed changed(ItemKey key, Map<String, AttributeValue> before, Map<String, AttributeValue> after) {
        if (before == null || after == null || !sameKeyParts(before, after)) {
            return IndexLayout.unrestricted(this, key, before, after);
        }
        Map<String, AttributeValue> oldFields = map.resolve(before).m();
        Map<String, AttributeValue> newFields = map.resolve(after).m();
        Map<String, AttributeValue> oldChanged = new LinkedHashMap<>();
        Map<String, AttributeValue> newChanged = new LinkedHashMap<>();
        oldFields.forEach((field, value) -> {
            if (!value.equals(newFields.get(field))) {
                oldChanged.put(field, value);
            }
        });
        newFields.forEach((field, value) -> {
            if (!value.equals(oldFields.get(field))) {
                newChanged.put(field, value);
            }
        });
        return new IndexProjector.Changed(project(key, before, oldChanged), project(key, after, newChanged));
    }

    /** Both images are covered, index entries (their maps are maps) under the same project and num. */
    private boolean sameKeyParts(Map<String, AttributeValue> before, Map<String, AttributeValue> after) {
        AttributeValue oldFields = map.resolve(before);
        AttributeValue newFields = map.resolve(after);
        return index.covers(before) && index.covers(after)
                && oldFields != null && newFields != null && oldFields.type() == AttributeValue.Type.M
                && newFields.type() == AttributeValue.Type.M
                && Objects.equals(project.resolve(before), project.resolve(after))
                && Objects.equals(num.resolve(before), num.resolve(after));
    }

    @Override
    public ItemProjection project(ItemKey key, Map<String, AttributeValue> image) {
        return project(key, image, (String) null);
    }

    @Override
    public ItemProjection projectEntry(ItemKey key, Map<String, AttributeValue> image, String entry) {
        return project(key, image, Objects.requireNonNull(entry, "entry"));
    }

    /** @param entry the one field to project; null: every field */
    private ItemProjection project(ItemKey key, Map<String, AttributeValue> image, String entry) {
        if (!index.covers(image)) {
            return ItemProjection.EMPTY;
        }
        AttributeValue fields = map.resolve(image);
        if (fields == null || fields.type() == AttributeValue.Type.NUL) {
            return ItemProjection.EMPTY;
        }
        if (fields.type() != AttributeValue.Type.M) {
            return rejected(key, map + " is of type " + fields.type() + ", not a map");
        }
        if (entry == null) {
            return project(key, image, fields.m());
        }
        AttributeValue value = fields.m().get(entry);
        return value == null ? ItemProjection.EMPTY : project(key, image, Map.of(entry, value));
    }

    private ItemProjection project(ItemKey key, Map<String, AttributeValue> image, Map<String, AttributeValue> fields) {
        if (fields.isEmpty()) {
            return ItemProjection.EMPTY;
        }
        String issueId = key.singleString().orElseThrow();
        if (DynamoDbLimits.utf8Bytes(issueId) > SortKeyCodec.MAX_ISSUE_ID_BYTES) {
            return rejected(key, "issue id longer than " + SortKeyCodec.MAX_ISSUE_ID_BYTES
                    + " bytes, the part of a sort key it may take");
        }
        AttributeValue group = project.resolve(image);
        if (group == null || group.s() == null) {
            return rejected(key, project + " is missing or not a string");
        }
        AttributeValue number = num.resolve(image);
        if (number == null || number.n() == null) {
            return rejected(key, num + " is missing or not a number");
        }
        BigDecimal issueNum;
        try {
            issueNum = new BigDecimal(number.n());
            SortKeyCodec.encodeNumber(issueNum);
        } catch (NumberFormatException | UnindexableValueException e) {
            return rejected(key, num + " is not a valid DynamoDB number");
        }

        Map<IndexKey, IndexItem> items = new LinkedHashMap<>();
        List<Rejection> rejections = new ArrayList<>();
        for (Map.Entry<String, AttributeValue> field : fields.entrySet()) {
            String attribId = field.getKey();
            try {
                if (readsAsGroupedPartition(attribId)) {
                    throw new UnindexableValueException("field id reads as a partition of another declared index");
                }
                for (IndexValue value : FieldValues.of(field.getValue())) {
                    IndexItem item = IndexItem.fieldPartitioned(index.name(), key, attribId, value, group.s(), issueNum);
                    items.put(item.key(), item);
                }
            } catch (UnindexableValueException e) {
                items.keySet().removeIf(k -> k.attribId().equals(attribId));
                rejections.add(new Rejection.Field(key, index.name(), attribId, e.getMessage()));
            }
        }
        return new ItemProjection(Set.copyOf(items.values()), rejections);
    }

    private boolean readsAsGroupedPartition(String attribId) {
        for (String name : groupedIndexNames) {
            if (attribId.equals(name) || attribId.startsWith(name + GroupedLayout.PARTITION_SEPARATOR)) {
                return true;
            }
        }
        return false;
    }

    private ItemProjection rejected(ItemKey key, String reason) {
        return new ItemProjection(Set.of(), List.of(new Rejection.Image(key, index.name(), reason)));
    }
}
