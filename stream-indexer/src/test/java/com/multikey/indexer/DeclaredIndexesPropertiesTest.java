package com.multikey.indexer;

import com.multikey.common.Deadline;
import com.multikey.index.IndexChange;
import com.multikey.index.IndexDiff;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.IndexProjector;
import com.multikey.index.ItemKey;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every declared index at once, for tables of every key shape: random histories of item versions, delivered in any
 * batching, replayed from any record, and with write failures answered as Lambda answers them, leave the index
 * exactly equal to a rebuild from the items' last versions; and one change writes exactly the diff of the two
 * versions' index items, nothing for what no index reads.
 *
 * <p>Three definition sets: the single-table example (pk/sk strings; map entries, list elements and sparse scalar
 * indexes over three entity types); a table keyed by a number and a binary value, with groups of a number and a
 * nested string; and the issue grid's field-partitioned index beside grouped indexes over the same items.
 */
class DeclaredIndexesPropertiesTest {

    static final IndexDefinitions SINGLE_TABLE = DefinitionsYaml.read(Path.of("..", "examples", "single-table", "index-definitions.yaml"));
    static final String NUMBER_AND_BINARY_KEYS_YAML = """
            version: 1
            table: {partitionKey: {name: id, type: N}, sortKey: {name: ver, type: B}}
            indexes:
              - name: attrs
                group: [team, org.region]
                values: {entriesOf: attrs}
                orderBy: [rank, {attribute: title, maxBytes: 48}]
                projection: [title]
              - name: tags
                covers: [{attribute: kind, equals: task}]
                values: {elementsOf: tags}
              - name: status
                covers: [{attribute: status, exists: true}]
                group: team
                values: {attribute: status}
                orderBy: rank
            """;
    static final IndexDefinitions NUMBER_AND_BINARY_KEYS = DefinitionsYaml.parse(NUMBER_AND_BINARY_KEYS_YAML);
    static final String GRID_AND_GROUPED_YAML = """
            version: 1
            table: {partitionKey: {name: id, type: S}}
            indexes:
              - name: custom_fields
                layout: field-partitioned
                covers: [{attribute: id, beginsWith: "issue#"}]
                group: project
                values: {entriesOf: custom_fields}
                orderBy: num
              - name: issue-grid
                covers: [{attribute: id, beginsWith: "issue#"}]
                group: project
                values: {entriesOf: custom_fields}
                orderBy: num
              - name: labels
                group: project
                values: {elementsOf: labels}
            """;
    static final IndexDefinitions GRID_AND_GROUPED = DefinitionsYaml.parse(GRID_AND_GROUPED_YAML);

    /** A shape of table: its definitions, the keys of its items, and versions of them. */
    enum Shape {
        SINGLE_TABLE(DeclaredIndexesPropertiesTest.SINGLE_TABLE),
        NUMBER_AND_BINARY_KEYS(DeclaredIndexesPropertiesTest.NUMBER_AND_BINARY_KEYS),
        GRID_AND_GROUPED(DeclaredIndexesPropertiesTest.GRID_AND_GROUPED);

        final IndexDefinitions definitions;

        Shape(IndexDefinitions definitions) {
            this.definitions = definitions;
        }

        IndexerConfig config() {
            return new IndexerConfig("index", "app", definitions);
        }

        List<Map<String, AttributeValue>> keys() {
            return switch (this) {
                case SINGLE_TABLE -> List.of(
                        Map.of("pk", s("PROJECT#p1"), "sk", s("ISSUE#1")), Map.of("pk", s("PROJECT#p2"), "sk", s("ISSUE#1")),
                        Map.of("pk", s("PROJECT#p1"), "sk", s("PROJECT#p1")),
                        Map.of("pk", s("lyr#ap-southeast-1.requests"), "sk", s("lyrVrsn12#")),
                        Map.of("pk", s("lyr#us-east-1.requests"), "sk", s("lyrVrsn0#")));
                case NUMBER_AND_BINARY_KEYS -> List.of(
                        Map.of("id", AttributeValue.fromN("1"), "ver", b(1)), Map.of("id", AttributeValue.fromN("-2.5"), "ver", b(1)),
                        Map.of("id", AttributeValue.fromN("1"), "ver", b(2)));
                case GRID_AND_GROUPED -> List.of(Map.of("id", s("issue#a")), Map.of("id", s("issue#b")), Map.of("id", s("project#1")));
            };
        }
    }

