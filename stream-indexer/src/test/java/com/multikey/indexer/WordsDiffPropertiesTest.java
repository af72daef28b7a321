package com.multikey.indexer;

import com.multikey.common.ChangeRecord;
import com.multikey.index.IndexChange;
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
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The indexer's diff for a words index: for an item whose title changes from one text to another, the batch's writes are a
 * put for each word only the new text has and a delete for each word only the old one has, nothing for the words both
 * share; and for any history of titles the index ends with the last title's words.
 */
class WordsDiffPropertiesTest {

    static final IndexDefinitions DEFINITIONS = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: id, type: S}}
            indexes:
              - name: title-words
                covers: [{attribute: id, beginsWith: "issue#"}]
                group: project
                values: {wordsOf: title}
                orderBy: num
            """);
    static final List<String> VOCABULARY = List.of("timeout", "time", "timer", "fix", "crash", "db", "42", "été");
    static final ItemKey KEY = ItemKey.ofString("id", "issue#1");

    private final BatchPlanner planner = new BatchPlanner(new IndexerConfig("index", "", DEFINITIONS));
    private final IndexProjector projector = new IndexProjector(DEFINITIONS);

    /** A title written from some words of the vocabulary, each in some case, between separators; and the words it holds. */
    record Title(String text, Set<String> words) {
    }

    @Provide
    Arbitrary<Title> titles() {
        Arbitrary<String> separator = Arbitraries.of(" ", ", ", " - ", "'", ": ", "\n", "/");
        Arbitrary<Map.Entry<String, String>> word = Combinators.combine(Arbitraries.of(VOCABULARY), Arbitraries.integers().between(0, 2))
                .as((w, casing) -> Map.entry(w, switch (casing) {
                    case 0 -> w;
                    case 1 -> w.toUpperCase(java.util.Locale.ROOT);
                    default -> w.substring(0, 1).toUpperCase(java.util.Locale.ROOT) + w.substring(1);
                }));
        return Combinators.combine(word.list().ofMaxSize(8), separator.list().ofSize(9)).as((words, separators) -> {
            StringBuilder text = new StringBuilder();
            Set<String> distinct = new LinkedHashSet<>();
            for (int i = 0; i < words.size(); i++) {
                text.append(separators.get(i)).append(words.get(i).getValue());
                distinct.add(words.get(i).getKey());
            }
            return new Title(text.append(separators.get(8)).toString(), distinct);
        });
    }

    private static Map<String, AttributeValue> issue(String title) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("id", AttributeValue.fromS("issue#1"));
        item.put("project", AttributeValue.fromS("p1"));
        item.put("num", AttributeValue.fromN("1"));
        if (title != null) {
            item.put("title", AttributeValue.fromS(title));
        }
        return item;
    }

    /** The index key of one word of the item: the key of its only index item when its title is that word alone. */
    private IndexKey keyOf(String word) {
        return projector.project(KEY, issue(word)).items().iterator().next().key();
    }

    private Set<IndexKey> keysOf(Set<String> words) {
        return words.stream().map(this::keyOf).collect(Collectors.toSet());
    }

    @Property(tries = 500)
    void plan_aChangedTitle_putsTheNewWordsAndDeletesTheGoneOnes(@ForAll("titles") Title before, @ForAll("titles") Title after) {
        BatchPlan plan = planner.plan(StreamRecords.lambdaRecords(List.of(StreamRecords.change(1, "issue#1", issue(before.text()),
                issue(after.text())))).stream().map(ChangeRecord::from).toList());

        Set<String> added = new LinkedHashSet<>(after.words());
        added.removeAll(before.words());
        Set<String> gone = new LinkedHashSet<>(before.words());
        gone.removeAll(after.words());
        assertThat(plan.changes().stream().filter(c -> c instanceof IndexChange.Put).map(IndexChange::key).collect(Collectors.toSet()))
                .isEqualTo(keysOf(added));
        assertThat(plan.changes().stream().filter(c -> c instanceof IndexChange.Delete).map(IndexChange::key).collect(Collectors.toSet()))
                .isEqualTo(keysOf(gone));
        assertThat(plan.changes()).hasSize(added.size() + gone.size());
    }

    @Property(tries = 200)
    void plan_anyHistoryOfTitles_leavesTheLastTitlesWords(@ForAll("histories") List<Title> history) {
        Map<IndexKey, IndexChange> index = new HashMap<>();
        String previous = null;
        long sequence = 1;
        List<software.amazon.awssdk.services.dynamodb.model.Record> records = new java.util.ArrayList<>();
        for (Title title : history) {
            records.add(StreamRecords.change(sequence++, "issue#1", previous == null ? null : issue(previous), issue(title.text())));
            previous = title.text();
        }
        BatchPlan plan = planner.plan(StreamRecords.lambdaRecords(records).stream().map(ChangeRecord::from).toList());
        for (IndexChange change : plan.changes()) {
            index.put(change.key(), change);
        }

        Set<IndexKey> present = index.values().stream().filter(c -> c instanceof IndexChange.Put).map(IndexChange::key)
                .collect(Collectors.toSet());
        assertThat(present).isEqualTo(keysOf(history.get(history.size() - 1).words()));
    }

    @Provide
    Arbitrary<List<Title>> histories() {
        return titles().list().ofMinSize(1).ofMaxSize(6);
    }
}
