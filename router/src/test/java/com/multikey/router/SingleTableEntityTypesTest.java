package com.multikey.router;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Typed events on a single-table design: entity types come from the definitions' rules over the keys and the image
 * (the example's pk/sk table of projects, issues and layer versions), so {@code Issue Updated} and
 * {@code Layer Expired} (the rule delete-layer listens on) work without an {@code id}.
 */
class SingleTableEntityTypesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final IndexDefinitions EXAMPLE = DefinitionsYaml.read(Path.of("..", "examples", "single-table", "index-definitions.yaml"));
    private static final IndexDefinitions BY_ATTRIBUTE = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: pk}, sortKey: {name: sk}}
            entityTypes:
              - {name: Issue, when: [{attribute: type, equals: issue}]}
            indexes: []
            """);

    private static ChangeEvent event(IndexDefinitions definitions, Record record) {
        return new ChangeEventFactory(new RouterConfig("bus", "multikey.app-table", RouterFixtures.TABLE_ARN, definitions, true,
                RouterConfig.DEFAULT_MAX_ENTRY_BYTES)).toEvent(RouterFixtures.changeRecord(record));
    }

    private static Map<String, AttributeValue> item(String pk, String sk, Map<String, AttributeValue> more) {
        Map<String, AttributeValue> item = new LinkedHashMap<>(Map.of("pk", AttributeValue.fromS(pk), "sk", AttributeValue.fromS(sk)));
        item.putAll(more);
        return item;
    }

    private static Map<String, AttributeValue> keys(Map<String, AttributeValue> item) {
        return Map.of("pk", item.get("pk"), "sk", item.get("sk"));
    }

    @Test
    void toEvent_onAPkSkTable_typesByTheDefinitionsRules() throws Exception {
        var issue = item("PROJECT#p1", "ISSUE#42", Map.of("title", AttributeValue.fromS("a")));
        var renamed = item("PROJECT#p1", "ISSUE#42", Map.of("title", AttributeValue.fromS("b")));
        var project = item("PROJECT#p1", "PROJECT#p1", Map.of());
        var layer = item("lyr#ap-southeast-1.requests", "lyrVrsn12#", Map.of("arn",
                AttributeValue.fromS("arn:aws:lambda:ap-southeast-1:123456789012:layer:requests:12"), "dplySts", AttributeValue.fromS("deprecated"),
                "exDt", AttributeValue.fromN("1")));
        var other = item("SETTINGS", "global", Map.of());

        ChangeEvent updated = event(EXAMPLE, Records.change(1, keys(issue), issue, renamed, null));
        ChangeEvent expired = event(EXAMPLE, Records.change(2, keys(layer), layer, null, Records.TTL));

        assertThat(updated.detailType()).isEqualTo("Issue Updated");
        assertThat(expired.detailType()).isEqualTo("Layer Expired");
        JsonNode detail = JSON.readTree(expired.detail());
        assertThat(detail.get("keys").toString()).isEqualTo("{\"pk\":\"lyr#ap-southeast-1.requests\",\"sk\":\"lyrVrsn12#\"}");
        assertThat(detail.get("oldImage").get("arn").asText()).endsWith(":layer:requests:12");
        assertThat(event(EXAMPLE, Records.change(3, keys(project), null, project, null)).detailType()).isEqualTo("Project Created");
        assertThat(event(EXAMPLE, Records.change(4, keys(other), null, other, null)).detailType()).isEqualTo("Item Created");
    }

    @Test
    void toEvent_withATypeAttribute_readsTheOldImageOfARemovedItem() {
        var issue = item("T#1", "X#1", Map.of("type", AttributeValue.fromS("issue")));

        assertThat(event(BY_ATTRIBUTE, Records.change(1, keys(issue), issue, null, null)).detailType()).isEqualTo("Issue Removed");
        assertThat(event(BY_ATTRIBUTE, Records.change(2, keys(issue), null, issue, null)).detailType()).isEqualTo("Issue Created");
    }
}
