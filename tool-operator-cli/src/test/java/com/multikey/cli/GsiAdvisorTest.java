package com.multikey.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Which declared indexes a native GSI (up to 4 + 4 top-level S, N or B key attributes since November 2025) could serve. */
class GsiAdvisorTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static final String TABLE = "version: 1\ntable: {partitionKey: {name: pk, type: S}, sortKey: {name: sk, type: S}}\nindexes:\n";

    private static Map<String, AttributeValue> layer(String status, AttributeValue version) {
        return Map.ofEntries(Map.entry("pk", s("lyr#us-east-1.requests")), Map.entry("sk", s("lyrVrsn1#")), Map.entry("pckg", s("requests")),
                Map.entry("region", s("us-east-1")), Map.entry("dplySts", s(status)), Map.entry("vrsn", version), Map.entry("arn", s("arn")),
                Map.entry("details", AttributeValue.fromM(Map.of("team", s("core")))),
                Map.entry("cf", AttributeValue.fromM(Map.of("f1", AttributeValue.fromN("1")))),
                Map.entry("labels", AttributeValue.fromSs(List.of("a"))), Map.entry("a", s("1")), Map.entry("b", s("2")), Map.entry("c", s("3")));
    }

    private static final List<Map<String, AttributeValue>> SAMPLE = List.of(layer("latest", n("1")), layer("deprecated", n("2")));

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("map entries", "{name: m, group: pk, values: {entriesOf: cf}}", SAMPLE,
                        "it indexes the entries of the map cf: a GSI key is a top-level attribute, never a map's entry"),
                Arguments.of("list elements", "{name: l, group: pk, values: {elementsOf: labels}}", SAMPLE,
                        "it indexes each element of the list or set labels: a GSI holds an item once, never once per element"),
                Arguments.of("nested scalar", "{name: n, group: pk, values: {attribute: details.team}}", SAMPLE,
                        "its value details.team is nested in a map: a GSI key is a top-level attribute (copy it to one to use a GSI)"),
                Arguments.of("more than four group attributes", "{name: g, group: [pckg, region, a, b, c], values: {attribute: dplySts}}", SAMPLE,
                        "it groups by 5 attributes: a GSI partition key takes at most 4"),
                Arguments.of("more than four sort attributes", "{name: o, group: pckg, values: {attribute: dplySts}, orderBy: [vrsn, a, b, c]}",
                        SAMPLE, "it orders by 5 attributes (the value and 4 tie-breakers): a GSI sort key takes at most 4"),
                Arguments.of("mixed-type values", "{name: x, group: pckg, values: {attribute: vrsn}}",
                        List.of(layer("latest", n("1")), layer("latest", s("one"))),
                        "vrsn holds values of several types (N, S): a GSI key attribute has one type"),
                Arguments.of("boolean values", "{name: t, group: pckg, values: {attribute: vrsn}}",
                        List.of(layer("latest", AttributeValue.fromBool(true))), "vrsn holds BOOL values: a GSI key is S, N or B"),
                Arguments.of("no group", "{name: ng, values: {attribute: dplySts}}", SAMPLE,
                        "it has no group: a GSI's partition key needs an attribute"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void verdict_whatNoGsiCanDo_isNotNative_withTheReason(String name, String index, List<Map<String, AttributeValue>> sample,
                                                          String reason) {
        IndexDefinitions definitions = DefinitionsYaml.parse(TABLE + "  - " + index + "\n");

        GsiVerdict verdict = GsiAdvisor.verdict(definitions.indexes().get(0), definitions.table(), sample);

        assertThat(verdict).isInstanceOfSatisfying(GsiVerdict.NotNative.class,
                no -> assertThat(no.reasons()).anySatisfy(r -> assertThat(r).startsWith(reason)));
    }

    @Test
    void verdict_topLevelScalarWithACompositeGroup_isNative_withSeveralHashAndRangeAttributesInOrder() throws Exception {
        IndexDefinitions definitions = DefinitionsYaml.parse(TABLE + "  - {name: by-package, covers: [{attribute: pk, beginsWith: 'lyr#'},"
                + " {attribute: dplySts, exists: true}], group: [pckg, region], values: {attribute: dplySts}, orderBy: vrsn,"
                + " projection: [arn, details.team]}\n");

        GsiVerdict verdict = GsiAdvisor.verdict(definitions.indexes().get(0), definitions.table(), SAMPLE);

        assertThat(verdict).isInstanceOf(GsiVerdict.Native.class);
        GsiVerdict.Native gsi = (GsiVerdict.Native) verdict;
        JsonNode template = YAML.readTree(gsi.template());
        assertThat(template.path("AttributeDefinitions").findValuesAsText("AttributeName")).containsExactly("pckg", "region", "dplySts", "vrsn");
        assertThat(template.path("AttributeDefinitions").findValuesAsText("AttributeType")).containsExactly("S", "S", "S", "N");
        JsonNode index = template.path("GlobalSecondaryIndexes").get(0);
        assertThat(index.path("IndexName").asText()).isEqualTo("by-package");
        assertThat(index.path("KeySchema").findValuesAsText("AttributeName")).containsExactly("pckg", "region", "dplySts", "vrsn");
        assertThat(index.path("KeySchema").findValuesAsText("KeyType")).containsExactly("HASH", "HASH", "RANGE", "RANGE");
        assertThat(index.path("Projection").path("ProjectionType").asText()).isEqualTo("INCLUDE");
        assertThat(index.path("Projection").path("NonKeyAttributes")).extracting(JsonNode::asText).containsExactly("arn", "details");
        assertThat(gsi.differences()).anySatisfy(d -> assertThat(d).startsWith(
                "it holds every item that has dplySts, pckg, region, vrsn, not only those where pk begins with lyr#: filter at read time"))
                .anySatisfy(d -> assertThat(d).isEqualTo("an item without vrsn is not in the GSI (the index sorts it first)"))
                .anySatisfy(d -> assertThat(d).contains("DynamoDB refuses an item's write when a key value passes 1024 bytes"))
                .noneSatisfy(d -> assertThat(d).contains("assumed"));
    }

    @Test
    void verdict_withoutASample_assumesStringKeys_andSaysSo() throws Exception {
        IndexDefinitions definitions = DefinitionsYaml.parse(TABLE + "  - {name: s, group: pk, values: {attribute: status}}\n");

        GsiVerdict.Native gsi = (GsiVerdict.Native) GsiAdvisor.verdict(definitions.indexes().get(0), definitions.table(), List.of());

        JsonNode template = YAML.readTree(gsi.template());
        assertThat(template.path("AttributeDefinitions").findValuesAsText("AttributeType")).as("pk is the table's S key; status assumed S")
                .containsExactly("S", "S");
        assertThat(template.path("GlobalSecondaryIndexes").get(0).path("IndexName").asText()).as("a GSI name takes at least 3 characters")
                .isEqualTo("s-gsi");
        assertThat(template.path("GlobalSecondaryIndexes").get(0).path("Projection").path("ProjectionType").asText()).isEqualTo("KEYS_ONLY");
        assertThat(gsi.differences()).anySatisfy(d -> assertThat(d).contains("assumed S (no sample was read)"));
    }

    @Test
    void template_namesThatYamlWouldReadAsSomethingElse_areQuoted() throws Exception {
        IndexDefinitions definitions = DefinitionsYaml.parse(TABLE + "  - {name: \"on\", group: [\"yes\"], values: {attribute: \"a: b\"},"
                + " orderBy: [\"12\"], projection: [\"null\"]}\n");

        GsiVerdict.Native gsi = (GsiVerdict.Native) GsiAdvisor.verdict(definitions.indexes().get(0), definitions.table(), List.of());

        JsonNode index = YAML.readTree(gsi.template()).path("GlobalSecondaryIndexes").get(0);
        assertThat(index.path("IndexName").asText()).isEqualTo("on-gsi");
        assertThat(index.path("KeySchema").findValuesAsText("AttributeName")).containsExactly("yes", "a: b", "12");
        assertThat(index.path("KeySchema").findValues("AttributeName")).allSatisfy(name -> assertThat(name.isTextual()).isTrue());
        assertThat(index.path("Projection").path("NonKeyAttributes").get(0).isTextual()).isTrue();
        assertThat(index.path("Projection").path("NonKeyAttributes").get(0).asText()).isEqualTo("null");
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static AttributeValue n(String value) {
        return AttributeValue.fromN(value);
    }
}
