package com.multikey.index;

import com.multikey.index.definition.DefinitionException;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.index.definition.ValueSource;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WordsIndexTest {

    private static final IndexDefinitions DEFINITIONS = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: id, type: S}}
            indexes:
              - name: title-words
                covers: [{attribute: id, beginsWith: "issue#"}]
                group: project
                values: {wordsOf: title}
                orderBy: num
            """);
    private static final IndexProjector PROJECTOR = new IndexProjector(DEFINITIONS);
    private static final ItemKey KEY = ItemKey.ofString("id", "issue#1");

    private static Map<String, AttributeValue> issue(AttributeValue title) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("id", AttributeValue.fromS("issue#1"));
        item.put("project", AttributeValue.fromS("p1"));
        item.put("num", AttributeValue.fromN("7"));
        if (title != null) {
            item.put("title", title);
        }
        return item;
    }

    private static List<String> words(ItemProjection projection) {
        return projection.items().stream().map(item -> ((IndexValue.Text) item.value()).value()).sorted().toList();
    }

    @Test
    void read_wordsOf_declaresAWordsIndex() {
        assertThat(DEFINITIONS.index("title-words").orElseThrow().values()).isEqualTo(
                new ValueSource.Words(com.multikey.index.definition.AttributePath.parse("title", "test")));
    }

    @Test
    void read_wordsOfTheTablesNumberKey_isRefused() {
        assertThatThrownBy(() -> DefinitionsYaml.parse("""
                version: 1
                table: {partitionKey: {name: id, type: N}}
                indexes:
                  - {name: w, values: {wordsOf: id}}
                """)).isInstanceOf(DefinitionException.class).hasMessageContaining("wordsOf takes a text");
    }

    @Test
    void project_aTitle_givesOneItemPerDistinctWordInTheGroupsPartition() {
        ItemProjection projection = PROJECTOR.project(KEY, issue(AttributeValue.fromS("Timeout: the TIMEOUT of e-mail")));

        assertThat(words(projection)).containsExactly("e", "mail", "of", "the", "timeout");
        assertThat(projection.items()).allSatisfy(item -> assertThat(item.attribId()).isEqualTo("title-words|p1"));
        assertThat(projection.rejections()).isEmpty();
    }

    @Test
    void project_aListOfTexts_givesTheWordsOfEach_andNumbersNone() {
        ItemProjection projection = PROJECTOR.project(KEY, issue(AttributeValue.fromL(List.of(AttributeValue.fromS("Fix it"),
                AttributeValue.fromN("42"), AttributeValue.fromS("fix db")))));

        assertThat(words(projection)).containsExactly("db", "fix", "it");
    }

    @Test
    void project_noWordsOrNoTitle_givesNoItem() {
        assertThat(PROJECTOR.project(KEY, issue(AttributeValue.fromS(" -- !! "))).items()).isEmpty();
        assertThat(PROJECTOR.project(KEY, issue(null)).items()).isEmpty();
    }

    @Test
    void project_aMap_isRejectedNamingTheField() {
        ItemProjection projection = PROJECTOR.project(KEY, issue(AttributeValue.fromM(Map.of("a", AttributeValue.fromS("x")))));

        assertThat(projection.items()).isEmpty();
        assertThat(projection.rejections()).singleElement().satisfies(r -> assertThat(r.reason()).contains("title").contains("text"));
    }

    @Test
    void changed_aTitleWithTheSameWords_writesOnlyWhatDiffers() {
        IndexProjector.Changed changed = PROJECTOR.changed(KEY, issue(AttributeValue.fromS("fix the timeout")),
                issue(AttributeValue.fromS("Fix: timeout, timer")));

        assertThat(words(changed.before())).containsExactly("fix", "the", "timeout");
        assertThat(words(changed.after())).containsExactly("fix", "timeout", "timer");
    }
}
