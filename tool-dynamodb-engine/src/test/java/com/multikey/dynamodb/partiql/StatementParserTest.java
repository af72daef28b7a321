package com.multikey.dynamodb.partiql;

import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.value.Value;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Every statement form of PartiQL for DynamoDB as AWS documents it, and the refusals with their positions. */
class StatementParserTest {

    private static Expr.Path path(String... names) {
        return new Expr.Path(java.util.Arrays.stream(names).<Expr.Step>map(Expr.Step.Name::new).toList());
    }

    private static Expr.Literal s(String text) {
        return new Expr.Literal(new Value.S(text));
    }

    private static Expr.Literal n(String number) {
        return new Expr.Literal(new Value.N(new BigDecimal(number)));
    }

    @Test
    void parse_selectStar_withoutWhere() {
        Statement statement = StatementParser.parse("SELECT * FROM Orders");

        assertThat(statement).isEqualTo(new Statement.Select(List.of(), "Orders", Optional.empty(), Optional.empty(), Optional.empty(), 0));
    }

    @Test
    void parse_selectOfAQuotedTableAndIndex_withProjectionWhereAndOrderBy() {
        Statement statement = StatementParser.parse("select OrderID, \"a.b\", m.k[2] from \"Orders\".\"ByCustomer\" "
                + "where OrderID = 100 and Address = 'some address' order by OrderID desc;");

        assertThat(statement).isEqualTo(new Statement.Select(
                List.of(path("OrderID"), path("a.b"), new Expr.Path(List.of(new Expr.Step.Name("m"), new Expr.Step.Name("k"), new Expr.Step.Index(2)))),
                "Orders", Optional.of("ByCustomer"),
                Optional.of(new Expr.And(new Expr.Comparison("=", path("OrderID"), n("100")),
                        new Expr.Comparison("=", path("Address"), s("some address")))),
                Optional.of(new Statement.OrderBy(path("OrderID"), true)), 0));
    }

    @Test
    void parse_whereOperators_withTheirPrecedence() {
        Statement.Select select = (Statement.Select) StatementParser.parse("SELECT * FROM t WHERE a <> 1 OR NOT b BETWEEN 1 AND 2 "
                + "AND c IN [1, 2] AND d IS NOT MISSING AND e IS NULL AND begins_with(f, 'x') AND size(g) > -3 AND h != ?");

        Expr expected = new Expr.Or(new Expr.Comparison("<>", path("a"), n("1")),
                new Expr.And(new Expr.And(new Expr.And(new Expr.And(new Expr.And(new Expr.And(
                        new Expr.Not(new Expr.Between(path("b"), n("1"), n("2"))),
                        new Expr.In(path("c"), List.of(n("1"), n("2")))),
                        new Expr.Is(path("d"), true, true)),
                        new Expr.Is(path("e"), false, false)),
                        new Expr.Call("begins_with", List.of(path("f"), s("x")))),
                        new Expr.Comparison(">", new Expr.Call("size", List.of(path("g"))), n("-3"))),
                        new Expr.Comparison("<>", path("h"), new Expr.Parameter(0))));
        assertThat(select.where()).contains(expected);
        assertThat(select.parameters()).isEqualTo(1);
    }

    @Test
    void parse_insert_ofATupleWithEveryKindOfValue() {
        Statement statement = StatementParser.parse("INSERT INTO \"Music\" value {'Artist': 'Acme Band', 'n': 1.5e2, "
                + "'b': TRUE, 'z': null, 'l': [1, 'two'], 'm': {'k': ?}, 's': <<'a', 'b'>>, 'it''s': 'o''k'}");

        assertThat(statement).isEqualTo(new Statement.Insert("Music", new Expr.Tuple(List.of(
                new Expr.Entry("Artist", s("Acme Band")), new Expr.Entry("n", n("150")),
                new Expr.Entry("b", new Expr.Literal(new Value.Bool(true))), new Expr.Entry("z", new Expr.Literal(new Value.Null())),
                new Expr.Entry("l", new Expr.ListOf(List.of(n("1"), s("two")))),
                new Expr.Entry("m", new Expr.Tuple(List.of(new Expr.Entry("k", new Expr.Parameter(0))))),
                new Expr.Entry("s", new Expr.Bag(List.of(s("a"), s("b")))),
                new Expr.Entry("it's", s("o'k")))), 1));
    }

    @Test
    void parse_update_withSetRemoveAndReturning() {
        Statement statement = StatementParser.parse("UPDATE \"Music\" SET AwardsWon = 1 SET AwardDetail = {'Grammys': [2020, 2018]}, "
                + "n = n + ?, l = list_append(l, [3]) REMOVE old WHERE Artist = 'Acme Band' AND SongTitle = 'PartiQL Rocks' "
                + "RETURNING MODIFIED NEW *");

        assertThat(statement).isEqualTo(new Statement.Update("Music", List.of(
                new Statement.Clause.Set(path("AwardsWon"), n("1")),
                new Statement.Clause.Set(path("AwardDetail"), new Expr.Tuple(List.of(new Expr.Entry("Grammys",
                        new Expr.ListOf(List.of(n("2020"), n("2018"))))))),
                new Statement.Clause.Set(path("n"), new Expr.Arithmetic("+", path("n"), new Expr.Parameter(0))),
                new Statement.Clause.Set(path("l"), new Expr.Call("list_append", List.of(path("l"), new Expr.ListOf(List.of(n("3")))))),
                new Statement.Clause.Remove(path("old"))),
                new Expr.And(new Expr.Comparison("=", path("Artist"), s("Acme Band")),
                        new Expr.Comparison("=", path("SongTitle"), s("PartiQL Rocks"))),
                Statement.Returning.MODIFIED_NEW, 1));
    }

