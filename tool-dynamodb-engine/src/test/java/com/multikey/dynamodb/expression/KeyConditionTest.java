package com.multikey.dynamodb.expression;

import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.value.Bytes;
import com.multikey.dynamodb.value.Numbers;
import com.multikey.dynamodb.value.Value;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Written from AWS "Querying tables in DynamoDB" (Key condition expressions: equality on the partition key,
 * one of =, <, <=, >, >=, BETWEEN, begins_with on the sort key) and the Query API reference
 * (KeyConditionExpression).
 */
class KeyConditionTest {

    private static Value s(String v) {
        return new Value.S(v);
    }

    private static Value n(String v) {
        return new Value.N(Numbers.parse(v));
    }

    private static Value b(int... bytes) {
        byte[] array = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            array[i] = (byte) bytes[i];
        }
        return new Value.B(Bytes.of(array));
    }

    private static final Map<String, Value> VALUES = Map.of(":p", s("p1"), ":a", n("1"), ":b", n("5"), ":pre", s("ab"),
            ":num", n("3"), ":t", new Value.Bool(true));
    private static final Map<String, String> NAMES = Map.of("#pk", "pk", "#sk", "sk");

    private static KeyCondition parse(String text) {
        return Expressions.keyCondition(text, NAMES, VALUES, "pk", "sk");
    }

    private static String error(String text) {
        try {
            parse(text);
        } catch (EngineException e) {
            assertThat(e.type()).isEqualTo("ValidationException");
            return e.getMessage();
        }
        throw new AssertionError("no error for " + text);
    }

    @Test
    void keyCondition_whenPartitionOnly_noSortCondition() {
        KeyCondition k = parse("pk = :p");
        assertThat(k.partitionValue()).isEqualTo(s("p1"));
        assertThat(k.sortCondition()).isEmpty();
        assertThat(k.usedValues()).containsExactly(":p");
        assertThat(Expressions.keyCondition("#pk = :p", NAMES, VALUES, "pk", null).usedNames()).containsExactly("#pk");
    }

    @Test
    void keyCondition_whenEachSortOperator_itsSortCondition() {
        assertThat(parse("pk = :p AND sk = :a").sortCondition()).contains(new SortCondition.Equal(n("1")));
        assertThat(parse("pk = :p AND sk < :a").sortCondition()).contains(new SortCondition.LessThan(n("1")));
        assertThat(parse("pk = :p AND sk <= :a").sortCondition()).contains(new SortCondition.LessOrEqual(n("1")));
        assertThat(parse("pk = :p AND sk > :a").sortCondition()).contains(new SortCondition.GreaterThan(n("1")));
        assertThat(parse("pk = :p AND sk >= :a").sortCondition()).contains(new SortCondition.GreaterOrEqual(n("1")));
        assertThat(parse("pk = :p AND sk BETWEEN :a AND :b").sortCondition()).contains(new SortCondition.Between(n("1"), n("5")));
        assertThat(parse("pk = :p AND begins_with(sk, :pre)").sortCondition()).contains(new SortCondition.BeginsWith(s("ab")));
    }

    @Test
    void keyCondition_whenReorderedOrParenthesized_same() {
        Optional<SortCondition> expected = Optional.of(new SortCondition.LessThan(n("1")));
        assertThat(parse("sk < :a AND pk = :p").sortCondition()).isEqualTo(expected);
        assertThat(parse("(pk = :p) AND (sk < :a)").sortCondition()).isEqualTo(expected);
        assertThat(parse("(#pk = :p AND #sk < :a)").sortCondition()).isEqualTo(expected);
        assertThat(parse(":p = pk AND :a > sk").sortCondition()).isEqualTo(expected);
    }

    @Test
    void keyCondition_whenPartitionMissing_missedKeySchemaElement() {
        assertThat(error("sk = :a")).isEqualTo("Query condition missed key schema element: pk");
        assertThat(error("extra = :a")).isEqualTo("Query condition missed key schema element: pk");
    }

    @Test
    void keyCondition_whenNonKeyAttribute_missedKeySchemaElement() {
        assertThat(error("pk = :p AND extra = :a")).isEqualTo("Query condition missed key schema element: sk");
    }

    /** Captured against DynamoDB by the dynamodb-conformance suite (queryKeyConditionOperands). */
    @Test
    void keyCondition_whenMoreConditionsThanKeys_numberOfConditionsExceeds() {
        assertThat(error("pk = :p AND sk > :a AND extra = :b"))
                .isEqualTo("The number of query conditions (3) exceeds the number of key attributes defined in the schema (2)");
        assertThatThrownBy(() -> Expressions.keyCondition("pk = :p AND sk = :a", NAMES, VALUES, "pk", null))
                .hasMessage("The number of query conditions (2) exceeds the number of key attributes defined in the schema (1)");
    }

    @Test
    void keyCondition_whenBadOperandBeforeUndefinedValue_operandReportedFirst() {
        assertThat(error("begins_with(sk, :num) AND pk = :missing")).contains("operand type: N");
        assertThat(error("pk = :missing AND begins_with(sk, :num)")).contains("attribute value: :missing");
    }

    @Test
    void keyCondition_whenPartitionNotEquality_notSupported() {
        assertThat(error("pk < :p")).isEqualTo("Query key condition not supported");
        assertThat(error("begins_with(pk, :pre)")).isEqualTo("Query key condition not supported");
        assertThat(error("pk = :p AND sk.x = :a"))
                .isEqualTo("Invalid KeyConditionExpression: KeyConditionExpressions cannot have conditions on nested attributes");
        assertThat(error("pk[0] = :p")).contains("cannot have conditions on nested attributes");
    }

    @Test
    void keyCondition_whenTwoConditionsOnAKey_oneConditionPerKey() {
        assertThat(error("pk = :p AND sk > :a AND sk < :b"))
                .isEqualTo("Invalid KeyConditionExpression: KeyConditionExpressions must only contain one condition per key");
        assertThat(error("pk = :p AND pk = :p")).contains("one condition per key");
    }

    @ParameterizedTest
    @ValueSource(strings = {"pk = :p OR sk = :a", "NOT pk = :p", "pk IN (:p)", "pk = :p AND sk <> :a",
            "pk = :p AND attribute_exists(sk)", "pk = :p AND contains(sk, :pre)"})
    void keyCondition_whenOtherOperator_invalidOperator(String text) {
        // DynamoDB words these without the "Invalid KeyConditionExpression: " prefix.
        assertThat(error(text)).startsWith("Invalid operator used in KeyConditionExpression: ");
    }

    @Test
    void keyCondition_whenBetweenReversed_upperBoundError() {
        assertThat(error("pk = :p AND sk BETWEEN :b AND :a")).isEqualTo("Invalid KeyConditionExpression: The BETWEEN operator requires "
                + "upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {N:5}, "
                + "upper bound operand: AttributeValue: {N:1}");
    }

    @Test
    void keyCondition_whenBeginsWithNumber_incorrectOperandType() {
        assertThat(error("pk = :p AND begins_with(sk, :num)")).isEqualTo("Invalid KeyConditionExpression: Incorrect operand type "
                + "for operator or function; operator or function: begins_with, operand type: N");
    }

    @Test
    void keyCondition_whenSyntaxOrReserved_refused() {
        assertThat(error("pk = :p AND")).startsWith("Invalid KeyConditionExpression: Syntax error; token: \"<EOF>\"");
        assertThatThrownBy(() -> Expressions.keyCondition("status = :p", null, VALUES, "status", null))
                .hasMessage("Invalid KeyConditionExpression: Attribute name is a reserved keyword; reserved keyword: status");
    }

    // SortCondition.test: key order (AWS "Query": S by UTF-8 bytes, N numerically, B unsigned).

    @Test
    void test_whenComparisons_keyOrder() {
        assertThat(new SortCondition.LessThan(n("10")).test(n("9"))).isTrue();
        assertThat(new SortCondition.LessThan(s("10")).test(s("9"))).isFalse();
        assertThat(new SortCondition.GreaterThan(s("\uFFFD")).test(s("\uD83D\uDE00"))).isTrue();
        assertThat(new SortCondition.GreaterOrEqual(b(0x7f)).test(b(0x80))).isTrue();
        assertThat(new SortCondition.LessOrEqual(n("1.0")).test(n("1"))).isTrue();
        assertThat(new SortCondition.Equal(n("1.0")).test(n("1"))).isTrue();
        assertThat(new SortCondition.Equal(s("1")).test(n("1"))).isFalse();
        assertThat(new SortCondition.Between(n("1"), n("5")).test(n("5"))).isTrue();
        assertThat(new SortCondition.Between(n("1"), n("5")).test(n("5.1"))).isFalse();
        assertThat(new SortCondition.Between(s("a"), s("c")).test(s("bzz"))).isTrue();
    }

    @Test
    void test_whenBeginsWith_stringsAndBinaries() {
        assertThat(new SortCondition.BeginsWith(s("ab")).test(s("abc"))).isTrue();
        assertThat(new SortCondition.BeginsWith(s("ab")).test(s("a"))).isFalse();
        assertThat(new SortCondition.BeginsWith(b(1, 2)).test(b(1, 2, 3))).isTrue();
        assertThat(new SortCondition.BeginsWith(b(1, 2)).test(b(1, 3))).isFalse();
        assertThat(new SortCondition.BeginsWith(s("1")).test(n("12"))).isFalse();
    }
}
