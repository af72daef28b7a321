package com.multikey.dynamodb.expression;

import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.value.Bytes;
import com.multikey.dynamodb.value.Numbers;
import com.multikey.dynamodb.value.Value;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * DynamoDB's answers to malformed filter expressions, as collected by dynalite's test suite (written and run
 * against DynamoDB): which error each expression gets, including which of several problems is reported.
 * Together with AWS "Comparison operator and function reference" (grammar, functions).
 */
class ConditionValidationTest {

    private static String error(String expression, Map<String, String> names, Map<String, Value> values) {
        try {
            Expressions.condition("FilterExpression", expression, names, values);
        } catch (EngineException e) {
            assertThat(e.type()).isEqualTo("ValidationException");
            return e.getMessage();
        }
        throw new AssertionError("no error for " + expression);
    }

    private static String error(String expression) {
        return error(expression, Map.of(), Map.of());
    }

    @ParameterizedTest
    @ValueSource(strings = {"things are not gonna be ok", "a > 4", "attribute_exists(Pictures-RearView)",
            "attribute_exists(\"Pictures.RearView\")", "attribute_exists(Pictures..RearView)", "attribute_exists(Pi#ctures.RearView)",
            "attribute_exists(asdf[a])", "a.:a < b.:b", "a in b, c", "a > between", "a in b", "a in (b,c,)",
            "(a)between(b.(c.d))and(c)", "(a)between(b.c.d)and((c)", "#$.b > a", "a > :things.stuff", "b[:a] > a", "b[#_] > a",
            "ü > a", "(a)between(b.c[4.5].#d)and(:a)", "size(a).b > a", "(size(a)).b > a", "size(a)[0] > a", "(size(a))[0] > a"})
    void condition_whenMalformed_syntaxError(String expression) {
        assertThat(error(expression)).startsWith("Invalid FilterExpression: Syntax error; ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a=a and a > ((views))", "(a)between(((b.c)).d)and(c)", "a > whatever((:things), ((a)))",
            "a=a AND ((a=a AND a=a)) AND a=a", "a=a OR ((a=a OR a=a)) OR a=a", "a=a AND ((a=a AND (a=a AND a=a)))",
            "a=a OR ((a=a OR (a=a OR a=a)))", "((attribute_not_exists(pk)))"})
    void condition_whenParenthesesWrapParentheses_redundant(String expression) {
        assertThat(error(expression)).isEqualTo("Invalid FilterExpression: The expression has redundant parentheses;");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"a=a and whatever((:things)) > a|whatever", "attRIbute_exIsts((views), #a)|attRIbute_exIsts"})
    void condition_whenUnknownFunction_invalidFunctionName(String expression, String function) {
        assertThat(error(expression)).isEqualTo("Invalid FilterExpression: Invalid function name; function: " + function);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"a=a and attribute_exists((views), (#a)) > b|attribute_exists",
            "attribute_not_exists(things) > b|attribute_not_exists", "attribute_type(things, :a) > b|attribute_type",
            "begins_with(things, a) > b|begins_with", "contains(:things, c) > b|contains", "size(contains(a, b)) > a|contains",
            "size(things)|size", "a between b and attribute_exists(things)|attribute_exists",
            "a in (b, attribute_exists(things))|attribute_exists"})
    void condition_whenFunctionOutOfPlace_notAllowedThisWay(String expression, String function) {
        assertThat(error(expression))
                .isEqualTo("Invalid FilterExpression: The function is not allowed to be used this way in an expression; function: " + function);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"attribute_exists(views, #a)|views", ":a < abOrT|abOrT"})
    void condition_whenReservedWord_reportedBeforeValidation(String expression, String word) {
        assertThat(error(expression)).isEqualTo("Invalid FilterExpression: Attribute name is a reserved keyword; reserved keyword: " + word);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"attribute_exists(#Pictures.RearView, :a) and a=a|#Pictures", "begins_with(Pictures.#RearView)|#RearView",
            "(#P between :lo and :hi) and (#PC in (:cat1, :cat2))|#P", "#4g > a|#4g", "#_ > a|#_", "(a)between(b.c[45].#d)and(:a)|#d"})
    void condition_whenNameUndefined_notDefinedBeforeOtherChecks(String expression, String name) {
        assertThat(error(expression)).isEqualTo(
                "Invalid FilterExpression: An expression attribute name used in the document path is not defined; attribute name: " + name);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"begins_with(:hello, #a, #b)|:hello", ":a < :b|:a", ":_ > a|:_"})
    void condition_whenValueUndefined_firstInTextReported(String expression, String value) {
        assertThat(error(expression)).isEqualTo(
                "Invalid FilterExpression: An expression attribute value used in expression is not defined; attribute value: " + value);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"attribute_exists(things, a) and a=a|attribute_exists|2", "attribute_not_exists(things, b)|attribute_not_exists|2",
            "attribute_type(things)|attribute_type|1", "begins_with(things)|begins_with|1", "begins_with(things, size(a), b)|begins_with|3",
            "contains(things)|contains|1", "size(things, a) > b|size|2"})
    void condition_whenWrongArgumentCount_incorrectNumberOfOperands(String expression, String function, int count) {
        assertThat(error(expression)).isEqualTo("Invalid FilterExpression: Incorrect number of operands for operator or function; "
                + "operator or function: " + function + ", number of operands: " + count);
    }

    @Test
    void condition_whenOperandOfWrongType_incorrectOperandType() {
        Value n = new Value.N(Numbers.parse("1"));
        List<Value> notStrings = List.of(n, new Value.Bool(true), new Value.Null(), new Value.L(List.of()), new Value.M(Map.of()),
                new Value.SS(Set.of("1")), new Value.NS(Set.of(Numbers.parse("1"))), new Value.BS(Set.of(Bytes.of(new byte[]{97}))));
        for (Value v : notStrings) {
            for (String expression : List.of("begins_with(a, :a)", "begins_with(:a, a)")) {
                assertThat(error(expression, Map.of(), Map.of(":a", v))).as(expression + " " + v).isEqualTo(
                        "Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: " + v.type());
            }
            assertThat(error("attribute_type(a, :a)", Map.of(), Map.of(":a", v)))
                    .isEqualTo("Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: attribute_type, operand type: " + v.type());
        }
        String sizeIsANumber = "Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: %s, operand type: N";
        assertThat(error("attribute_type(a, size(a)) and a=a and a=:a")).isEqualTo(sizeIsANumber.formatted("attribute_type"));
        assertThat(error("begins_with(a, size(a)) and a=:a")).isEqualTo(sizeIsANumber.formatted("begins_with"));
        assertThat(error("size(size(a)) > :a", Map.of(), Map.of(":a", n))).isEqualTo(sizeIsANumber.formatted("size"));
        assertThat(error("attribute_not_exists(size(:a))", Map.of(), Map.of(":a", n))).isEqualTo(sizeIsANumber.formatted("size"));
        assertThat(error("size(:a) > a", Map.of(), Map.of(":a", new Value.Bool(true)))).endsWith("size, operand type: BOOL");
    }

    @Test
    void condition_whenValueWherePathBelongs_requiresDocumentPath() {
        Map<String, Value> values = Map.of(":a", new Value.S("1"));
        assertThat(error("attribute_exists(:a) and a=a", Map.of(), values))
                .isEqualTo("Invalid FilterExpression: Operator or function requires a document path; operator or function: attribute_exists");
        assertThat(error("attribute_not_exists(size(:a))", Map.of(), values))
                .isEqualTo("Invalid FilterExpression: Operator or function requires a document path; operator or function: attribute_not_exists");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"a = a AND #a = b AND :views > a|=|[a]", "#a <> a|<>|[a]", "a > #a|>|[a]", "((a=a) OR (a=a))|=|[a]",
            "((a=a) AND (a=a))|=|[a]", "contains(ab.bc[1].a, ab.bc[1].#a)|contains|[ab, bc, [1], a]",
            "attribute_type(ab.bc[1].#a, ab.bc[1].a)|attribute_type|[ab, bc, [1], a]",
            "begins_with(ab.bc[1].a, ab.bc[1].#a)|begins_with|[ab, bc, [1], a]"})
    void condition_whenPathRepeated_firstOperandMustBeDistinct(String expression, String operator, String path) {
        assertThat(error(expression, Map.of("#a", "a"), Map.of())).isEqualTo("Invalid FilterExpression: The first operand must be distinct "
                + "from the remaining operands for this operator or function; operator: " + operator + ", first operand: " + path);
    }

    @Test
    void condition_whenValueRepeated_accepted() {
        Value one = new Value.N(Numbers.parse("1"));
        assertThat(Expressions.condition("FilterExpression", ":a > :a", null, Map.of(":a", one)).test(Map.of())).isFalse();
    }

    @Test
    void condition_whenOperandsParenthesized_evaluated() {
        Value one = new Value.N(Numbers.parse("1"));
        Map<String, Value> values = Map.of(":lo", one, ":hi", new Value.N(Numbers.parse("3")));
        Map<String, Value> item = Map.of("a", new Value.N(Numbers.parse("2")));
        assertThat(Expressions.condition("FilterExpression", "(a)between(:lo)and(:hi)", null, values).test(item)).isTrue();
        assertThat(Expressions.condition("FilterExpression", "(a) > (:lo) AND ((a) < :hi)", null, values).test(item)).isTrue();
        assertThat(Expressions.condition("FilterExpression", "size((a)) > :lo", null, values).test(item)).isFalse();
        assertThatThrownBy(() -> Expressions.condition("FilterExpression", "(a)", null, values)).hasMessageContaining("Syntax error");
    }

    @Test
    void condition_whenAttributeTypeNameUnknown_listsValidTypes() {
        assertThat(error("attribute_type(a, :a)", Map.of(), Map.of(":a", new Value.S("1"))))
                .matches("Invalid FilterExpression: Invalid attribute type name found; type: 1, valid types: \\{((B|NULL|SS|BOOL|L|BS|N|NS|S|M),?){10}}");
    }

    /** dynalite's "non-scalar key access" cases: the caller refuses nested access to key attributes. */
    @Test
    void nestedAccessNames_whenNestedPaths_theirTopLevelNames() {
        assertThat(Expressions.condition("FilterExpression", "attribute_exists(a.b.c) and #a = b", Map.of("#a", "a"), null).nestedAccessNames())
                .containsExactly("a");
        assertThat(Expressions.condition("FilterExpression", "attribute_exists(#a[0]) and c = d", Map.of("#a", "x"), null).nestedAccessNames())
                .containsExactly("x");
        assertThat(Expressions.update("SET d.a = b ADD c[1] :v", null, Map.of(":v", new Value.N(Numbers.parse("1")))).nestedAccessNames())
                .containsExactlyInAnyOrder("d", "c");
        assertThat(Expressions.projection("a, b.c", null).nestedAccessNames()).containsExactly("b");
        assertThat(Expressions.condition("FilterExpression", "a = b", null, null).nestedAccessNames()).isEmpty();
    }

    /** dynalite's ExpressionAttributeNames/-Values key cases, answered by DynamoDB before any expression. */
    @Test
    void checkAttributeKeys_whenNotPlaceholders_syntaxErrorOnTheKey() {
        assertThatThrownBy(() -> Expressions.checkAttributeNameKeys(List.of("#ok", "a")))
                .hasMessage("ExpressionAttributeNames contains invalid key: Syntax error; key: \"a\"");
        assertThatThrownBy(() -> Expressions.checkAttributeValueKeys(List.of(":ok", "b")))
                .hasMessage("ExpressionAttributeValues contains invalid key: Syntax error; key: \"b\"");
        assertThatThrownBy(() -> Expressions.checkAttributeNameKeys(List.of("#a-b"))).hasMessageContaining("key: \"#a-b\"");
        Expressions.checkAttributeNameKeys(List.of("#a", "#_1", "#4g"));
        Expressions.checkAttributeValueKeys(List.of(":a", ":_", ":0"));
    }

    /** For the Query rule "Filter Expression can only contain non-primary key attributes". */
    @Test
    void topLevelNames_whenPathsAndFunctions_everyPathHead() {
        ConditionExpression filter = Expressions.condition("FilterExpression",
                "#s <> :v AND begins_with(a.b, :v) OR size(c[0]) > :n", Map.of("#s", "sk"), Map.of(":v", new Value.S("x"), ":n", new Value.N(Numbers.parse("1"))));
        assertThat(filter.topLevelNames()).containsExactlyInAnyOrder("sk", "a", "c");
    }
}