    /** One step of a history: item {@code item} gets a new version, or is removed (empty). */
    record Step(int item, Optional<Map<String, AttributeValue>> version) {
    }

    record Case(Shape shape, List<Step> steps) {
    }

    /** The records of a history, and the last version of each item. */
    record History(List<Record> records, Map<ItemKey, Map<String, AttributeValue>> last) {

        static History of(Case c) {
            IndexProjector projector = new IndexProjector(c.shape().definitions);
            Map<ItemKey, Map<String, AttributeValue>> current = new LinkedHashMap<>();
            List<Record> records = new ArrayList<>();
            long sequence = 100;
            for (Step step : c.steps()) {
                Map<String, AttributeValue> keys = c.shape().keys().get(step.item() % c.shape().keys().size());
                ItemKey key = projector.keyOf(keys).orElseThrow();
                Map<String, AttributeValue> before = current.get(key);
                Map<String, AttributeValue> after = step.version().map(v -> {
                    Map<String, AttributeValue> item = new LinkedHashMap<>(v);
                    item.putAll(keys);
                    return item;
                }).orElse(null);
                if (before == null && after == null) {
                    continue;
                }
                records.add(StreamRecords.change(sequence++, keys, before, after));
                if (after == null) {
                    current.remove(key);
                } else {
                    current.put(key, after);
                }
            }
            return new History(records, current);
        }

        /** A rebuild from the table: every live item's projection onto every declared index. */
        Map<IndexKey, IndexItem> rebuild(IndexDefinitions definitions) {
            IndexProjector projector = new IndexProjector(definitions);
            InMemoryIndexWriter expected = new InMemoryIndexWriter();
            List<IndexChange> puts = last.entrySet().stream()
                    .flatMap(e -> projector.project(e.getKey(), e.getValue()).items().stream())
                    .<IndexChange>map(IndexChange.Put::new).toList();
            expected.write(puts, Deadline.after(Duration.ofMinutes(1)));
            return expected.items();
        }
    }

    @Property(tries = 300)
    void anyBatchingReplayAndFailure_leavesEveryIndexEqualToARebuild(@ForAll("cases") Case c,
                                                                    @ForAll @IntRange(min = 1, max = 10) int batchSize,
                                                                    @ForAll @IntRange(max = 40) int replayFrom,
                                                                    @ForAll long seed) {
        History history = History.of(c);
        InMemoryIndexWriter index = new InMemoryIndexWriter();
        IndexDiffPropertiesTest.Lambda lambda = new IndexDiffPropertiesTest.Lambda(index, batchSize, c.shape().config());

        // when: delivered with failing writes, then a suffix replayed
        lambda.deliver(history.records(), new Random(seed), 0.25);
        lambda.deliver(history.records().subList(Math.min(replayFrom, history.records().size()), history.records().size()),
                new Random(seed + 1), 0.0);

        // then
        assertThat(index.items()).isEqualTo(history.rebuild(c.shape().definitions));
    }

    @Property(tries = 300)
    void oneChange_writesExactlyTheDiffOfItsVersionsIndexItems(@ForAll("cases") Case c) {
        History history = History.of(c);
        if (history.records().isEmpty()) {
            return;
        }
        IndexProjector projector = new IndexProjector(c.shape().definitions);
        Record change = history.records().get(history.records().size() - 1);
        ItemKey key = projector.keyOf(change.dynamodb().keys()).orElseThrow();
        Map<String, AttributeValue> before = change.dynamodb().hasOldImage() ? change.dynamodb().oldImage() : null;
        Map<String, AttributeValue> after = change.dynamodb().hasNewImage() ? change.dynamodb().newImage() : null;
        List<IndexChange> minimum = IndexDiff.between(
                before == null ? List.of() : projector.project(key, before).items(),
                after == null ? List.of() : projector.project(key, after).items());
        InMemoryIndexWriter index = new InMemoryIndexWriter();
        if (before != null) {
            index.write(projector.project(key, before).items().stream().<IndexChange>map(IndexChange.Put::new).toList(),
                    Deadline.after(Duration.ofMinutes(1)));
        }
        long writesBefore = index.writes();

        new IndexDiffPropertiesTest.Lambda(index, 10, c.shape().config()).deliver(List.of(change), new Random(1), 0.0);

        assertThat(index.writes() - writesBefore).isEqualTo(minimum.size());
    }

