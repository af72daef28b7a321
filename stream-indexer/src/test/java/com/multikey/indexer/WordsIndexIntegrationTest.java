package com.multikey.indexer;

import com.multikey.common.Backoff;
import com.multikey.common.Sleeper;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.query.CursorKeys;
import com.multikey.query.CursorSealer;
import com.multikey.query.GridSettings;
import com.multikey.query.IndexQuery;
import com.multikey.query.InvalidPredicateException;
import com.multikey.query.Order;
import com.multikey.query.Page;
import com.multikey.query.PageRequest;
import com.multikey.query.PredicateText;
import com.multikey.query.QueryException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A words index end to end on the local DynamoDB engine: issues written to the app table, their stream records delivered to
 * the real stream indexer handler, then read with {@code has} and {@code has prefix}: after inserts, after titles change and
 * after deletes, every page lists exactly the issues whose titles hold the word, in num order, each once, driven from the
 * words index (no more items read than twice the matches).
 */
@ExtendWith(IndexerStackExtension.class)
class WordsIndexIntegrationTest {

    private static final IndexDefinitions DEFINITIONS = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: id, type: S}}
            indexes:
              - name: issues-by-num
                covers: [{attribute: id, beginsWith: "issue#"}]
                group: project
                values: {attribute: num}
              - name: title-words
                covers: [{attribute: id, beginsWith: "issue#"}]
                group: project
                values: {wordsOf: title}
                orderBy: num
            """);
    private static final List<String> WORDS = List.of("timeout", "timer", "time", "crash", "fix", "db", "slow", "login");

    private final IndexerStack stack;
    /** The app table as the test wrote it: id to title, of project p1. */
    private final Map<String, String> titles = new TreeMap<>();

    WordsIndexIntegrationTest(IndexerStack stack) {
        this.stack = stack;
    }

    @BeforeEach
    void definitions() {
        stack.config = new IndexerConfig(stack.config.indexTableName(), stack.appTable(), DEFINITIONS);
    }

    private void write(String project, int num, String title) {
        String id = "issue#" + project + "-" + num;
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("id", AttributeValue.fromS(id));
        item.put("project", AttributeValue.fromS(project));
        item.put("num", AttributeValue.fromN(Integer.toString(num)));
        item.put("title", AttributeValue.fromS(title));
        stack.put(item);
        if (project.equals("p1")) {
            titles.put(id, title);
        }
    }

    private static String title(Random random) {
        List<String> parts = new ArrayList<>();
        for (int w = 0, n = 1 + random.nextInt(4); w < n; w++) {
            String word = WORDS.get(random.nextInt(WORDS.size()));
            parts.add(random.nextBoolean() ? word : word.toUpperCase(Locale.ROOT));
        }
        return String.join(random.nextBoolean() ? " " : ", ", parts) + (random.nextBoolean() ? "!" : "");
    }

    private IndexQuery reader() {
        return new IndexQuery(stack.dynamoDb, stack.appTable(), stack.config.indexTableName(), DEFINITIONS, Backoff.standard(),
                Sleeper.SYSTEM, Duration.ofSeconds(30), System::nanoTime, CursorSealer.of(CursorKeys.ephemeral()), GridSettings.NONE);
    }

    /** The ids of p1's issues whose title holds a word matching {@code test}, in num order: written out from the titles. */
    private List<String> expected(java.util.function.Predicate<String> word) {
        return titles.entrySet().stream()
                .filter(e -> java.util.Arrays.stream(e.getValue().toLowerCase(Locale.ROOT).split("[^a-z]+")).anyMatch(word))
                .map(Map.Entry::getKey)
                .sorted(java.util.Comparator.comparing(id -> Integer.parseInt(id.substring(id.indexOf('-') + 1))))
                .toList();
    }

    /** Every page of p1's issues by num where {@code where}. */
    private List<String> read(String where, Order order) {
        IndexQuery query = reader();
        PageRequest request = PageRequest.onIndex("issues-by-num", List.of(AttributeValue.fromS("p1")), "", order, 7)
                .where(List.of(PredicateText.parse(where, 0))).withExplain();
        List<String> ids = new ArrayList<>();
        for (int n = 0; n < 100; n++) {
            Page page = query.page(request);
            page.items().forEach(item -> ids.add(item.get("id").s()));
            if (page.nextCursor().isEmpty()) {
                return ids;
            }
            request = request.after(page.nextCursor().get());
        }
        throw new AssertionError("more than 100 pages");
    }

    @Test
    void handler_indexesEachWord_andHasReadsExactlyTheIssuesHoldingIt_afterUpdatesAndDeletes() {
        // given: 120 issues of p1 and 30 of p2 with titles of a few words, indexed by the handler from the stream
        Random random = new Random(11);
        for (int num = 1; num <= 120; num++) {
            write("p1", num, title(random));
        }
        for (int num = 1; num <= 30; num++) {
            write("p2", num, "timeout " + title(random));
        }
        stack.pump();

        // then: a word few titles hold is read from the words index in page order (the index orders by num, the
        // request's sort), reading twice as many items as it lists at most
        Page first = reader().page(PageRequest.onIndex("issues-by-num", List.of(AttributeValue.fromS("p1")), "", Order.ASC, 100)
                .where(List.of(PredicateText.parse("title has login", 0))).withExplain());
        assertThat(first.explain().orElseThrow().plan()).isEqualTo("ordered-drive(where[0]: title has \"login\")");
        assertThat(first.examined()).isLessThanOrEqualTo(2 * expected("login"::equals).size());
        assertThat(read("title has \"Timeout\"", Order.ASC)).isEqualTo(expected("timeout"::equals));
        assertThat(read("@title has prefix time", Order.ASC)).isEqualTo(expected(w -> w.startsWith("time")));
        assertThat(read("title has crash", Order.DESC)).isEqualTo(expected("crash"::equals).reversed());
        assertThat(read("title has nowhere", Order.ASC)).isEmpty();

        // when: titles change (words come and go, the case only changes, or nothing indexed changes) and issues are deleted
        for (int num = 1; num <= 120; num += 3) {
            write("p1", num, num % 2 == 0 ? titles.get("issue#p1-" + num).toUpperCase(Locale.ROOT) : title(random));
        }
        for (int num = 2; num <= 120; num += 10) {
            stack.delete("issue#p1-" + num);
            titles.remove("issue#p1-" + num);
        }
        stack.pump();

        // then: the index is exactly the current titles' words, and every read lists exactly what the titles say
        assertThat(stack.storedIndex()).isEqualTo(stack.expectedStoredIndex());
        for (String word : WORDS) {
            assertThat(read("title has " + word, Order.ASC)).as(word).isEqualTo(expected(word::equals));
        }
        assertThat(read("title has prefix ti", Order.DESC)).isEqualTo(expected(w -> w.startsWith("ti")).reversed());
    }

    @Test
    void has_onAFieldWithoutAWordsIndex_orReadingTheWordsIndexItself_isRefused() {
        IndexQuery query = reader();
        PageRequest byNum = PageRequest.onIndex("issues-by-num", List.of(AttributeValue.fromS("p1")), "", Order.ASC, 10);

        assertThatThrownBy(() -> query.page(byNum.where(List.of(PredicateText.parse("state has open", 0)))))
                .isInstanceOfSatisfying(InvalidPredicateException.class, e -> assertThat(e.position()).isZero())
                .hasMessageContaining("no words index holds those of 'state'").hasMessageContaining("wordsOf: state");
        assertThatThrownBy(() -> query.page(PageRequest.onIndex("title-words", List.of(AttributeValue.fromS("p1")), "", Order.ASC, 10)))
                .isInstanceOf(QueryException.class).hasMessageContaining("holds the words of title");
    }
}
