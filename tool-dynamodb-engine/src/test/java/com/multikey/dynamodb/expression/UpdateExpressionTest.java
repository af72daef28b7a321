package com.multikey.dynamodb.expression;

import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.value.Bytes;
import com.multikey.dynamodb.value.Numbers;
import com.multikey.dynamodb.value.Value;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Written from AWS "Using update expressions in DynamoDB" (SET with arithmetic, if_not_exists and
 * list_append; list elements past the end; REMOVE shifting list elements; ADD on numbers and sets; DELETE from
 * sets) and the UpdateItem API reference (UpdateExpression).
 */
class UpdateExpressionTest {

    private static Value s(String v) {
        return new Value.S(v);
    }

    private static Value n(String v) {
        return new Value.N(Numbers.parse(v));
    }

    private static Value ss(String... v) {
        return new Value.SS(new LinkedHashSet<>(List.of(v)));
    }

    private static Value ns(String... v) {
        Set<BigDecimal> set = new LinkedHashSet<>();
        for (String x : v) {
            set.add(Numbers.parse(x));
        }
        return new Value.NS(set);
    }

    private static Value list(Value... v) {
        return new Value.L(List.of(v));
    }

    private static final Map<String, Value> VALUES = Map.ofEntries(
            Map.entry(":one", n("1")), Map.entry(":two", n("2")), Map.entry(":x", s("x")), Map.entry(":y", s("y")),
            Map.entry(":l", list(s("z"))), Map.entry(":empty", list()), Map.entry(":ab", ss("a", "b")), Map.entry(":bc", ss("b", "c")),
            Map.entry(":n12", ns("1", "2")), Map.entry(":m", new Value.M(Map.of())), Map.entry(":true", new Value.Bool(true)),
            Map.entry(":bs", new Value.BS(Set.of(Bytes.of(new byte[]{1})))),
            Map.entry(":max", n("9.9999999999999999999999999999999999999E+125")));
    private static final Map<String, String> NAMES = Map.of("#s", "status", "#a", "a", "#k", "count");

    private static Map<String, Value> base() {
        Map<String, Value> item = new LinkedHashMap<>();
        item.put("pk", s("p"));
        item.put("num", n("10"));
        item.put("str", s("text"));
        item.put("lst", list(s("a"), s("b"), s("c"), s("d")));
        item.put("doc", new Value.M(Map.of("in2", new Value.M(Map.of("leaf", n("1"))), "side", s("o"))));
        item.put("tags", ss("a", "b"));
        item.put("nums", ns("1", "5"));
        return item;
    }

    private static Map<String, Value> apply(String expression) {
        return apply(expression, base());
    }

    private static Map<String, Value> apply(String expression, Map<String, Value> item) {
        return Expressions.update(expression, NAMES, VALUES).apply(item);
    }

    private static String error(String expression) {
        try {
            Expressions.update(expression, NAMES, VALUES);
        } catch (EngineException e) {
            assertThat(e.type()).isEqualTo("ValidationException");
            return e.getMessage();
        }
        throw new AssertionError("no error for " + expression);
    }

    private static String applyError(String expression, Map<String, Value> item) {
        UpdateExpression update = Expressions.update(expression, NAMES, VALUES);
        try {
            update.apply(item);
        } catch (EngineException e) {
            assertThat(e.type()).isEqualTo("ValidationException");
            return e.getMessage();
        }
        throw new AssertionError("no error applying " + expression);
    }

    // SET

    @Test
    void apply_whenSetValuesAndPaths_written() {
        Map<String, Value> after = apply("SET #a = :x, dup = str, doc.in2.leaf = :two, doc.fresh = :one");
        assertThat(after).containsEntry("a", s("x")).containsEntry("dup", s("text"));
        assertThat(((Value.M) ((Value.M) after.get("doc")).entries().get("in2")).entries()).containsEntry("leaf", n("2"));
        assertThat(((Value.M) after.get("doc")).entries()).containsEntry("fresh", n("1")).containsEntry("side", s("o"));
    }

    @Test
    void apply_whenGivenItem_leftUnchanged() {
        Map<String, Value> item = base();
        Map<String, Value> copy = new HashMap<>(item);
        apply("SET num = :one REMOVE str", item);
        assertThat(item).isEqualTo(copy);
    }

    @Test
    void apply_whenSwapping_readsTheItemBeforeTheUpdate() {
        Map<String, Value> after = apply("SET num = str, str = num");
        assertThat(after).containsEntry("num", s("text")).containsEntry("str", n("10"));
    }

