package com.multikey.index;

import com.multikey.index.definition.DefinitionsYaml;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The key ranges a reader queries for values, against the keys the indexer writes, in both layouts. */
class ValueBoundsTest {

    private static final IndexProjector PROJECTOR = new IndexProjector(DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: id, type: S}}
            indexes:
              - {name: custom_fields, layout: field-partitioned, group: project, values: {entriesOf: custom_fields}, orderBy: num}
              - {name: status, group: project, values: {attribute: state}}
            """));

    private static Map<String, AttributeValue> issue(String id, String state) {
        return Map.of("id", AttributeValue.fromS(id), "project", AttributeValue.fromS("p1"), "num", AttributeValue.fromN("7"),
                "state", AttributeValue.fromS(state), "custom_fields", AttributeValue.fromM(Map.of("f1", AttributeValue.fromS(state))));
    }

    private static String sortKey(String index, String state) {
        return PROJECTOR.project(index, ItemKey.ofString("id", "issue#1"), issue("issue#1", state)).items().iterator().next().sortKey();
    }

    @Test
    void bounds_inEitherLayout_holdEveryKeyOfTheValue_andNoKeyOfTheValuesAroundIt() {
        IndexValue open = new IndexValue.Text("open");
        for (String index : new String[] {"status", "custom_fields"}) {
            // given
            ValueBounds bounds = PROJECTOR.bounds(index);
            String key = sortKey(index, "open");
            String greater = sortKey(index, "opened");
            String smaller = sortKey(index, "ope");

            // then
            assertThat(bounds.grouped()).as(index).isEqualTo(index.equals("status"));
            assertThat(KeyOrder.compare(key, bounds.lowerBound(open, true))).as(index).isPositive();
            assertThat(KeyOrder.compare(smaller, bounds.lowerBound(open, true))).as(index).isNegative();
            assertThat(KeyOrder.compare(key, bounds.upperBound(open, true))).as(index).isNegative();
            assertThat(KeyOrder.compare(greater, bounds.upperBound(open, true))).as(index).isPositive();
            assertThat(KeyOrder.compare(key, bounds.upperBound(open, false))).as(index).isPositive();
            assertThat(KeyOrder.compare(smaller, bounds.upperBound(open, false))).as(index).isNegative();
            assertThat(KeyOrder.compare(bounds.sampleKey(open), bounds.lowerBound(open, true))).as(index).isPositive();
            assertThat(KeyOrder.compare(bounds.sampleKey(open), bounds.upperBound(open, true))).as(index).isNegative();
        }
    }

    @Test
    void valuePrefixAndTextPrefix_ofAGroupedIndex_startTheKeysOfTheirValuesOnly() {
        // given
        ValueBounds bounds = PROJECTOR.bounds("status");

        // then
        assertThat(sortKey("status", "open")).startsWith(bounds.valuePrefix(new IndexValue.Text("open")));
        assertThat(sortKey("status", "opened")).doesNotStartWith(bounds.valuePrefix(new IndexValue.Text("open")))
                .startsWith(bounds.textPrefix("ope"));
        assertThat(sortKey("status", "closed")).doesNotStartWith(bounds.textPrefix("ope"));
    }

    @Test
    void bounds_ofAGroupedIndex_holdAKeyWhoseItemKeyIsNotAscii() {
        // given: no tie-breaker, so the item key follows the value's separator ('\u00fc' sorts above every ASCII character)
        String key = PROJECTOR.project("status", ItemKey.ofString("id", "\u00fcber#1"), issue("\u00fcber#1", "open")).items().iterator().next().sortKey();
        IndexValue open = new IndexValue.Text("open");

        // then
        assertThat(KeyOrder.compare(key, PROJECTOR.bounds("status").upperBound(open, true))).isNegative();
    }

    @Test
    void sampleKey_ofAGroupedIndex_whenTheValueIsCut_startsWithTheValuesPrefix() {
        // given: a text longer than either layout's cut
        IndexValue longText = new IndexValue.Text("x".repeat(3000));
        ValueBounds bounds = PROJECTOR.bounds("status");

        // then
        assertThat(bounds.sampleKey(longText)).startsWith(bounds.valuePrefix(longText));
        assertThat(sortKey("status", "x".repeat(3000))).startsWith(bounds.valuePrefix(longText));
    }

    @Test
    void new_whenTheBudgetIsOutsideASortKey_refuses() {
        assertThatCode(() -> new ValueBounds(SortKeyCodec.MIN_VALUE_BYTES, true)).doesNotThrowAnyException();
        assertThatCode(() -> new ValueBounds(SortKeyCodec.MAX_KEY_BYTES, true)).doesNotThrowAnyException();
        assertThatThrownBy(() -> new ValueBounds(SortKeyCodec.MIN_VALUE_BYTES - 1, true)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a value budget of 63 bytes");
        assertThatThrownBy(() -> new ValueBounds(SortKeyCodec.MAX_KEY_BYTES + 1, true)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a value budget of 1025 bytes");
    }

    @Test
    void coveringBounds_ofACutText_holdEveryKeyOfTheTextsThatShareItsKeptPart_andOfNoOtherKeptPart() {
        String kept = "x".repeat(900);
        for (String index : new String[] {"status", "custom_fields"}) {
            // given: texts past the kept part, which sort by their digests
            ValueBounds bounds = PROJECTOR.bounds(index);
            IndexValue two = new IndexValue.Text(kept + "2");
            String low = bounds.lowerBoundCovering(two, false);
            String high = bounds.upperBoundCovering(two, true);

            // then: every text sharing the kept part is within both bounds, whichever way its digest sorts
            assertThat(bounds.isCut(two)).as(index).isTrue();
            assertThat(bounds.isCut(new IndexValue.Text("open"))).as(index).isFalse();
            assertThat(bounds.isCut(new IndexValue.Num(java.math.BigDecimal.TEN))).as(index).isFalse();
            for (String tail : new String[] {"1", "2", "3", "zz"}) {
                String key = sortKey(index, kept + tail);
                assertThat(KeyOrder.compare(key, low)).as("%s %s", index, tail).isPositive();
                assertThat(KeyOrder.compare(key, high)).as("%s %s", index, tail).isNegative();
            }
            // and no text of another kept part
            assertThat(KeyOrder.compare(sortKey(index, "w" + kept), low)).as(index).isNegative();
            assertThat(KeyOrder.compare(sortKey(index, "xx"), low)).as(index).isNegative();
            assertThat(KeyOrder.compare(sortKey(index, "y" + kept), high)).as(index).isPositive();
            // a value the key holds whole keeps its exact bounds
            IndexValue open = new IndexValue.Text("open");
            assertThat(bounds.lowerBoundCovering(open, true)).isEqualTo(bounds.lowerBound(open, true));
            assertThat(bounds.upperBoundCovering(open, false)).isEqualTo(bounds.upperBound(open, false));
        }
    }
}
