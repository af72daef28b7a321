package com.multikey.dynamodb.expression;

import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.value.Bytes;
import com.multikey.dynamodb.value.Numbers;
import com.multikey.dynamodb.value.Value;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Written from AWS "Comparison operator and function reference" (grammar, comparators, BETWEEN, IN, functions,
 * precedence) and "Condition expressions" (absent attributes, different types).
 */
class ConditionExpressionTest {

    static Value s(String v) {
        return new Value.S(v);
    }

    static Value n(String v) {
        return new Value.N(Numbers.parse(v));
    }

    static Value b(int... bytes) {
        byte[] array = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            array[i] = (byte) bytes[i];
        }
        return new Value.B(Bytes.of(array));
    }

    private static final Map<String, Value> ITEM = item();

    private static Map<String, Value> item() {
        Map<String, Value> item = new LinkedHashMap<>();
        item.put("pk", s("p1"));
        item.put("count", n("5"));
        item.put("name", s("alpha"));
        item.put("bin", b(1, 2, 3));
        item.put("flag", new Value.Bool(true));
        item.put("nothing", new Value.Null());
        item.put("tags", new Value.SS(Set.of("red", "blue")));
        item.put("nums", new Value.NS(Set.of(BigDecimal.ONE, BigDecimal.TEN)));
        item.put("lst", new Value.L(List.of(s("x"), n("2"), new Value.M(Map.of("deep", s("d"))))));
        item.put("map", new Value.M(Map.of("inner", new Value.M(Map.of("leaf", n("7"))), "s", s("abc"))));
        item.put("blank", s(""));
        return item;
    }

    static final Map<String, Value> VALUES = Map.ofEntries(
            Map.entry(":five", n("5")), Map.entry(":fiveDot", n("5.0")), Map.entry(":four", n("4")), Map.entry(":six", n("6")),
            Map.entry(":alpha", s("alpha")), Map.entry(":al", s("al")), Map.entry(":ph", s("ph")), Map.entry(":red", s("red")),
            Map.entry(":one", n("1")), Map.entry(":two", n("2")), Map.entry(":three", n("3")), Map.entry(":x", s("x")),
            Map.entry(":S", s("S")), Map.entry(":SS", s("SS")), Map.entry(":M", s("M")), Map.entry(":true", new Value.Bool(true)),
            Map.entry(":b12", b(1, 2)), Map.entry(":b23", b(2, 3)), Map.entry(":seven", n("7")), Map.entry(":d", s("d")),
            Map.entry(":bad", s("X")), Map.entry(":empty", s("")));

    static final Map<String, String> NAMES = Map.of("#c", "count", "#m", "map", "#i", "inner", "#dot", "a.b", "#n", "name");

    private static boolean test(String expression) {
        return Expressions.condition("ConditionExpression", expression, NAMES, VALUES).test(ITEM);
    }

    private static EngineException error(String expression) {
        try {
            Expressions.condition("ConditionExpression", expression, NAMES, VALUES);
        } catch (EngineException e) {
            assertThat(e.type()).isEqualTo("ValidationException");
            return e;
        }
        throw new AssertionError("no error for " + expression);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "#c = :five | true", "#c = :fiveDot | true", "#c <> :five | false", "#c < :six | true", "#c <= :five | true",
            "#c > :four | true", "#c >= :six | false", "#n = :alpha | true", "#n < :x | true", "#n > :al | true",
            "#c = :alpha | false", "#c <> :alpha | true", "#c < :alpha | false", "absent = :five | false",
            "absent <> :five | true", "absent < :five | false", "bin > :b12 | true", "bin < :b23 | true",
            "#m.#i.leaf = :seven | true", "#m.#i.leaf > :six | true", "lst[1] = :two | true", "lst[2].deep = :d | true",
            "lst[3] = :two | false", "#m[0] = :two | false", "lst.x = :x | false", "flag = :true | true",
            "#c = #c2 | false"})
    void test_whenComparing_asDocumented(String expression, boolean expected) {
        Map<String, String> names = new HashMap<>(NAMES);
        names.put("#c2", "count");
        if (expression.contains("#c2")) {
            assertThat(error(expression.replace("#c2", "#c")).getMessage()).contains("first operand must be distinct");
            return;
        }
        assertThat(test(expression)).as(expression).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "#c BETWEEN :four AND :six | true", "#c BETWEEN :five AND :five | true", "#c BETWEEN :one AND :four | false",
            "#n BETWEEN :al AND :x | true", "#n BETWEEN :one AND :two | false", "absent BETWEEN :one AND :two | false",
            "#c IN (:one, :five) | true", "#c IN (:one) | false", "#n IN (:alpha) | true", "absent IN (:one) | false",
            "#c IN (:fiveDot) | true"})
    void test_whenBetweenOrIn_asDocumented(String expression, boolean expected) {
        assertThat(test(expression)).as(expression).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "attribute_exists(#c) | true", "attribute_exists(absent) | false", "attribute_exists(#m.#i.leaf) | true",
            "attribute_exists(lst[5]) | false", "attribute_not_exists(absent) | true", "attribute_not_exists(nothing) | false",
            "attribute_type(#n, :S) | true", "attribute_type(tags, :SS) | true", "attribute_type(#m, :M) | true",
            "attribute_type(#c, :S) | false", "attribute_type(absent, :S) | false",
            "begins_with(#n, :al) | true", "begins_with(#n, :ph) | false", "begins_with(bin, :b12) | true",
            "begins_with(bin, :b23) | false", "begins_with(#c, :al) | false", "begins_with(#n, :empty) | true",
            "contains(#n, :ph) | true", "contains(#n, :x) | false", "contains(tags, :red) | true", "contains(tags, :x) | false",
            "contains(nums, :one) | true", "contains(nums, :two) | false", "contains(lst, :x) | true", "contains(lst, :two) | true",
            "contains(lst, :red) | false", "contains(bin, :b23) | true", "contains(#c, :five) | false",
            "size(#n) = :five | true", "size(bin) = :three | true", "size(tags) = :two | true", "size(lst) = :three | true",
            "size(#m) = :two | true", "size(#c) = :one | false", "size(absent) < :one | false", "size(blank) < :one | true",
            "size(#n) BETWEEN :four AND :six | true", "size(tags) IN (:one, :two) | true"})
    void test_whenFunctions_asDocumented(String expression, boolean expected) {
        assertThat(test(expression)).as(expression).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            // a OR b AND c: AND binds tighter (true OR (true AND false)) = true
            "#c = :five OR #n = :alpha AND #c = :one | true",
            "(#c = :five OR #n = :alpha) AND #c = :one | false",
            "NOT #c = :one | true", "NOT #c = :five OR #n = :alpha | true", "NOT (#c = :five OR #n = :alpha) | false",
            "NOT NOT #c = :five | true", "#c BETWEEN :one AND :six AND #n = :alpha | true",
            "((#c = :five) AND (#n = :alpha)) | true", "attribute_exists(#c) AND NOT attribute_exists(absent) | true",
            "#c = :one or #c = :five | true", "not #c = :one and #n = :alpha | true"})
    void test_whenLogic_precedenceNotAndOr(String expression, boolean expected) {
        assertThat(test(expression)).as(expression).isEqualTo(expected);
    }

    /** size() of a string counts UTF-16 code units, as DynamoDB was measured to (dynoxide's conformance notes). */
    @Test
    void test_whenSizeOfNonAsciiString_utf16Units() {
        Map<String, Value> item = Map.of("t", s("é\uD83D\uDE00"));
        assertThat(Expressions.condition("ConditionExpression", "size(t) = :three", NAMES, VALUES).test(item)).isTrue();
    }

    @Test
    void test_whenNoItem_onlyNotExistsHolds() {
        ConditionExpression e = Expressions.condition("ConditionExpression", "attribute_not_exists(pk)", null, null);
        assertThat(e.test(Map.of())).isTrue();
        assertThat(e.test(ITEM)).isFalse();
    }

    @Test
    void usedNamesAndValues_whenParsed_withPrefixes() {
        ConditionExpression e = Expressions.condition("FilterExpression", "#c = :five AND #m.#i.leaf IN (:one, :two)", NAMES, VALUES);
        assertThat(e.usedNames()).containsExactlyInAnyOrder("#c", "#m", "#i");
        assertThat(e.usedValues()).containsExactlyInAnyOrder(":five", ":one", ":two");
    }

    @Test
    void condition_whenNameRefHoldsDots_oneAttributeName() {
        Map<String, Value> item = Map.of("a.b", n("1"));
        assertThat(Expressions.condition("ConditionExpression", "#dot = :one", NAMES, VALUES).test(item)).isTrue();
    }

    // Errors: AWS "Expression attribute names", "Reserved words in DynamoDB", quotas (Expression parameters).

    @Test
    void condition_whenReservedWordBare_reservedKeyword() {
        assertThat(error("status = :one").getMessage())
                .isEqualTo("Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: status");
        assertThat(error("#m.Size = :one").getMessage()).endsWith("reserved keyword: Size");
    }

    @Test
    void condition_whenUndefinedName_notDefined() {
        assertThat(error("#zz = :one").getMessage()).isEqualTo(
                "Invalid ConditionExpression: An expression attribute name used in the document path is not defined; attribute name: #zz");
    }

    @Test
    void condition_whenUndefinedValue_notDefined() {
        assertThat(error("#c = :zz").getMessage()).isEqualTo(
                "Invalid ConditionExpression: An expression attribute value used in expression is not defined; attribute value: :zz");
        assertThat(error("#c < :zz").getMessage()).contains(":zz");
        assertThat(error("attribute_type(#c, :zz)").getMessage()).contains(":zz");
    }

    @Test
    void condition_whenSyntaxError_tokenAndNear() {
        assertThat(error("#c = ").getMessage()).isEqualTo("Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"=\"");
        assertThat(error("system-id = :one").getMessage())
                .isEqualTo("Invalid ConditionExpression: Syntax error; token: \"-\", near: \"system-id\"");
        assertThat(error("#c = :one :two").getMessage()).startsWith("Invalid ConditionExpression: Syntax error; token: \":two\"");
        assertThat(error("#c = :one AND").getMessage()).contains("token: \"<EOF>\"");
        assertThat(error("(#c = :one").getMessage()).contains("token: \"<EOF>\"");
        assertThat(error("#c = :one)").getMessage()).contains("token: \")\"");
        assertThat(error("#c BETWEEN :one OR :two").getMessage()).contains("token: \"OR\"");
        assertThat(error("AND = :one").getMessage()).contains("token: \"AND\"");
        assertThat(error("a[x] = :one").getMessage()).contains("Syntax error");
        assertThat(error("1a = :one").getMessage()).contains("Syntax error");
    }

    @Test
    void condition_whenKindGiven_namedInMessages() {
        assertThatThrownBy(() -> Expressions.condition("FilterExpression", "#c = ", NAMES, VALUES))
                .hasMessageStartingWith("Invalid FilterExpression: Syntax error;");
    }

    @Test
    void condition_whenParenthesesOnlyWrapParentheses_redundant() {
        assertThat(error("((#c = :five))").getMessage()).isEqualTo("Invalid ConditionExpression: The expression has redundant parentheses;");
        assertThat(error("NOT ((#c = :five)) AND #n = :alpha").getMessage()).contains("redundant parentheses");
        assertThat(test("(#c = :five)")).isTrue();
    }

    @Test
    void condition_when300Operators_accepted_and301_refused() {
        // 150 comparisons joined by 149 ANDs and one NOT: 300 operators.
        String at = "NOT #c = :two AND " + String.join(" AND ", java.util.Collections.nCopies(149, "#c = :five"));
        assertThat(Expressions.condition("ConditionExpression", at, NAMES, VALUES).test(ITEM)).isTrue();
        assertThat(error(at + " OR #c = :one").getMessage())
                .isEqualTo("Invalid ConditionExpression: The expression contains too many operators; operator count: 302");
    }

    @Test
    void condition_whenEmpty_canNotBeEmpty() {
        assertThat(error("  ").getMessage()).isEqualTo("Invalid ConditionExpression: The expression can not be empty;");
    }

    @Test
    void condition_whenFunctionMisused_notAllowedOrInvalid() {
        assertThat(error("size(#c)").getMessage()).contains("The function is not allowed to be used this way in an expression; function: size");
        assertThat(error("attribute_exists(#c) = :one").getMessage())
                .contains("The function is not allowed to be used this way in an expression; function: attribute_exists");
        assertThat(error("#c = attribute_exists(#c)").getMessage()).contains("function: attribute_exists");
        assertThat(error("foo(#c)").getMessage()).contains("Invalid function name; function: foo");
        assertThat(error("ATTRIBUTE_EXISTS(#c)").getMessage()).contains("Invalid function name; function: ATTRIBUTE_EXISTS");
        assertThat(error("if_not_exists(#c, :one) = :one").getMessage()).contains("function: if_not_exists");
        assertThat(error("attribute_exists(:one)").getMessage())
                .contains("Operator or function requires a document path; operator or function: attribute_exists");
        assertThat(error("begins_with(#n)").getMessage())
                .contains("Incorrect number of operands for operator or function; operator or function: begins_with, number of operands: 1");
    }

    @Test
    void condition_whenLiteralOfWrongType_incorrectOperandType() {
        assertThat(error("#c < :true").getMessage()).isEqualTo(
                "Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: <, operand type: BOOL");
        assertThat(error("begins_with(#n, :five)").getMessage()).contains("operator or function: begins_with, operand type: N");
        assertThat(error("#c BETWEEN :true AND :five").getMessage()).contains("operator or function: BETWEEN, operand type: BOOL");
        assertThat(error("attribute_type(#c, :bad)").getMessage())
                .contains("Invalid attribute type name found; type: X, valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}");
        assertThat(error("attribute_type(#c, :five)").getMessage()).contains("operator or function: attribute_type, operand type: N");
    }

    @Test
    void condition_whenBetweenBoundsReversed_upperBoundError() {
        assertThat(error("#c BETWEEN :six AND :four").getMessage()).isEqualTo("Invalid ConditionExpression: The BETWEEN operator "
                + "requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {N:6}, "
                + "upper bound operand: AttributeValue: {N:4}");
    }

    @Test
    void condition_whenBetweenBoundsOfTwoTypes_sameDataTypeError() {
        assertThat(error("#c BETWEEN :one AND :x").getMessage()).isEqualTo("Invalid ConditionExpression: The BETWEEN operator "
                + "requires same data type for lower and upper bounds; lower bound operand: AttributeValue: {N:1}, "
                + "upper bound operand: AttributeValue: {S:x}");
    }

    @Test
    void condition_whenListIndexBeyondInt_notWithinAllowableRange() {
        assertThat(error("lst[99999999999] = :one").getMessage())
                .isEqualTo("Invalid ConditionExpression: List index is not within the allowable range; index: 99999999999");
    }

    @Test
    void condition_whenIn100Operands_accepted_and101_refused() {
        Map<String, Value> values = new HashMap<>();
        StringBuilder list = new StringBuilder();
        for (int i = 0; i < 101; i++) {
            values.put(":v" + i, n(Integer.toString(i)));
        }
        for (int i = 0; i < 100; i++) {
            list.append(i == 0 ? "" : ",").append(":v").append(i);
        }
        assertThat(Expressions.condition("ConditionExpression", "#c IN (" + list + ")", NAMES, values).test(ITEM)).isTrue();
        assertThatThrownBy(() -> Expressions.condition("ConditionExpression", "#c IN (" + list + ",:v100)", NAMES, values))
                .hasMessage("Invalid ConditionExpression: The IN operator is provided with too many operands; number of operands: 101");
    }

    @Test
    void condition_whenPathDepth32_accepted_and33_refused() {
        String depth32 = "a" + ".b".repeat(31);
        assertThat(Expressions.condition("ConditionExpression", "attribute_exists(" + depth32 + ")", null, null).test(ITEM)).isFalse();
        assertThatThrownBy(() -> Expressions.condition("ConditionExpression", "attribute_exists(" + depth32 + "[0])", null, null))
                .hasMessage("Invalid ConditionExpression: The document path has too many nesting levels; nesting levels: 33");
    }

    @Test
    void condition_whenExpression4096Bytes_accepted_and4097_refused() {
        String base = "attribute_exists(a)";
        String at = base + " ".repeat(4096 - base.length());
        assertThat(Expressions.condition("ConditionExpression", at, null, null).test(ITEM)).isFalse();
        assertThatThrownBy(() -> Expressions.condition("ConditionExpression", at + " ", null, null))
                .hasMessage("Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; expression size: 4097");
    }
}
