package com.multikey.dynamodb.expression;

import com.multikey.dynamodb.value.Numbers;
import com.multikey.dynamodb.value.Value;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Written from AWS "Using projection expressions in DynamoDB" (top-level and nested attributes, list
 * elements, expression attribute names) and "Reserved words in DynamoDB".
 */
class ProjectionExpressionTest {

    private static Value s(String v) {
        return new Value.S(v);
    }

    private static Value n(String v) {
        return new Value.N(Numbers.parse(v));
    }

    private static Map<String, Value> item() {
        Map<String, Value> item = new LinkedHashMap<>();
        item.put("pk", s("p"));
        item.put("title", s("t"));
        item.put("lst", new Value.L(List.of(s("a"), s("b"), s("c"), new Value.M(Map.of("k", s("v"), "j", s("w"))))));
        item.put("doc", new Value.M(Map.of("x", n("1"), "y", new Value.M(Map.of("z", n("2"), "q", n("3"))))));
        item.put("status", s("on"));
        return item;
    }

    private static Map<String, Value> project(String expression) {
        return Expressions.projection(expression, Map.of("#s", "status", "#y", "y")).project(item());
    }

    @Test
    void project_whenTopLevel_onlyThoseThatExist() {
        assertThat(project("pk, title, absent")).containsExactly(Map.entry("pk", s("p")), Map.entry("title", s("t")));
        assertThat(project("#s")).containsExactly(Map.entry("status", s("on")));
    }

    @Test
    void project_whenNestedMapPaths_keepNesting() {
        assertThat(project("doc.#y.z, doc.x")).containsExactly(Map.entry("doc",
                new Value.M(Map.of("x", n("1"), "y", new Value.M(Map.of("z", n("2")))))));
        assertThat(project("doc.nope")).isEmpty();
        assertThat(project("doc.x.deeper")).isEmpty();
    }

    @Test
    void project_whenListElements_listOfSelectedInListOrder() {
        assertThat(project("lst[2], lst[0]")).containsExactly(Map.entry("lst", new Value.L(List.of(s("a"), s("c")))));
        assertThat(project("lst[3].k")).containsExactly(Map.entry("lst", new Value.L(List.of(new Value.M(Map.of("k", s("v")))))));
        assertThat(project("lst[9]")).isEmpty();
        assertThat(project("doc[0]")).isEmpty();
    }

    @Test
    void projection_whenPathsOverlapOrConflict_refused() {
        assertThatThrownBy(() -> project("doc, doc.x")).hasMessage("Invalid ProjectionExpression: Two document paths overlap with each other; "
                + "must remove or rewrite one of these paths; path one: [doc], path two: [doc, x]");
        assertThatThrownBy(() -> project("lst[0], lst.a")).hasMessageContaining("Two document paths conflict with each other");
    }

    @Test
    void projection_whenReservedOrSyntax_refused() {
        assertThatThrownBy(() -> project("pk, status")).hasMessage("Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: status");
        assertThatThrownBy(() -> project("pk,")).hasMessage("Invalid ProjectionExpression: Syntax error; token: \"<EOF>\", near: \",\"");
        assertThatThrownBy(() -> project("system-id")).hasMessage("Invalid ProjectionExpression: Syntax error; token: \"-\", near: \"system-id\"");
        assertThatThrownBy(() -> project("#nope")).hasMessageContaining("attribute name: #nope");
        assertThatThrownBy(() -> project("pk :v")).hasMessageContaining("Syntax error; token: \":v\"");
    }

    @Test
    void projection_whenExpression4096Bytes_accepted_and4097_refused() {
        String at = "pk" + ", pk2".repeat((4096 - 2) / 5) + " ".repeat((4096 - 2) % 5);
        assertThat(at).hasSize(4096);
        assertThatThrownBy(() -> Expressions.projection(at, Map.of())).hasMessageContaining("Two document paths overlap");
        String distinct = distinctPaths(4096);
        assertThat(Expressions.projection(distinct, Map.of()).project(item())).containsKey("pk");
        assertThatThrownBy(() -> Expressions.projection(distinct + " ", Map.of()))
                .hasMessage("Invalid ProjectionExpression: Expression size has exceeded the maximum allowed size; expression size: 4097");
    }

    /** "pk, a1, a2, ..." padded with blanks to exactly this many bytes. */
    private static String distinctPaths(int length) {
        StringBuilder text = new StringBuilder("pk");
        for (int i = 1; text.length() + (", a" + i).length() <= length; i++) {
            text.append(", a").append(i);
        }
        return text + " ".repeat(length - text.length());
    }

    @Test
    void project_whenTwoFieldsOfOneListElement_mergedIntoOneElement() {
        Map<String, Value> item = Map.of("l", new Value.L(List.of(new Value.M(Map.of("a", s("1"), "b", s("2"), "c", s("3"))))));
        assertThat(Expressions.projection("l[0].a, l[0].b", Map.of()).project(item))
                .isEqualTo(Map.of("l", new Value.L(List.of(new Value.M(Map.of("a", s("1"), "b", s("2")))))));
    }

    @Test
    void usedNames_whenAliases_reported() {
        assertThat(Expressions.projection("#s, doc.#y", Map.of("#s", "status", "#y", "y")).usedNames()).containsExactlyInAnyOrder("#s", "#y");
    }
}
