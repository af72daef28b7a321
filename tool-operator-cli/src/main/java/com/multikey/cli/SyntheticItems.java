package com.multikey.cli;

import com.multikey.index.definition.AttributePath;
import com.multikey.index.definition.Condition;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.KeySchema;
import com.multikey.index.definition.TieBreaker;
import com.multikey.index.definition.ValueSource;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Items made from an index's definition alone, for a plan without a table: {@value #ITEMS} items the index covers, in
 * {@value #GROUPS} groups, each with a map of {@value #ENTRIES} entries (numbers 0-99), a list of {@value #ELEMENTS}
 * elements out of {@value #DISTINCT_ELEMENTS}, or a string value out of {@value #DISTINCT_VALUES}; tie-breakers are
 * numbers, projected attributes strings of {@value #PROJECTED_CHARACTERS} characters. These are the plan's stated
 * assumptions ({@link #ASSUMPTIONS}).
 */
final class SyntheticItems {

    static final int ITEMS = 200;
    static final int GROUPS = 10;
    static final int ENTRIES = 20;
    static final int ELEMENTS = 3;
    static final int DISTINCT_ELEMENTS = 10;
    static final int DISTINCT_VALUES = 50;
    static final int PROJECTED_CHARACTERS = 32;

    static final List<String> ASSUMPTIONS = List.of(
            "no table read: each index measured on " + ITEMS + " items made from its definition, all covered by it, in " + GROUPS + " groups",
            "a map (entriesOf) has " + ENTRIES + " entries, numbers 0-99 (docs/cost.md's 20 custom fields)",
            "a list or set (elementsOf) has " + ELEMENTS + " distinct elements out of " + DISTINCT_ELEMENTS,
            "a scalar value is one of " + DISTINCT_VALUES + " strings of about 10 characters; tie-breakers are numbers",
            "a projected attribute is a string of " + PROJECTED_CHARACTERS + " characters; item keys are strings of about 12 characters");

    private SyntheticItems() {
    }

    static List<Map<String, AttributeValue>> of(IndexDefinition index, KeySchema table) {
        Random random = new Random(index.name().hashCode());
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (int i = 0; i < ITEMS; i++) {
            Map<String, AttributeValue> item = new LinkedHashMap<>();
            for (KeySchema.KeyAttribute key : table.attributes()) {
                item.put(key.name(), switch (key.type()) {
                    case S -> AttributeValue.fromS("item#" + String.format("%07d", i));
                    case N -> AttributeValue.fromN(Integer.toString(i));
                    case B -> AttributeValue.fromB(SdkBytes.fromString("item" + i, StandardCharsets.UTF_8));
                });
            }
            for (AttributePath group : index.group()) {
                item = TypicalChanges.with(item, group, AttributeValue.fromS("group-" + i % GROUPS));
            }
            item = TypicalChanges.with(item, index.values().path(), value(index.values(), random));
            for (TieBreaker tieBreaker : index.orderBy()) {
                item = TypicalChanges.with(item, tieBreaker.path(), AttributeValue.fromN(Integer.toString(i)));
            }
            for (AttributePath projected : index.projection()) {
                item = TypicalChanges.with(item, projected, AttributeValue.fromS("p".repeat(PROJECTED_CHARACTERS)));
            }
            for (Condition condition : index.covers()) {
                item = TypicalChanges.with(item, condition.path(), switch (condition) {
                    case Condition.BeginsWith begins -> AttributeValue.fromS(begins.prefix() + String.format("%07d", i));
                    case Condition.Equals equals -> equals.value();
                    case Condition.Exists exists -> condition.path().resolve(item) != null ? condition.path().resolve(item)
                            : AttributeValue.fromS("present");
                });
            }
            items.add(item);
        }
        return items;
    }

    private static AttributeValue value(ValueSource values, Random random) {
        return switch (values) {
            case ValueSource.MapEntries entries -> {
                Map<String, AttributeValue> map = new LinkedHashMap<>();
                for (int e = 0; e < ENTRIES; e++) {
                    map.put("f" + e, AttributeValue.fromN(Integer.toString(random.nextInt(100))));
                }
                yield AttributeValue.fromM(map);
            }
            case ValueSource.Elements elements -> {
                List<String> pool = new ArrayList<>();
                for (int e = 0; e < DISTINCT_ELEMENTS; e++) {
                    pool.add("element-" + e);
                }
                java.util.Collections.shuffle(pool, random);
                yield AttributeValue.fromSs(pool.subList(0, ELEMENTS));
            }
            case ValueSource.Words words -> AttributeValue.fromS("value " + random.nextInt(DISTINCT_VALUES) + " and "
                    + random.nextInt(DISTINCT_VALUES));
            case ValueSource.Scalar scalar -> AttributeValue.fromS("value-" + random.nextInt(DISTINCT_VALUES));
        };
    }
}