    @Test
    void apply_whenArithmetic_numbersAddedOrSubtracted() {
        assertThat(apply("SET num = num + :one")).containsEntry("num", n("11"));
        assertThat(apply("SET num = num - :two")).containsEntry("num", n("8"));
        assertThat(apply("SET summed = :one + :two")).containsEntry("summed", n("3"));
        assertThat(apply("SET num = :two-num")).containsEntry("num", n("-8"));
    }

    /** AWS "Update expressions" (incrementing and decrementing) writes SET Price = Price - :p; parentheses are allowed too. */
    @Test
    void apply_whenArithmeticParenthesized_sameResult() {
        assertThat(apply("SET num = (num - :two)")).containsEntry("num", n("8"));
        assertThat(apply("SET num = (num) + (:one)")).containsEntry("num", n("11"));
        assertThat(apply("SET num = if_not_exists(num, :one) - :two")).containsEntry("num", n("8"));
        assertThat(apply("SET num = (num - :two) + :one")).containsEntry("num", n("9"));
        assertThat(error("SET num = (num - :two")).contains("token: \"<EOF>\"");
    }

    @Test
    void apply_whenArithmeticOnNonNumber_incorrectDataType() {
        assertThat(applyError("SET num = str + :one", base())).isEqualTo("An operand in the update expression has an incorrect data type");
        assertThat(error("SET num = num + :x")).isEqualTo(
                "Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: +, operand type: S");
    }

    @Test
    void apply_whenArithmeticOverflows_numberOverflow() {
        assertThat(applyError("SET big = :max + :max", base())).startsWith("Number overflow.");
    }

    @Test
    void apply_whenOperandAttributeMissing_refersToMissingAttribute() {
        assertThat(applyError("SET num = absent + :one", base()))
                .isEqualTo("The provided expression refers to an attribute that does not exist in the item");
        assertThat(applyError("SET x = absent", base()))
                .isEqualTo("The provided expression refers to an attribute that does not exist in the item");
    }

    @Test
    void apply_whenIfNotExists_existingOrFallback() {
        assertThat(apply("SET num = if_not_exists(num, :one)")).containsEntry("num", n("10"));
        assertThat(apply("SET fresh = if_not_exists(fresh, :one)")).containsEntry("fresh", n("1"));
        assertThat(apply("SET #k = if_not_exists(#k, :one) + :one")).containsEntry("count", n("2"));
        assertThat(error("SET num = if_not_exists(:one, :two)"))
                .isEqualTo("Invalid UpdateExpression: Operator or function requires a document path; operator or function: if_not_exists");
    }

    @Test
    void apply_whenListAppend_joinedInOrder() {
        assertThat(apply("SET lst = list_append(lst, :l)")).containsEntry("lst", list(s("a"), s("b"), s("c"), s("d"), s("z")));
        assertThat(apply("SET lst = list_append(:l, lst)")).containsEntry("lst", list(s("z"), s("a"), s("b"), s("c"), s("d")));
        assertThat(apply("SET fresh = list_append(if_not_exists(fresh, :empty), :l)")).containsEntry("fresh", list(s("z")));
        assertThat(applyError("SET lst = list_append(str, :l)", base())).isEqualTo("An operand in the update expression has an incorrect data type");
        assertThat(error("SET lst = list_append(lst, :x)")).contains("operator or function: list_append, operand type: S");
    }

    @Test
    void apply_whenSetListIndex_replacesOrAppendsPastTheEnd() {
        assertThat(apply("SET lst[1] = :x")).containsEntry("lst", list(s("a"), s("x"), s("c"), s("d")));
        assertThat(apply("SET lst[4] = :x")).containsEntry("lst", list(s("a"), s("b"), s("c"), s("d"), s("x")));
        assertThat(apply("SET lst[99] = :x")).containsEntry("lst", list(s("a"), s("b"), s("c"), s("d"), s("x")));
    }

    @Test
    void apply_whenSeveralIndexesPastTheEnd_appendedInTheOrderOfTheirNumbers() {
        assertThat(apply("SET lst[9] = :x, lst[5] = :y")).containsEntry("lst", list(s("a"), s("b"), s("c"), s("d"), s("y"), s("x")));
        assertThat(apply("SET lst[5] = :y, lst[9] = :x")).containsEntry("lst", list(s("a"), s("b"), s("c"), s("d"), s("y"), s("x")));
        assertThat(apply("SET lst[6] = :x, lst[4] = :y, lst[0] = :one"))
                .containsEntry("lst", list(n("1"), s("b"), s("c"), s("d"), s("y"), s("x")));
        assertThat(apply("SET lst[10] = :x, lst[2] = :y")).containsEntry("lst", list(s("a"), s("b"), s("y"), s("d"), s("x")));
    }

