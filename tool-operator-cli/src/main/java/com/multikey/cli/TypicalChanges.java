package com.multikey.cli;

import com.multikey.index.ItemKey;
import com.multikey.index.definition.AttributePath;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.KeySchema;
import com.multikey.index.definition.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The typical change of an index's items, made on each sampled item the index covers: one indexed value changes to
 * another value the sample holds there — for a map, one entry takes another value that entry has in other items
 * (a whole list or set for a multi-valued entry, as a multi-select field changes); for a list or set, one element is
 * replaced by another element of the sample; for a scalar, the value — or, when the sample holds no other, to a near
 * one ({@code n+1}, {@code text~}, the other boolean). Deterministic for a sample and an index, in any order.
 */
final class TypicalChanges {

    /** One item's change: its key and its two versions. */
    record Change(ItemKey key, Map<String, AttributeValue> before, Map<String, AttributeValue> after) {
    }

    private TypicalChanges() {
    }

    static List<Change> of(IndexDefinition index, KeySchema table, List<Map<String, AttributeValue>> sample) {
        Map<String, List<AttributeValue>> pools = pools(index, sample);
        List<Change> changes = new ArrayList<>();
        for (Map<String, AttributeValue> item : sample) {
            if (!index.covers(item)) {
                continue;
            }
            ItemKey key = ItemKey.of(table, item).orElse(null);
            AttributeValue value = index.values().path().resolve(item);
            if (key == null || value == null) {
                continue;
            }
            Random random = new Random(31L * index.name().hashCode() + key.hashCode());
            AttributeValue changed = switch (index.values()) {
                case ValueSource.MapEntries entries -> changedEntry(value, pools, random);
                case ValueSource.Elements elements -> changedElement(value, pools.getOrDefault("", List.of()), random);
                case ValueSource.Words words -> other(value, pools.getOrDefault("", List.of()), random);
                case ValueSource.Scalar scalar -> other(value, pools.getOrDefault("", List.of()), random);
            };
            if (changed != null) {
                changes.add(new Change(key, item, with(item, index.values().path(), changed)));
            }
        }
        return changes;
    }

    /** The values of the sample, by map entry name (entriesOf) or all under "" (elements, scalar). */
    private static Map<String, List<AttributeValue>> pools(IndexDefinition index, List<Map<String, AttributeValue>> sample) {
        Map<String, List<AttributeValue>> pools = new HashMap<>();
        for (Map<String, AttributeValue> item : sample) {
            AttributeValue value = index.covers(item) ? index.values().path().resolve(item) : null;
            if (value == null) {
                continue;
            }
            switch (index.values()) {
                case ValueSource.MapEntries entries -> {
                    if (value.hasM()) {
                        value.m().forEach((name, entry) -> pools.computeIfAbsent(name, n -> new ArrayList<>()).add(entry));
                    }
                }
                case ValueSource.Elements elements -> pools.computeIfAbsent("", n -> new ArrayList<>()).addAll(elements(value));
                case ValueSource.Words words -> pools.computeIfAbsent("", n -> new ArrayList<>()).add(value);
                case ValueSource.Scalar scalar -> pools.computeIfAbsent("", n -> new ArrayList<>()).add(value);
            }
        }
        pools.replaceAll((name, values) -> values.stream().distinct()
                .sorted(java.util.Comparator.comparing(AttributeSurvey::canonical)).toList());
        return pools;
    }

    private static AttributeValue changedEntry(AttributeValue map, Map<String, List<AttributeValue>> pools, Random random) {
        if (!map.hasM() || map.m().isEmpty()) {
            return null;
        }
        List<String> names = new ArrayList<>(map.m().keySet());
        names.sort(null);
        String name = names.get(random.nextInt(names.size()));
        AttributeValue entry = map.m().get(name);
        List<AttributeValue> pool = pools.getOrDefault(name, List.of());
        AttributeValue changed = other(entry, pool, random);
        if (changed == null) {
            return null;
        }
        Map<String, AttributeValue> entries = new LinkedHashMap<>(map.m());
        entries.put(name, changed);
        return AttributeValue.fromM(entries);
    }

    /** The list or set with one element replaced by another (of the same type, as a set needs). */
    private static AttributeValue changedElement(AttributeValue collection, List<AttributeValue> pool, Random random) {
        List<AttributeValue> elements = elements(collection);
        if (elements.isEmpty()) {
            return null;
        }
        int at = random.nextInt(elements.size());
        AttributeValue old = elements.get(at);
        List<AttributeValue> candidates = pool.stream().filter(v -> v.type() == old.type() && !elements.contains(v)).distinct().toList();
        AttributeValue replacement = candidates.isEmpty() ? near(old, elements) : candidates.get(random.nextInt(candidates.size()));
        List<AttributeValue> changed = new ArrayList<>(elements);
        changed.set(at, replacement);
        return switch (collection.type()) {
            case SS -> AttributeValue.fromSs(changed.stream().map(AttributeValue::s).toList());
            case NS -> AttributeValue.fromNs(changed.stream().map(AttributeValue::n).toList());
            case BS -> AttributeValue.fromBs(changed.stream().map(AttributeValue::b).toList());
            default -> AttributeValue.fromL(changed);
        };
    }

    private static AttributeValue other(AttributeValue value, List<AttributeValue> pool, Random random) {
        List<AttributeValue> others = pool.stream().filter(v -> !AttributeSurvey.canonical(v).equals(AttributeSurvey.canonical(value)))
                .distinct().toList();
        return others.isEmpty() ? near(value, List.of(value)) : others.get(random.nextInt(others.size()));
    }

    /** A value near {@code value} that none of {@code taken} is. */
    private static AttributeValue near(AttributeValue value, List<AttributeValue> taken) {
        AttributeValue near = value;
        do {
            near = switch (near.type()) {
                case N -> AttributeValue.fromN(new BigDecimal(near.n()).add(BigDecimal.ONE).toString());
                case S -> AttributeValue.fromS(near.s() + "~");
                case BOOL -> AttributeValue.fromBool(!near.bool());
                case B -> AttributeValue.fromB(software.amazon.awssdk.core.SdkBytes.fromByteArray(
                        (near.b().asUtf8String() + "~").getBytes(java.nio.charset.StandardCharsets.UTF_8)));
                default -> AttributeValue.fromS("changed");
            };
        } while (taken.contains(near));
        return near;
    }

    static List<AttributeValue> elements(AttributeValue value) {
        return switch (value.type()) {
            case L -> value.l();
            case SS -> value.ss().stream().map(AttributeValue::fromS).toList();
            case NS -> value.ns().stream().map(AttributeValue::fromN).toList();
            case BS -> value.bs().stream().map(AttributeValue::fromB).toList();
            default -> List.of(value);
        };
    }

    /** A copy of the item with the value at {@code path} replaced (maps on the way copied). */
    static Map<String, AttributeValue> with(Map<String, AttributeValue> item, AttributePath path, AttributeValue value) {
        return with(item, path.names(), 0, value);
    }

    private static Map<String, AttributeValue> with(Map<String, AttributeValue> map, List<String> names, int at, AttributeValue value) {
        Map<String, AttributeValue> copy = new LinkedHashMap<>(map);
        String name = names.get(at);
        if (at == names.size() - 1) {
            copy.put(name, value);
        } else {
            AttributeValue inner = map.get(name);
            Map<String, AttributeValue> innerMap = inner != null && inner.hasM() ? inner.m() : Map.of();
            copy.put(name, AttributeValue.fromM(with(innerMap, names, at + 1, value)));
        }
        return copy;
    }
}
