package com.multikey.index;

import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The grouped layout keeps the order a declared index promises (value, then tie-breakers with a missing one first,
 * then the item key) for composite keys of every key type, and its partitions never mix indexes, groups or entries.
 */
class GroupedLayoutPropertiesTest {

    private static final IndexDefinitions STRING_NUMBER_KEYS = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: pk, type: S}, sortKey: {name: sk, type: N}}
            indexes:
              - name: fields
                values: {entriesOf: cf}
                orderBy: [rank]
            """);
    private static final IndexDefinitions NUMBER_BINARY_KEYS = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: id, type: N}, sortKey: {name: v, type: B}}
            indexes:
              - name: tags
                group: [team, tier]
                values: {elementsOf: tags}
            """);

    /** One index item's parts in the order the index promises. */
    record Entry(IndexValue value, Optional<IndexValue> rank, String pk, BigDecimal sk) {
    }

    private static final Comparator<Optional<IndexValue>> MISSING_FIRST =
            (a, b) -> a.isEmpty() || b.isEmpty() ? Boolean.compare(a.isPresent(), b.isPresent()) : IndexOrder.VALUE.compare(a.get(), b.get());
    private static final Comparator<Entry> ORDER = Comparator.comparing(Entry::value, IndexOrder.VALUE)
            .thenComparing(Entry::rank, MISSING_FIRST)
            .thenComparing(Entry::pk, IndexOrder::compareCodePoints)
            .thenComparing(Entry::sk);

    @Property(tries = 3000)
    void sortKeys_compareAsUtf8Bytes_likeValueTieBreakerItemKey(@ForAll("entries") Entry a, @ForAll("entries") Entry b) {
        // when
        String keyA = sortKey(a);
        String keyB = sortKey(b);

        // then
        assertThat(keyA.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(SortKeyCodec.MAX_KEY_BYTES);
        assertThat(Integer.signum(IndexOrder.compareKeys(keyA, keyB))).as("%s vs %s", a, b)
                .isEqualTo(Integer.signum(ORDER.compare(a, b)));
    }

    private static String sortKey(Entry entry) {
        Map<String, AttributeValue> image = new LinkedHashMap<>();
        image.put("pk", AttributeValue.fromS(entry.pk()));
        image.put("sk", AttributeValue.fromN(entry.sk().toString()));
        image.put("cf", AttributeValue.fromM(Map.of("f", entry.value().toAttributeValue())));
        entry.rank().ifPresent(rank -> image.put("rank", rank.toAttributeValue()));
        IndexProjector projector = new IndexProjector(STRING_NUMBER_KEYS);

        ItemProjection projection = projector.project(projector.keyOf(image).orElseThrow(), image);

        assertThat(projection.rejections()).isEmpty();
        assertThat(projection.items()).singleElement().satisfies(item -> assertThat(item.attribId()).isEqualTo("fields|f"));
        return projection.items().iterator().next().sortKey();
    }

    @Property(tries = 2000)
    void partitions_areEqual_onlyForTheSameIndexGroupAndEntry(@ForAll("names") String indexA, @ForAll("groups") List<AttributeValue> groupA,
                                                             @ForAll("entryNames") String entryA, @ForAll("names") String indexB,
                                                             @ForAll("groups") List<AttributeValue> groupB, @ForAll("entryNames") String entryB) {
        String a = GroupedLayout.partition(indexA, groupA, entryA);
        String b = GroupedLayout.partition(indexB, groupB, entryB);

        boolean same = indexA.equals(indexB) && canonical(groupA).equals(canonical(groupB)) && entryA.equals(entryB);
        assertThat(a.equals(b)).as("%s vs %s", a, b).isEqualTo(same);
    }

    private static List<AttributeValue> canonical(List<AttributeValue> group) {
        return group.stream().map(v -> v.n() == null ? v : AttributeValue.fromN(new BigDecimal(v.n()).stripTrailingZeros().toString())).toList();
    }

    @Property(tries = 500)
    void numberAndBinaryKeys_nameTheirSourceItem_andEveryDistinctElementOnce(@ForAll("numbers") BigDecimal id, @ForAll @Size(min = 1, max = 100) byte[] version,
                                                                           @ForAll("strings") List<String> tags) {
        Map<String, AttributeValue> image = new LinkedHashMap<>();
        image.put("id", AttributeValue.fromN(id.toString()));
        image.put("v", AttributeValue.fromB(SdkBytes.fromByteArray(version)));
        image.put("team", AttributeValue.fromS("t|1"));
        image.put("tier", AttributeValue.fromN("2"));
        image.put("tags", AttributeValue.fromL(tags.stream().map(AttributeValue::fromS).toList()));
        IndexProjector projector = new IndexProjector(NUMBER_BINARY_KEYS);
        ItemKey key = projector.keyOf(image).orElseThrow();

        ItemProjection projection = projector.project(key, image);

        assertThat(projection.rejections()).isEmpty();
        assertThat(projection.items()).extracting(IndexItem::value).containsExactlyInAnyOrderElementsOf(
                tags.stream().distinct().map(IndexValue.Text::new).toList());
        assertThat(projection.items()).allSatisfy(item -> {
            assertThat(item.attribId()).isEqualTo("tags|t%7C1|%N2");
            assertThat(IndexEntry.sourceOf(item.toItem(), NUMBER_BINARY_KEYS.table())).contains(key);
        });
    }

    @Provide
    Arbitrary<Entry> entries() {
        SortKeyCodecPropertiesTest codec = new SortKeyCodecPropertiesTest();
        Arbitrary<IndexValue> values = Arbitraries.oneOf(codec.numbers().map(IndexValue.Num::new),
                codec.strings().map(IndexValue.Text::new), Arbitraries.of(true, false).map(IndexValue.Bool::new));
        Arbitrary<Optional<IndexValue>> ranks = Arbitraries.oneOf(Arbitraries.just(Optional.empty()),
                values.map(Optional::of));
        Arbitrary<String> pks = codec.strings().filter(s -> !s.isEmpty());
        Arbitrary<BigDecimal> sks = Arbitraries.oneOf(Arbitraries.integers().between(-3, 3).map(BigDecimal::valueOf), codec.numbers());
        return Combinators.combine(values, ranks, pks, sks).as(Entry::new);
    }

    @Provide
    Arbitrary<String> names() {
        return Arbitraries.of("a", "a.b", "ab", "a-b");
    }

    @Provide
    Arbitrary<String> entryNames() {
        return Arbitraries.strings().withChars("a|%7C2#").ofMaxLength(4);
    }

    @Provide
    Arbitrary<List<AttributeValue>> groups() {
        Arbitrary<AttributeValue> part = Arbitraries.oneOf(
                Arbitraries.strings().withChars("a|%N7C2#").ofMaxLength(4).map(AttributeValue::fromS),
                Arbitraries.of("7", "7.0", "-7", "70").map(AttributeValue::fromN),
                Arbitraries.of(true, false).map(AttributeValue::fromBool));
        return part.list().ofMaxSize(2);
    }

    @Provide
    Arbitrary<BigDecimal> numbers() {
        return new SortKeyCodecPropertiesTest().numbers();
    }

    @Provide
    Arbitrary<List<String>> strings() {
        return Arbitraries.strings().withChars("ab|\u0001").ofMaxLength(3).list().ofMaxSize(5);
    }
}