    @Test
    void apply_whenParentMissingOrNotContainer_invalidForUpdate() {
        String invalid = "The document path provided in the update expression is invalid for update";
        assertThat(applyError("SET absent.child = :one", base())).isEqualTo(invalid);
        assertThat(applyError("SET str.child = :one", base())).isEqualTo(invalid);
        assertThat(applyError("SET doc[0] = :one", base())).isEqualTo(invalid);
        assertThat(applyError("SET lst[9].x = :one", base())).isEqualTo(invalid);
        assertThat(applyError("SET absent[0] = :one", base())).isEqualTo(invalid);
    }

    /**
     * Every action refuses a parent that is missing or of the wrong kind, even REMOVE and DELETE which then
     * would have nothing to do (dynalite's tests, written against DynamoDB: "update non-existent nested
     * attribute in existing item").
     */
    @Test
    void apply_whenAnyActionHasABadParent_invalidForUpdate() {
        String invalid = "The document path provided in the update expression is invalid for update";
        for (String expression : List.of("REMOVE str.x", "REMOVE str[1]", "REMOVE absent.x", "REMOVE absent[1]", "REMOVE doc[1]",
                "REMOVE lst.x", "DELETE str.x :ab", "DELETE absent.x :ab", "DELETE doc[1] :ab", "DELETE lst.x :ab",
                "ADD str.x :ab", "ADD absent.x :ab", "ADD doc[1] :ab", "ADD lst.x :ab")) {
            assertThat(applyError(expression, base())).as(expression).isEqualTo(invalid);
        }
        assertThat(apply("DELETE doc.nope :ab")).isEqualTo(base());
        assertThat(apply("DELETE lst[9] :ab")).isEqualTo(base());
    }

    // REMOVE

    @Test
    void apply_whenRemove_attributesAndNestedGone() {
        Map<String, Value> after = apply("REMOVE str, doc.side, absent, doc.nope");
        assertThat(after).doesNotContainKey("str");
        assertThat(((Value.M) after.get("doc")).entries()).containsOnlyKeys("in2");
    }

    @Test
    void apply_whenRemoveListElements_originalIndexesAndShift() {
        assertThat(apply("REMOVE lst[0]")).containsEntry("lst", list(s("b"), s("c"), s("d")));
        assertThat(apply("REMOVE lst[1], lst[3]")).containsEntry("lst", list(s("a"), s("c")));
        assertThat(apply("REMOVE lst[3], lst[1]")).containsEntry("lst", list(s("a"), s("c")));
        assertThat(apply("REMOVE lst[7]")).containsEntry("lst", list(s("a"), s("b"), s("c"), s("d")));
        assertThat(apply("SET lst[2] = :x REMOVE lst[0]")).containsEntry("lst", list(s("b"), s("x"), s("d")));
        // an index past the original end removes nothing, not even an element another action appends
        assertThat(apply("SET lst[8] = :x, lst[9] = :y REMOVE lst[5], lst[4], lst[0]"))
                .containsEntry("lst", list(s("b"), s("c"), s("d"), s("x"), s("y")));
    }

    // ADD and DELETE

    @Test
    void apply_whenAddNumber_addedOrCreated() {
        assertThat(apply("ADD num :two")).containsEntry("num", n("12"));
        assertThat(apply("ADD fresh :two")).containsEntry("fresh", n("2"));
        assertThat(apply("ADD doc.in2.leaf :one")).containsEntry("doc",
                new Value.M(Map.of("in2", new Value.M(Map.of("leaf", n("2"))), "side", s("o"))));
        assertThat(apply("ADD num :one", new HashMap<>())).containsEntry("num", n("1"));
    }

    @Test
    void apply_whenAddSet_unionOrCreated() {
        assertThat(apply("ADD tags :bc")).containsEntry("tags", ss("a", "b", "c"));
        assertThat(apply("ADD fresh :ab")).containsEntry("fresh", ss("a", "b"));
        assertThat(apply("ADD nums :n12")).containsEntry("nums", ns("1", "5", "2"));
    }

