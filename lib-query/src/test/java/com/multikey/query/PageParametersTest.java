package com.multikey.query;

import com.multikey.index.IndexValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one parser of page parameters the read API and the CLI share: what it reads, and a typed refusal for each parameter. */
class PageParametersTest {

    @Test
    void parse_whenNothingIsGiven_isTheFirstAscendingPageOf25() {
        // when
        PageParameters parameters = PageParameters.parse(Map.of(), List.of());

        // then
        assertThat(parameters).isEqualTo(new PageParameters(Order.ASC, 25, Optional.empty(), false, Optional.empty(), List.of(),
                Optional.empty(), false));
    }

    @Test
    void parse_whenEveryParameterIsGiven_readsEach() {
        // given
        Map<PageParameters.Parameter, String> given = new EnumMap<>(Map.of(PageParameters.Parameter.ORDER, "desc",
                PageParameters.Parameter.PAGE_SIZE, "7", PageParameters.Parameter.CURSOR, "c", PageParameters.Parameter.TYPE, "number",
                PageParameters.Parameter.GE, "3", PageParameters.Parameter.LT, "9", PageParameters.Parameter.BUDGET, "300",
                PageParameters.Parameter.EXPLAIN, "true"));

        // when
        PageParameters parameters = PageParameters.parse(given, List.of("status = open"));
        PageRequest request = parameters.gridRequest("project#1", "3812");

        // then
        assertThat(request.order()).isEqualTo(Order.DESC);
        assertThat(request.pageSize()).isEqualTo(7);
        assertThat(request.cursor()).contains("c");
        assertThat(request.filter()).contains(new Filter.Range(num("3"), true, num("9"), false));
        assertThat(request.predicates()).containsExactly(new Predicate.Equals("status", new IndexValue.Text("open")));
        assertThat(request.readBudget()).isEqualTo(300);
        assertThat(request.explain()).isTrue();
    }

    @Test
    void parse_whenAWhereCombinesPredicates_readsItsExpression_andTheWheresStayAnded() {
        // when
        PageParameters parameters = PageParameters.parse(Map.of(), List.of("status = open or assignee = me", "not (labels = wontfix)",
                "severity >= 3"));
        PageRequest request = parameters.gridRequest("project#1", "3812");

        // then
        Predicate open = new Predicate.Equals("status", new IndexValue.Text("open"));
        Predicate mine = new Predicate.Equals("assignee", new IndexValue.Text("me"));
        Predicate severe = new Predicate.Range("severity", num("3"), true, null, false);
        List<Object> where = List.of(new Expression.Or(List.of(open, mine)),
                new Expression.Not(new Predicate.Equals("labels", new IndexValue.Text("wontfix"))), severe);
        assertThat(parameters.predicates()).isEqualTo(where);
        assertThat(request.expressions()).isEqualTo(where);
        assertThat(request.predicates()).containsExactly(severe);
    }

    @Test
    void parse_whenAWhereDoesNotParse_namesItsPositionAndTheOffset() {
        assertThatThrownBy(() -> PageParameters.parse(Map.of(), List.of("status = open", "a = 1 or (b = 2")))
                .isInstanceOfSatisfying(InvalidPredicateException.class, e -> {
                    assertThat(e.position()).isEqualTo(1);
                    assertThat(e.offset()).isEqualTo(9);
                })
                .hasMessage("predicate 1 at character 9: has a '(' that does not close");
    }

    @ParameterizedTest
    @CsvSource({
            "ORDER, up", "PAGE_SIZE, 0", "PAGE_SIZE, 101", "PAGE_SIZE, 1e1", "PAGE_SIZE, ' 5'", "MISSING, yes", "EXPLAIN, 1",
            "TYPE, date", "EQUALS, N", "BUDGET, 1", "BUDGET, many"})
    void parse_whenAParameterIsNotUsable_refusesNamingIt(PageParameters.Parameter parameter, String text) {
        // given
        Map<PageParameters.Parameter, String> given = new EnumMap<>(PageParameters.Parameter.class);
        given.put(parameter, text);
        if (parameter == PageParameters.Parameter.EQUALS) {
            given.put(PageParameters.Parameter.TYPE, "number");
        }

        // when, then
        assertThatThrownBy(() -> PageParameters.parse(given, List.of()))
                .isInstanceOfSatisfying(FilterParameters.InvalidParameterException.class, e -> {
                    assertThat(e.kind()).isEqualTo(parameter);
                    assertThat(e.getMessage()).isEqualTo(parameter.apiName() + ": " + e.detail());
                });
    }

    @Test
    void parse_whenTheMissingTailComesWithAFilter_refusesNamingMissing() {
        assertThatThrownBy(() -> PageParameters.parse(Map.of(PageParameters.Parameter.MISSING, "true",
                PageParameters.Parameter.EQUALS, "x"), List.of()))
                .isInstanceOfSatisfying(FilterParameters.InvalidParameterException.class,
                        e -> assertThat(e.kind()).isEqualTo(PageParameters.Parameter.MISSING));
    }

    @Test
    void parse_whenAPredicateDoesNotParse_refusesNamingItsPosition() {
        assertThatThrownBy(() -> PageParameters.parse(Map.of(), List.of("status = open", "status in open")))
                .isInstanceOfSatisfying(InvalidPredicateException.class, e -> assertThat(e.position()).isEqualTo(1));
    }

    @Test
    void parameter_ofApiName_isEachParametersOwnName() {
        for (PageParameters.Parameter parameter : PageParameters.Parameter.values()) {
            assertThat(PageParameters.Parameter.ofApiName(parameter.apiName())).contains(parameter);
        }
        assertThat(PageParameters.Parameter.ofApiName("group")).isEmpty();
    }

    private static IndexValue num(String n) {
        return new IndexValue.Num(new BigDecimal(n));
    }
}
