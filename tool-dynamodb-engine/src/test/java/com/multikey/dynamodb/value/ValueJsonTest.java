package com.multikey.dynamodb.value;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.dynamodb.EngineException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Written from AWS API Reference "AttributeValue" (one data type member per value) and "Supported data types
 * and naming rules in Amazon DynamoDB" (sets: unique elements, never empty; empty strings and binaries allowed
 * in sets since 2020).
 */
class ValueJsonTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static JsonNode json(String text) {
        try {
            return MAPPER.readTree(text.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static Value read(String text) {
        return ValueJson.read(json(text));
    }

    @Test
    void read_whenEachType_valueOfThatType() {
        assertThat(read("{'S':'x'}")).isEqualTo(new Value.S("x"));
        assertThat(read("{'N':'1.50'}")).isEqualTo(new Value.N(new BigDecimal("1.5")));
        assertThat(read("{'B':'AQID'}")).isEqualTo(new Value.B(Bytes.of(new byte[]{1, 2, 3})));
        assertThat(read("{'BOOL':false}")).isEqualTo(new Value.Bool(false));
        assertThat(read("{'NULL':true}")).isEqualTo(new Value.Null());
        assertThat(read("{'L':[{'S':'a'},{'N':'2'}]}")).isEqualTo(new Value.L(List.of(new Value.S("a"), new Value.N(BigDecimal.TWO))));
        assertThat(read("{'M':{'k':{'S':'v'}}}")).isEqualTo(new Value.M(Map.of("k", new Value.S("v"))));
        assertThat(read("{'SS':['a','b']}")).isEqualTo(new Value.SS(Set.of("a", "b")));
        assertThat(read("{'NS':['1','2.0']}")).isEqualTo(new Value.NS(Set.of(BigDecimal.ONE, BigDecimal.TWO)));
        assertThat(read("{'BS':['AQ==','Ag==']}")).isEqualTo(new Value.BS(Set.of(Bytes.of(new byte[]{1}), Bytes.of(new byte[]{2}))));
    }

    @Test
    void read_whenAttributeNameOrMapKeyEmpty_validationException() {
        for (String item : List.of("{'':{'S':'x'}}", "{'a':{'M':{'':{'S':'x'}}}}", "{'a':{'L':[{'M':{'b':{'M':{'':{'N':'1'}}}}}]}}")) {
            assertThatThrownBy(() -> ValueJson.readItem(json(item)))
                    .isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.type()).isEqualTo("ValidationException"))
                    .hasMessage("Empty attribute name");
        }
        assertThat(ValueJson.readItem(json("{'a':{'M':{'b':{'S':''}}}}"))).containsOnlyKeys("a");
    }