    @Provide
    Arbitrary<Case> cases() {
        return Arbitraries.of(Shape.values()).flatMap(shape -> {
            Arbitrary<Step> step = Combinators.combine(Arbitraries.integers().between(0, shape.keys().size() - 1),
                    versions(shape).optional(0.85)).as(Step::new);
            return step.list().ofMinSize(1).ofMaxSize(30).map(steps -> new Case(shape, steps));
        });
    }

    private Arbitrary<Map<String, AttributeValue>> versions(Shape shape) {
        Arbitrary<AttributeValue> values = values();
        return switch (shape) {
            case SINGLE_TABLE -> Combinators.combine(Arbitraries.maps(Arbitraries.of("prio", "due", "size"), values).ofMaxSize(3),
                    labels(), Arbitraries.integers().between(1, 3), Arbitraries.of("latest", "deprecated", ""),
                    Arbitraries.of("requests", "boto"), Arbitraries.of("title a", "title b")).as((cf, labels, num, status, pckg, title) -> {
                        Map<String, AttributeValue> item = new LinkedHashMap<>();
                        item.put("cf", AttributeValue.fromM(cf));
                        item.put("labels", labels);
                        item.put("num", AttributeValue.fromN(Integer.toString(num)));
                        item.put("title", s(title));
                        item.put("pckg", s(pckg));
                        item.put("region", s("ap-southeast-1"));
                        item.put("vrsn", AttributeValue.fromN(Integer.toString(num)));
                        item.put("arn", s("arn:aws:lambda:ap-southeast-1:1:layer:" + pckg + ":" + num));
                        if (!status.isEmpty()) {
                            item.put("dplySts", s(status));
                        }
                        return item;
                    });
            case NUMBER_AND_BINARY_KEYS -> Combinators.combine(Arbitraries.maps(Arbitraries.of("a", "b|c", "%"), values).ofMaxSize(3),
                    labels(), Arbitraries.of("1", "2", "2.0"), Arbitraries.of("eu", "us"), Arbitraries.of("task", "note"),
                    Arbitraries.of("open", "done", "")).as((attrs, tags, team, region, kind, status) -> {
                        Map<String, AttributeValue> item = new LinkedHashMap<>();
                        item.put("attrs", AttributeValue.fromM(attrs));
                        item.put("tags", tags);
                        item.put("team", AttributeValue.fromN(team));
                        item.put("org", AttributeValue.fromM(Map.of("region", s(region))));
                        item.put("kind", s(kind));
                        item.put("rank", AttributeValue.fromN(team));
                        item.put("title", s("x".repeat(60) + kind));
                        if (!status.isEmpty()) {
                            item.put("status", s(status));
                        }
                        return item;
                    });
            case GRID_AND_GROUPED -> Combinators.combine(Arbitraries.maps(Arbitraries.of("f1", "f2", "f3"), values).ofMaxSize(3),
                    labels(), Arbitraries.of("project#1", "project#2"), Arbitraries.integers().between(1, 3),
                    Arbitraries.of("a name", "another")).as((fields, labels, project, num, name) -> {
                        Map<String, AttributeValue> item = new LinkedHashMap<>();
                        item.put("custom_fields", AttributeValue.fromM(fields));
                        item.put("labels", labels);
                        item.put("project", s(project));
                        item.put("num", AttributeValue.fromN(Integer.toString(num)));
                        item.put("name", s(name));
                        return item;
                    });
        };
    }

    private Arbitrary<AttributeValue> labels() {
        return Arbitraries.oneOf(Arbitraries.of("red", "blue", "red|x").list().ofMaxSize(3).map(l -> AttributeValue.fromL(l.stream()
                        .map(DeclaredIndexesPropertiesTest::s).toList())),
                Arbitraries.of("a", "b").set().ofMinSize(1).map(set -> AttributeValue.fromSs(List.copyOf(set))),
                Arbitraries.just(s("not a list")));
    }

    private Arbitrary<AttributeValue> values() {
        return new IndexDiffPropertiesTest().values();
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static AttributeValue b(int value) {
        return AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {(byte) value, 0, (byte) 255}));
    }
}
