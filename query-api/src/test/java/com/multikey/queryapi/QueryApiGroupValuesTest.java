package com.multikey.queryapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.query.Page;
import com.multikey.query.PageRequest;
import com.multikey.testkit.OpenApiResponses;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** A group value of every type a group attribute can have, spelled in {@code group} as the API documents it. */
class QueryApiGroupValuesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final OpenApiResponses OPENAPI = OpenApiResponses.of(QueryApi.openApiDocument());
    private static final IndexDefinitions DEFINITIONS = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: pk, type: S}}
            indexes:
              - name: by-every-type
                group: [flag, blob, size, label]
                values: {attribute: color}
            """);

    private final List<PageRequest> asked = new ArrayList<>();
    private final QueryApi api = new QueryApi(request -> {
        asked.add(request);
        return new Page(List.of(), null, 1);
    }, DEFINITIONS);

    private QueryApi.Response get(String... groups) {
        List<String> values = List.of(groups);
        QueryApi.Response response = api.handle(new QueryApi.Request("GET", "/v1/indexes/by-every-type/items",
                Map.of("group", values), Optional.empty()));
        OPENAPI.check("GET", "/v1/indexes/by-every-type/items", response.status(), response.headers(), response.body());
        return response;
    }

    @Test
    void group_ofEveryType_isReadInItsDocumentedSpelling() throws Exception {
        // when
        QueryApi.Response response = get("BOOL:true", "B:AAEC/w==", "N:1.50", "S:S:x");

        // then
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        assertThat(asked).singleElement().extracting(PageRequest::group).isEqualTo(List.of(AttributeValue.fromBool(true),
                AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {0, 1, 2, (byte) 0xff})), AttributeValue.fromN("1.50"),
                AttributeValue.fromS("S:x")));
        JsonNode body = JSON.readTree(response.body());
        assertThat(body.get("group").toString()).isEqualTo("[true,\"AAEC/w==\",1.5,\"S:x\"]");
    }

    @Test
    void group_textWithoutATypePrefix_isTheTextItself_andBooleanFalseToo() {
        QueryApi.Response response = get("BOOL:false", "B:", "N:-0", "project#1");

        assertThat(response.status()).as(response.body()).isEqualTo(200);
        assertThat(asked.getFirst().group()).containsExactly(AttributeValue.fromBool(false), AttributeValue.fromB(SdkBytes.fromByteArray(new byte[0])),
                AttributeValue.fromN("0"), AttributeValue.fromS("project#1"));
    }

    @Test
    void group_aTypePrefixNotFollowedByAValueOfTheType_isA400NamingGroup() throws Exception {
        for (List<String> groups : List.of(List.of("BOOL:yes", "B:AA==", "N:1", "x"), List.of("BOOL:true", "B:not base64!", "N:1", "x"),
                List.of("BOOL:true", "B:AA==", "N:one", "x"))) {
            QueryApi.Response response = get(groups.toArray(String[]::new));

            assertThat(response.status()).as(groups.toString()).isEqualTo(400);
            assertThat(JSON.readTree(response.body()).path("parameter").asText()).as(response.body()).isEqualTo("group");
        }
        assertThat(asked).isEmpty();
    }

    @Test
    void group_aNumberNoDynamoDbNumberCanHold_isA400NamingGroup_asTheFiltersRefuseIt() throws Exception {
        for (String number : List.of("N:" + "1".repeat(39), "N:1E+126", "N:-1E+126", "N:1E-131")) {
            QueryApi.Response response = get("BOOL:true", "B:AA==", number, "x");

            assertThat(response.status()).as(number + ": " + response.body()).isEqualTo(400);
            assertThat(JSON.readTree(response.body()).path("parameter").asText()).as(response.body()).isEqualTo("group");
        }
        assertThat(asked).isEmpty();
    }
}
