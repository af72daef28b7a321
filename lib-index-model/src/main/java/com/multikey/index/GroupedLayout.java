package com.multikey.index;

import com.multikey.index.definition.AttributePath;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.KeySchema;
import com.multikey.index.definition.TieBreaker;
import com.multikey.index.definition.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The layout of declared indexes: every item of index {@code I} lives in a partition
 * {@code I|<group part>...[|<entry name>]}, so indexes never share a partition and a query reads its own group's
 * items only; the sort key orders by value, then the declared tie-breakers, then the item key.
 *
 * <h2>Partition key</h2>
 * The index name, then each group attribute's value, then (for map entries) the entry's name, joined by {@code |}
 * (readable in the console: single-table keys such as {@code PROJECT#p1} stay as they are). A string part is written
 * as it is with {@code %} and {@code |} escaped as {@code %25} and {@code %7C} (so the parts can always be told apart); a number is {@code %N} and its canonical form, binary {@code %B} and base64, a
 * boolean {@code %Ttrue} or {@code %Tfalse}. An item without a group attribute is not in the index (counted as
 * rejected); one whose partition would pass 2,048 bytes neither.
 *
 * <h2>Stored item</h2>
 * {@code attribId} and {@code sortKey} (the key), {@code index}, {@code itemKey} (the source item's key attributes),
 * {@code value} (or {@code valueOmitted}), and {@code attrs}, a map of the projected attributes the item has.
 */
final class GroupedLayout implements IndexLayout {

    static final String PARTITION_SEPARATOR = "|";

    private final IndexDefinition index;
    private final KeySchema table;
    private final int valueBytes;

    GroupedLayout(IndexDefinition index, KeySchema table) {
        this.index = index;
        this.table = table;
        this.valueBytes = SortKeyCodec.valueBudget(index, table);
    }


    /** The bytes of a sort key this index gives a value; query bounds are computed with it. */
    int valueBytes() {
        return valueBytes;
    }

    /** The partition key of a group (its values in declared order) and, for a map-entries index, an entry. */
    static String partition(String indexName, List<AttributeValue> group, String entry) {
        StringBuilder key = new StringBuilder(indexName);
        for (AttributeValue part : group) {
            key.append(PARTITION_SEPARATOR).append(partitionPart(part));
        }
        if (entry != null) {
            key.append(PARTITION_SEPARATOR).append(escape(entry));
        }
        return key.toString();
    }

    private static String partitionPart(AttributeValue part) {
        return switch (part.type()) {
            case S -> escape(part.s());
            case N -> "%N" + IndexValue.Num.canonical(new java.math.BigDecimal(part.n())).toString();
            case B -> "%B" + Base64.getEncoder().encodeToString(part.b().asByteArrayUnsafe());
            case BOOL -> "%T" + part.bool();
            default -> throw new UnindexableValueException("a group value of type " + part.type());
        };
    }

    private static String escape(String text) {
        return text.replace("%", "%25").replace("|", "%7C");
    }

    @Override
    public ItemProjection project(ItemKey key, Map<String, AttributeValue> image) {
        return project(key, image, entry -> true);
    }

    @Override
    public ItemProjection projectEntry(ItemKey key, Map<String, AttributeValue> image, String entry) {
        return index.values() instanceof ValueSource.MapEntries ? project(key, image, entry::equals) : project(key, image);
    }

    /** The parts of an item version every index item of it shares; equal contexts give equal items for equal values. */
    private List<AttributeValue> context(Map<String, AttributeValue> image) {
        List<AttributeValue> context = new ArrayList<>();
        for (AttributePath path : index.group()) {
            context.add(path.resolve(image));
        }
        for (TieBreaker tieBreaker : index.orderBy()) {
            context.add(tieBreaker.path().resolve(image));
        }
        for (AttributePath path : index.projection()) {
            context.add(path.resolve(image));
        }
        return context;
    }

    @Override
    public IndexProjector.Changed changed(ItemKey key, Map<String, AttributeValue> before, Map<String, AttributeValue> after) {
        if (before == null || after == null) {
            return IndexLayout.unrestricted(this, key, before, after);
        }
        boolean coveredBefore = index.covers(before);
        boolean coveredAfter = index.covers(after);
        if (!coveredBefore && !coveredAfter) {
            return new IndexProjector.Changed(ItemProjection.EMPTY, ItemProjection.EMPTY);
        }
        if (!coveredBefore || !coveredAfter || !context(before).equals(context(after))) {
            return IndexLayout.unrestricted(this, key, before, after);
        }
        if (!(index.values() instanceof ValueSource.MapEntries)) {
            // the items are a function of coverage, context and the value: the same value gives the same items
            return Objects.equals(index.values().path().resolve(before), index.values().path().resolve(after))
                    ? new IndexProjector.Changed(ItemProjection.EMPTY, ItemProjection.EMPTY)
                    : IndexLayout.unrestricted(this, key, before, after);
        }
        AttributeValue oldMap = index.values().path().resolve(before);
        AttributeValue newMap = index.values().path().resolve(after);
        if (oldMap == null || newMap == null || !oldMap.hasM() || !newMap.hasM()
                || oldMap.type() != AttributeValue.Type.M || newMap.type() != AttributeValue.Type.M) {
            return IndexLayout.unrestricted(this, key, before, after);
        }
        Map<String, AttributeValue> oldEntries = oldMap.m();
        Map<String, AttributeValue> newEntries = newMap.m();
        Predicate<String> changed = entry -> !Objects.equals(oldEntries.get(entry), newEntries.get(entry));
        return new IndexProjector.Changed(project(key, before, changed), project(key, after, changed));
    }

    private ItemProjection project(ItemKey key, Map<String, AttributeValue> image, Predicate<String> entries) {
        if (!index.covers(image)) {
            return ItemProjection.EMPTY;
        }
        String itemKey;
        try {
            itemKey = SortKeyCodec.encodeItemKey(key);
        } catch (UnindexableValueException | NumberFormatException e) {
            return rejected(key, "the item's key holds a number outside DynamoDB's range");
        }
        if (DynamoDbLimits.utf8Bytes(itemKey) > table.maxItemKeyBytes()) {
            return rejected(key, "the item's key takes more than table.maxItemKeyBytes (" + table.maxItemKeyBytes()
                    + ") bytes of the sort key");
        }
        List<AttributeValue> group = new ArrayList<>();
        for (AttributePath path : index.group()) {
            AttributeValue part = path.resolve(image);
            if (part == null || part.type() == AttributeValue.Type.NUL) {
                return rejected(key, "group attribute " + path + " is missing");
            }
            if (!Set.of(AttributeValue.Type.S, AttributeValue.Type.N, AttributeValue.Type.B, AttributeValue.Type.BOOL)
                    .contains(part.type())) {
                return rejected(key, "group attribute " + path + " is of type " + part.type() + ", not a string, number, binary or boolean");
            }
            group.add(part);
        }
        List<Map.Entry<IndexValue, Integer>> tieBreakers = new ArrayList<>();
        for (TieBreaker tieBreaker : index.orderBy()) {
            AttributeValue value = tieBreaker.path().resolve(image);
            if (value == null || value.type() == AttributeValue.Type.NUL) {
                tieBreakers.add(new AbstractMap.SimpleImmutableEntry<>(null, tieBreaker.maxBytes()));
                continue;
            }
            try {
                if (!Set.of(AttributeValue.Type.S, AttributeValue.Type.N, AttributeValue.Type.BOOL).contains(value.type())) {
                    throw new UnindexableValueException("of type " + value.type());
                }
                tieBreakers.add(new AbstractMap.SimpleImmutableEntry<>(FieldValues.scalar(value), tieBreaker.maxBytes()));
            } catch (UnindexableValueException e) {
                return rejected(key, "orderBy attribute " + tieBreaker.path() + " is " + e.getMessage()
                        + "; a tie-breaker is a string, a number or a boolean");
            }
        }
        Map<String, AttributeValue> attrs = new LinkedHashMap<>();
        for (AttributePath path : index.projection()) {
            AttributeValue value = path.resolve(image);
            if (value != null) {
                attrs.put(path.toString(), value);
            }
        }
        Parts parts = new Parts(key, itemKey, group, tieBreakers, attrs);
        ItemProjection values = values(parts, key, image, entries);
        if (!index.counts().total()) {
            return values;
        }
        // a kept group total counts one member item per indexed item, whatever its values
        String members = com.multikey.index.counts.CountLayout.memberPartition(partition(index.name(), group, null));
        if (DynamoDbLimits.utf8Bytes(members) > DynamoDbLimits.MAX_PARTITION_KEY_BYTES) {
            List<Rejection> rejections = new ArrayList<>(values.rejections());
            rejections.add(new Rejection.Image(key, index.name(), "the group total's member partition (index name, group) "
                    + "is longer than " + DynamoDbLimits.MAX_PARTITION_KEY_BYTES + " bytes; the item is not counted in it"));
            return new ItemProjection(values.items(), rejections);
        }
        Set<IndexItem> items = new java.util.HashSet<>(values.items());
        items.add(member(parts));
        return new ItemProjection(items, values.rejections());
    }

    /** The member item of an indexed item: what a kept group total counts. */
    private IndexItem member(Parts parts) {
        String partition = com.multikey.index.counts.CountLayout.memberPartition(partition(index.name(), parts.group(), null));
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put(IndexKey.ATTRIB_ID, AttributeValue.fromS(partition));
        item.put(IndexKey.SORT_KEY, AttributeValue.fromS(parts.itemKey()));
        item.put(IndexItem.INDEX, AttributeValue.fromS(index.name()));
        item.put(IndexItem.ITEM_KEY, AttributeValue.fromM(parts.key().attributes()));
        item.put(IndexItem.MEMBER, AttributeValue.fromBool(true));
        return new IndexItem(index.name(), new IndexKey(partition, parts.itemKey()), parts.key(), new IndexValue.Bool(true),
                IndexItem.normalized(item));
    }

    private ItemProjection values(Parts parts, ItemKey key, Map<String, AttributeValue> image, Predicate<String> entries) {
        AttributeValue source = index.values().path().resolve(image);
        if (source == null || source.type() == AttributeValue.Type.NUL) {
            return ItemProjection.EMPTY;
        }
        String field = index.values().path().toString();
        return switch (index.values()) {
            case ValueSource.MapEntries m -> {
                if (source.type() != AttributeValue.Type.M) {
                    yield rejected(key, field + " is of type " + source.type() + ", not a map");
                }
                Map<IndexKey, IndexItem> items = new LinkedHashMap<>();
                List<Rejection> rejections = new ArrayList<>();
                for (Map.Entry<String, AttributeValue> entry : source.m().entrySet()) {
                    if (entries.test(entry.getKey())) {
                        add(parts, entry.getKey(), entry.getValue(), items, rejections);
                    }
                }
                yield new ItemProjection(Set.copyOf(items.values()), rejections);
            }
            case ValueSource.Elements e -> {
                if (!Set.of(AttributeValue.Type.L, AttributeValue.Type.SS, AttributeValue.Type.NS).contains(source.type())) {
                    yield fieldRejected(key, field, "is of type " + source.type() + ", not a list or a string or number set");
                }
                yield single(parts, field, source);
            }
            case ValueSource.Words w -> {
                List<IndexValue> texts;
                try {
                    texts = FieldValues.of(source);
                } catch (UnindexableValueException e) {
                    yield fieldRejected(key, field, "is " + e.getMessage() + ", not a text or a list or set of texts");
                }
                yield words(parts, field, texts);
            }
            case ValueSource.Scalar s -> {
                if (!Set.of(AttributeValue.Type.S, AttributeValue.Type.N, AttributeValue.Type.BOOL).contains(source.type())) {
                    yield fieldRejected(key, field, "is of type " + source.type()
                            + ", not a string, number or boolean (index a list's or set's elements with elementsOf)");
                }
                yield single(parts, field, source);
            }
        };
    }

    /**
     * The items of a words index: one per distinct word ({@link Words}) of the field's texts (its numbers and booleans
     * have none); all of them, or none and a rejection.
     */
    private ItemProjection words(Parts parts, String field, List<IndexValue> texts) {
        java.util.LinkedHashSet<String> words = new java.util.LinkedHashSet<>();
        for (IndexValue value : texts) {
            if (value instanceof IndexValue.Text text) {
                words.addAll(Words.of(text.value()));
            }
        }
        Map<IndexKey, IndexItem> items = new LinkedHashMap<>();
        List<Rejection> rejections = new ArrayList<>();
        for (String word : words) {
            add(parts, null, AttributeValue.fromS(word), items, rejections);
        }
        if (!rejections.isEmpty()) {
            return fieldRejected(parts.key(), field, rejections.get(0).reason());
        }
        return new ItemProjection(Set.copyOf(items.values()), List.of());
    }

    /** What every index item of one item version shares. */
    private record Parts(ItemKey key, String itemKey, List<AttributeValue> group,
                         List<Map.Entry<IndexValue, Integer>> tieBreakers, Map<String, AttributeValue> attrs) {
    }

    private ItemProjection single(Parts parts, String field, AttributeValue source) {
        Map<IndexKey, IndexItem> items = new LinkedHashMap<>();
        List<Rejection> rejections = new ArrayList<>();
        add(parts, null, source, items, rejections);
        if (!rejections.isEmpty()) {
            return fieldRejected(parts.key(), field, rejections.get(0).reason());
        }
        return new ItemProjection(Set.copyOf(items.values()), List.of());
    }

    /** The items of one field (a map entry, or the indexed attribute): all of them, or none and a rejection. */
    private void add(Parts parts, String entry, AttributeValue source, Map<IndexKey, IndexItem> items, List<Rejection> rejections) {
        String partition = partition(index.name(), parts.group(), entry);
        String field = entry == null ? index.values().path().toString() : entry;
        if (DynamoDbLimits.utf8Bytes(partition) > DynamoDbLimits.MAX_PARTITION_KEY_BYTES) {
            rejections.add(new Rejection.Field(parts.key(), index.name(), field, "index partition key (index name, group"
                    + (entry == null ? "" : ", entry name") + ") longer than " + DynamoDbLimits.MAX_PARTITION_KEY_BYTES + " bytes"));
            return;
        }
        List<IndexItem> made = new ArrayList<>();
        try {
            for (IndexValue value : FieldValues.of(source)) {
                made.add(item(parts, partition, value));
            }
        } catch (UnindexableValueException e) {
            rejections.add(new Rejection.Field(parts.key(), index.name(), field, e.getMessage()));
            return;
        }
        made.forEach(item -> items.put(item.key(), item));
    }

    private IndexItem item(Parts parts, String partition, IndexValue value) {
        String sortKey = SortKeyCodec.encodeGrouped(value, valueBytes, parts.tieBreakers(), parts.itemKey());
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put(IndexKey.ATTRIB_ID, AttributeValue.fromS(partition));
        item.put(IndexKey.SORT_KEY, AttributeValue.fromS(sortKey));
        item.put(IndexItem.INDEX, AttributeValue.fromS(index.name()));
        item.put(IndexItem.ITEM_KEY, AttributeValue.fromM(parts.key().attributes()));
        if (!parts.attrs().isEmpty()) {
            item.put(IndexItem.ATTRS, AttributeValue.fromM(parts.attrs()));
        }
        return IndexItem.sized(new IndexItem(index.name(), new IndexKey(partition, sortKey), parts.key(), value,
                IndexItem.normalized(item)));
    }

    private ItemProjection rejected(ItemKey key, String reason) {
        return new ItemProjection(Set.of(), List.of(new Rejection.Image(key, index.name(), reason)));
    }

    private ItemProjection fieldRejected(ItemKey key, String field, String reason) {
        return new ItemProjection(Set.of(), List.of(new Rejection.Field(key, index.name(), field, field + " " + reason)));
    }
}
