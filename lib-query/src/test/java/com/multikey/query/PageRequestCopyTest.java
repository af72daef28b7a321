package com.multikey.query;

import com.multikey.index.IndexValue;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A request's copies keep every part of it but the one they change: compared through every public accessor of
 * {@link PageRequest}, so that a part added later is compared too.
 */
class PageRequestCopyTest {

    /** Every option set: an index, several groups, an entry, desc, a page size, a filter, predicates, a budget, explain, a cursor. */
    private static PageRequest everyOptionSet() {
        return new PageRequest("incidents-by-team", List.of(AttributeValue.fromS("sre")), "created", Order.DESC, 7,
                new Filter.Range(new IndexValue.Num(new BigDecimal("2")), true, null, false), false, "a-cursor")
                .withGroups(List.of(List.of(AttributeValue.fromS("sre")), List.of(AttributeValue.fromS("web"))))
                .where(List.of(PredicateText.parse("status = open", 0), ExpressionText.parse("a = 1 or not b = 2", 1)))
                .withReadBudget(40)
                .withExplain();
    }

    /** Each public accessor's answer (the parts of the request), by name. */
    private static Map<String, Object> parts(PageRequest request) throws Exception {
        Map<String, Object> parts = new TreeMap<>();
        for (Method method : PageRequest.class.getDeclaredMethods()) {
            if (Modifier.isPublic(method.getModifiers()) && !Modifier.isStatic(method.getModifiers()) && method.getParameterCount() == 0
                    && method.getReturnType() != PageRequest.class && !Set.of("project", "hashCode", "toString").contains(method.getName())) {
                parts.put(method.getName(), method.invoke(request));
            }
        }
        return parts;
    }

    @Test
    void fromStart_whenEveryOptionIsSet_keepsEveryPartButTheCursor() throws Exception {
        // given
        PageRequest asked = everyOptionSet();

        // when
        PageRequest first = asked.fromStart();

        // then
        Map<String, Object> expected = parts(asked);
        assertThat(expected.get("cursor")).isEqualTo(java.util.Optional.of("a-cursor"));
        expected.put("cursor", java.util.Optional.empty());
        assertThat(parts(first)).isEqualTo(expected);
        assertThat(first.identity()).isEqualTo(asked.identity());
        assertThat(expected.keySet()).containsAll(List.of("index", "group", "groups", "attribId", "order", "pageSize", "filter",
                "includeMissing", "cursor", "predicates", "expressions", "readBudget", "explain"));
    }

    @Test
    void withPageSize_whenEveryOptionIsSet_keepsEveryPartButThePageSize() throws Exception {
        // given
        PageRequest asked = everyOptionSet();

        // when
        PageRequest larger = asked.withPageSize(PageRequest.MAX_PAGE_SIZE);

        // then
        Map<String, Object> expected = parts(asked);
        expected.put("pageSize", PageRequest.MAX_PAGE_SIZE);
        assertThat(parts(larger)).isEqualTo(expected);
    }
}