    @Test
    void apply_whenAddToOtherType_incorrectDataType() {
        assertThat(applyError("ADD str :one", base())).isEqualTo("An operand in the update expression has an incorrect data type");
        assertThat(applyError("ADD tags :n12", base())).isEqualTo("An operand in the update expression has an incorrect data type");
        assertThat(error("ADD num :x")).isEqualTo("Invalid UpdateExpression: Incorrect operand type for operator or function; "
                + "operator: ADD, operand type: STRING, typeSet: ALLOWED_FOR_ADD_OPERAND");
        assertThat(error("ADD num :l")).contains("operand type: LIST");
        assertThat(error("ADD num str")).contains("Syntax error; token: \"str\"");
    }

    @Test
    void apply_whenDelete_subtractedAndLastElementRemovesAttribute() {
        assertThat(apply("DELETE tags :bc")).containsEntry("tags", ss("a"));
        assertThat(apply("DELETE tags :ab")).doesNotContainKey("tags");
        assertThat(apply("DELETE absent :ab")).doesNotContainKey("absent");
        assertThat(apply("DELETE nums :n12")).containsEntry("nums", ns("5"));
        assertThat(applyError("DELETE nums :ab", base())).isEqualTo("An operand in the update expression has an incorrect data type");
        assertThat(error("DELETE num :one")).isEqualTo("Invalid UpdateExpression: Incorrect operand type for operator or function; "
                + "operator: DELETE, operand type: NUMBER, typeSet: ALLOWED_FOR_DELETE_OPERAND");
    }

    // Clauses, paths, names

    @Test
    void update_whenClausesInAnyOrder_allApplied() {
        Map<String, Value> after = apply("remove str add num :one set fresh = :x delete tags :ab");
        assertThat(after).doesNotContainKeys("str", "tags").containsEntry("num", n("11")).containsEntry("fresh", s("x"));
    }

    @Test
    void update_whenClauseTwice_onlyOnce() {
        assertThat(error("SET a1 = :one SET a2 = :two"))
                .isEqualTo("Invalid UpdateExpression: The \"SET\" section can only be used once in an update expression;");
    }

    @Test
    void update_whenPathsOverlap_overlapError() {
        assertThat(error("SET doc = :m, doc.side = :x")).isEqualTo("Invalid UpdateExpression: Two document paths overlap with each other; "
                + "must remove or rewrite one of these paths; path one: [doc], path two: [doc, side]");
        assertThat(error("SET str = :x REMOVE str")).contains("Two document paths overlap").contains("path one: [str], path two: [str]");
    }

    @Test
    void update_whenPathsConflict_conflictError() {
        assertThat(error("SET doc.side = :x, doc[0] = :x")).isEqualTo("Invalid UpdateExpression: Two document paths conflict with each other; "
                + "must remove or rewrite one of these paths; path one: [doc, side], path two: [doc, [0]]");
    }

    @Test
    void update_whenFunctionNotForUpdates_refused() {
        assertThat(error("SET a1 = size(str)")).isEqualTo("Invalid UpdateExpression: The function is not allowed in an update expression; function: size");
        assertThat(error("SET a1 = nope(str)")).isEqualTo("Invalid UpdateExpression: Invalid function name; function: nope");
    }

    @Test
    void update_whenSyntaxErrors_syntaxError() {
        assertThat(error("SET a1 :one")).startsWith("Invalid UpdateExpression: Syntax error; token: \":one\"");
        assertThat(error("SET a1 = :one,")).contains("token: \"<EOF>\"");
        assertThat(error("a1 = :one")).contains("token: \"a1\"");
        assertThat(error("SET a1 = :one + :two + :one")).contains("token: \"+\"");
        assertThat(error("UPDATE a1 = :one")).contains("token: \"UPDATE\"");
    }

    /** Syntax errors DynamoDB gives, as collected in dynalite's tests (written against DynamoDB). */
    @Test
    void update_whenSyntaxAsDynamoDbSees_syntaxError() {
        for (String expression : List.of("whatever", "set a1", "add a1", "delete a1", "set a1=set", "remove a1 = b1", "add a1 = b1",
                "delete a1 b1", "delete a1 if_not_exist(b1)", "add abort b1", "add a1 if_not_exist(b1)", "remove a1 b1", "set a1 b1",
                "set :one = b1", "add :one b1", "delete :one b1", "remove :one", "set a1 = b1 / c1", "set a1 = b1 * c1",
                "set a1[1] = \"eight\"", "set a1[1] = 1", "SET a1 = if_not_exist(a1, 100)", "SET if_not_exist(a1, b1) = a1",
                "set (a1 = (b1 + c1))", "set a1 = (b1.c1).d1 + e1", "set a1 = (b1.c1)[0] + e1", "set a1 = b1 + c1 + d1")) {
            assertThat(error(expression)).as(expression).startsWith("Invalid UpdateExpression: Syntax error; ");
        }
    }