    @Test
    void parse_delete_returningAllOld() {
        Statement statement = StatementParser.parse("DELETE FROM Music WHERE Artist = 'Acme Band' RETURNING ALL OLD *");

        assertThat(statement).isEqualTo(new Statement.Delete("Music", new Expr.Comparison("=", path("Artist"), s("Acme Band")),
                Statement.Returning.ALL_OLD, 0));
    }

    @Test
    void parse_exists_ofASelect() {
        Statement statement = StatementParser.parse("EXISTS(SELECT * FROM \"Music\" where Artist = ? and Awards is MISSING)");

        assertThat(statement).isEqualTo(new Statement.Exists(new Statement.Select(List.of(), "Music", Optional.empty(),
                Optional.of(new Expr.And(new Expr.Comparison("=", path("Artist"), new Expr.Parameter(0)),
                        new Expr.Is(path("Awards"), true, false))), Optional.empty(), 1)));
        assertThat(statement.parameters()).isEqualTo(1);
        assertThat(statement.read()).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "DROP TABLE t|Expected data manipulation",
            "SLECT * FROM t|Expected data manipulation",
            "SELECT * FROM|expected a table name but found end of statement at line 1, column 14",
            "SELECT * FROM t WHERE|unexpected end of statement at line 1, column 22",
            "SELECT * FROM t WHERE a = 1 extra|unexpected 'extra' at line 1, column 29",
            "SELECT * FROM t WHERE a IS EMPTY|expected MISSING or NULL but found 'EMPTY' at line 1, column 28",
            "SELECT * FROM t WHERE a = 'open|unterminated string at line 1, column 27",
            "SELECT * FROM t WHERE a = 1 # 2|unexpected character '#' at line 1, column 29",
            "INSERT INTO t VALUE 'x'|INSERT's VALUE must be a tuple {'attribute': value, ...} at line 1, column 21",
            "INSERT INTO t VALUE {a: 1}|expected a 'quoted' attribute name but found 'a' at line 1, column 22",
            "UPDATE t WHERE a = 1|expected SET or REMOVE but found 'WHERE' at line 1, column 10",
            "UPDATE t SET a = 1|expected WHERE but found end of statement at line 1, column 19",
            "DELETE FROM t WHERE a = 1 RETURNING ALL NEW *|a DELETE can only return ALL OLD * at line 1, column 37",
            "SELECT * FROM t WHERE a[x] = 1|expected a list index but found 'x' at line 1, column 25",
            "SELECT * FROM t WHERE a = 1e999999|invalid number '1e999999' at line 1, column 27",
            "EXISTS(DELETE FROM t WHERE a = 1)|expected SELECT but found 'DELETE' at line 1, column 8",
            "EXISTS(SELECT * FROM t WHERE a = 1|expected ')' but found end of statement at line 1, column 35",
    })
    void parse_refusesWhatIsNotAStatement_namingWhereInIt(String statement, String detail) {
        EngineException error = catchThrowableOfType(EngineException.class, () -> StatementParser.parse(statement));

        assertThat(error.type()).isEqualTo("ValidationException");
        assertThat(error.getMessage()).isEqualTo("Statement wasn't well formed, can't be processed: " + detail);
    }

    @Test
    void parse_refusal_countsLinesAndColumns() {
        EngineException error = catchThrowableOfType(EngineException.class,
                () -> StatementParser.parse("SELECT *\nFROM t\nWHERE a = = 1"));

        assertThat(error.getMessage()).endsWith("unexpected '=' at line 3, column 11");
    }

    @Test
    void translation_rendersConditionsUpdatesAndKeys_asTheExpressionLanguage() {
        // given
        Statement.Update update = (Statement.Update) StatementParser.parse("UPDATE t SET a.b = ?, c = set_add(c, <<1, 2>>) "
                + "REMOVE d[0] WHERE id = 'x' AND e IS MISSING");
        Translation translation = new Translation(List.of(new Value.S("p")));

        // when
        String updateText = translation.update(update.clauses());
        String condition = translation.condition(update.where());

        // then
        assertThat(updateText).isEqualTo("SET #n0.#n1 = :v0 ADD #n2 :v1 REMOVE #n3[0]");
        assertThat(condition).isEqualTo("(#n4 = :v2) AND (attribute_not_exists(#n5))");
        assertThat(translation.names()).isEqualTo(Map.of("#n0", "a", "#n1", "b", "#n2", "c", "#n3", "d", "#n4", "id", "#n5", "e"));
        assertThat(translation.values()).containsEntry(":v1", new Value.NS(Set.of(BigDecimal.ONE, BigDecimal.TWO)));
        assertThat(translation.equalities(Optional.of(update.where()))).isEqualTo(Map.of("id", new Value.S("x")));
        assertThat(Translation.without(update.where(), Set.of("id"))).contains(new Expr.Is(path("e"), true, false));
    }
}