    @Test
    void readPlaceholderValues_whenMapKeyEmpty_invalidValueForItsKey() {
        assertThatThrownBy(() -> ValueJson.readPlaceholderValues(json("{':ok':{'S':'x'},':v':{'M':{'':{'S':'x'}}}}"), "ExpressionAttributeValues"))
                .isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.type()).isEqualTo("ValidationException"))
                .hasMessage("ExpressionAttributeValues contains invalid value: Empty attribute name for key :v");
        assertThat(ValueJson.readPlaceholderValues(json("{':v':{'M':{'k':{'S':''}}}}"), "ExpressionAttributeValues")).containsOnlyKeys(":v");
    }

    @Test
    void read_whenEmptyStringBinaryOrInSet_allowed() {
        assertThat(read("{'S':''}")).isEqualTo(new Value.S(""));
        assertThat(read("{'B':''}")).isEqualTo(new Value.B(Bytes.of(new byte[0])));
        assertThat(read("{'SS':['','a']}")).isEqualTo(new Value.SS(Set.of("", "a")));
        assertThat(read("{'L':[]}")).isEqualTo(new Value.L(List.of()));
        assertThat(read("{'M':{}}")).isEqualTo(new Value.M(Map.of()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{}", "{'X':'1'}", "{'S':null}", "'S'", "[]"})
    void read_whenNoType_empty(String text) {
        assertThatThrownBy(() -> read(text)).isInstanceOf(EngineException.class)
                .hasMessage("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
    }

    @Test
    void read_whenTwoTypes_moreThanOne() {
        assertThatThrownBy(() -> read("{'S':'a','N':'1'}"))
                .hasMessage("Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes");
    }

    @Test
    void read_whenNullFalse_invalid() {
        assertThatThrownBy(() -> read("{'NULL':false}"))
                .hasMessage("One or more parameter values were invalid: Null attribute value types must have the value of true");
    }

    @ParameterizedTest
    @ValueSource(strings = {"{'S':1}", "{'N':1}", "{'BOOL':'true'}", "{'L':{}}", "{'M':[]}", "{'SS':'a'}", "{'NS':[1]}", "{'B':'%%%'}"})
    void read_whenWrongJsonKind_validation(String text) {
        assertThatThrownBy(() -> read(text)).isInstanceOfSatisfying(EngineException.class,
                e -> assertThat(e.type()).isEqualTo("ValidationException"));
    }

    @Test
    void read_whenEmptySets_mayNotBeEmpty() {
        assertThatThrownBy(() -> read("{'SS':[]}")).hasMessage("One or more parameter values were invalid: An string set  may not be empty");
        assertThatThrownBy(() -> read("{'NS':[]}")).hasMessage("One or more parameter values were invalid: An number set  may not be empty");
        assertThatThrownBy(() -> read("{'BS':[]}")).hasMessage("One or more parameter values were invalid: Binary sets should not be empty");
    }

    /**
     * The wording of PutItem, UpdateItem, GetItem and Query, captured against DynamoDB by the
     * dynamodb-conformance suite (valueLayers): members quoted, those before the first repeat in key order.
     */
    @Test
    void read_whenDuplicates_inputCollectionContainsDuplicates() {
        assertThatThrownBy(() -> read("{'SS':['b','a','b']}"))
                .hasMessage("One or more parameter values were invalid: Input collection [\"a\", \"b\", \"b\"] contains duplicates.");
        assertThatThrownBy(() -> read("{'SS':['c','a','c','b']}"))
                .hasMessage("One or more parameter values were invalid: Input collection [\"a\", \"c\", \"c\", \"b\"] contains duplicates.");
        assertThatThrownBy(() -> read("{'BS':['/w==','AA==','AA==']}"))
                .hasMessage("One or more parameter values were invalid: Input collection [\"AA==\",\"/w==\",\"AA==\"]of type BS contains duplicates.");
        assertThatThrownBy(() -> read("{'NS':['2','1','2.0']}"))
                .hasMessage("One or more parameter values were invalid: Input collection contains duplicates.");
        assertThatThrownBy(() -> read("{'SS':['','']}")).hasMessageContaining("contains duplicates.");
    }

    @Test
    void read_whenBadNumberNested_numberMessage() {
        assertThatThrownBy(() -> read("{'L':[{'N':'abc'}]}")).hasMessage("The parameter cannot be converted to a numeric value: abc");
        assertThatThrownBy(() -> read("{'NS':['1','x']}")).hasMessage("The parameter cannot be converted to a numeric value: x");
    }

    @Test
    void write_whenNumbers_canonicalText() {
        assertThat(ValueJson.write(new Value.N(Numbers.parse("1E+45"))).toString())
                .isEqualTo("{\"N\":\"1000000000000000000000000000000000000000000000\"}");
        assertThat(ValueJson.write(read("{'NS':['1.0','10E-1' ,'2']}".replace("'10E-1' ,", ""))).toString())
                .isEqualTo("{\"NS\":[\"1\",\"2\"]}");
    }

    /** GetItem returns sets sorted: strings and binaries bytewise, numbers by value (dynamodb-conformance, updateItem). */
    @Test
    void write_whenSets_dynamoDbOrder() {
        assertThat(ValueJson.write(read("{'SS':['b','','a','\uD83D\uDE00','\uFFFD']}")).toString())
                .isEqualTo("{\"SS\":[\"\",\"a\",\"b\",\"\uFFFD\",\"\uD83D\uDE00\"]}");
        assertThat(ValueJson.write(read("{'NS':['10','-2','9.5']}")).toString()).isEqualTo("{\"NS\":[\"-2\",\"9.5\",\"10\"]}");
        assertThat(ValueJson.write(read("{'BS':['/w==','AA==','fw==']}")).toString()).isEqualTo("{\"BS\":[\"AA==\",\"fw==\",\"/w==\"]}");
    }

    @Test
    void writeItem_whenRead_sameJson() {
        String item = "{'a':{'S':'x'},'b':{'N':'-12.5'},'c':{'B':'AQID'},'d':{'BOOL':true},'e':{'NULL':true},"
                + "'f':{'L':[{'M':{'g':{'SS':['p','q']}}}]},'h':{'NS':['1','3']},'i':{'BS':['AQ==']}}";
        Map<String, Value> read = ValueJson.readItem(json(item));
        assertThat(ValueJson.writeItem(read)).isEqualTo(json(item));
        assertThat(ValueJson.readItem(ValueJson.writeItem(read))).isEqualTo(read);
    }

    @Test
    void read_when31WrappersAroundAValue_accepted_and32_refused() {
        assertThat(read(wrapped(31))).isInstanceOf(Value.M.class);
        assertThatThrownBy(() -> read(wrapped(32))).hasMessage(
                "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit");
        assertThatThrownBy(() -> ValueJson.readItem(json("{'a':" + wrapped(32) + "}"))).hasMessageStartingWith("Nesting Levels");
    }

    /** A string value inside this many maps and lists, alternating. */
    private static String wrapped(int wrappers) {
        String value = "{'S':'leaf'}";
        for (int i = 0; i < wrappers; i++) {
            value = i % 2 == 0 ? "{'M':{'k':" + value + "}}" : "{'L':[" + value + "]}";
        }
        return value;
    }
}