    /** The order of DynamoDB's reports past the syntax: the parser's, then repeated sections, then the validator's. */
    @Test
    void update_whenSeveralProblems_reportedInDynamoDbsOrder() {
        assertThat(error(" set #undefined = :undefined set abOrt = :one "))
                .isEqualTo("Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: abOrt");
        assertThat(error("set #undefined = if_not_exist(:undefined) set c1 = d1")).startsWith("Invalid UpdateExpression: Invalid function name; function: if_not_exist");
        assertThat(error("remove #undefined set a1 = b1 remove e1")).isEqualTo(
                "Invalid UpdateExpression: The \"REMOVE\" section can only be used once in an update expression;");
        assertThat(Expressions.update("set a1 = ((b1.c1) + (d1))", NAMES, VALUES).topLevelAttributes()).containsExactly("a1");
    }

    @Test
    void update_whenReservedOrUndefined_refused() {
        assertThat(error("SET status = :one")).isEqualTo("Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: status");
        assertThat(error("SET #nope = :one")).contains("attribute name: #nope");
        assertThat(error("SET a1 = :nope")).contains("attribute value: :nope");
        assertThat(error("ADD a1 :nope")).contains("attribute value: :nope");
    }

    /** ReturnValues UPDATED_NEW/UPDATED_OLD: only the changed fragments (dynamodb-conformance, updateItem). */
    @Test
    void updatedAttributes_whenNestedSetAndRemove_changedFragmentsOnly() {
        UpdateExpression update = Expressions.update("SET doc.side = :x, num = :one REMOVE str", NAMES, VALUES);
        Map<String, Value> old = base();
        Map<String, Value> updated = update.apply(old);
        assertThat(update.updatedAttributes(updated)).isEqualTo(Map.of("doc", new Value.M(Map.of("side", s("x"))), "num", n("1")));
        assertThat(update.updatedAttributes(old)).isEqualTo(Map.of("doc", new Value.M(Map.of("side", s("o"))), "num", n("10"), "str", s("text")));
        assertThat(Expressions.update("REMOVE str", NAMES, VALUES).updatedAttributes(apply("REMOVE str"))).isEmpty();
    }

    /** AWS quotas (Expression parameters): 4 KB per expression, 300 operators or functions. */
    @Test
    void update_whenExpression4096Bytes_accepted_and4097_refused() {
        String base = "SET a1 = :one";
        String at = base + " ".repeat(4096 - base.length());
        assertThat(apply(at)).containsEntry("a1", n("1"));
        assertThat(error(at + " ")).isEqualTo("Invalid UpdateExpression: Expression size has exceeded the maximum allowed size; expression size: 4097");
    }

    @Test
    void update_whenFunctionArgumentsWrong_countAndPathChecked() {
        assertThat(error("SET a1 = if_not_exists(str)"))
                .isEqualTo("Invalid UpdateExpression: Incorrect number of operands for operator or function; operator or function: if_not_exists, number of operands: 1");
        assertThat(error("SET a1 = if_not_exists(if_not_exists(str, :x), :y)"))
                .isEqualTo("Invalid UpdateExpression: Operator or function requires a document path; operator or function: if_not_exists");
        assertThat(error("SET #undefined = if_not_exists(:one)")).contains("attribute name: #undefined");
        assertThat(error("SET a1 = if_not_exists(:undefined)")).contains("attribute value: :undefined");
    }

    @Test
    void topLevelAttributes_whenNestedAndAliased_firstNames() {
        UpdateExpression update = Expressions.update("SET #s = :one, doc.in2.leaf = :two REMOVE lst[0] ADD #k :one DELETE tags :ab", NAMES, VALUES);
        assertThat(update.topLevelAttributes()).containsExactlyInAnyOrder("status", "doc", "lst", "count", "tags");
        assertThat(update.usedNames()).containsExactlyInAnyOrder("#s", "#k");
        assertThat(update.usedValues()).containsExactlyInAnyOrder(":one", ":two", ":ab");
    }
}
