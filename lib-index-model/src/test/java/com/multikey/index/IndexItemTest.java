package com.multikey.index;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Index items as written to and read from the index table, and their keys. */
class IndexItemTest {

    private static IndexItem item(IndexValue value) {
        return IndexItem.of("f", value, "issue#1", "project#1", new BigDecimal("1.234567890123456789E+19"));
    }

    @Test
    void normalized_whenDynamoDbSpellsNumbersDifferently_equalsTheItemAsWritten() {
        // given: DynamoDB answers 12345678901234567890 for 1.234567890123456789E+19, and 1.50 as written
        IndexItem written = item(new IndexValue.Num(new BigDecimal("1.5")));
        Map<String, AttributeValue> stored = new HashMap<>(written.toItem());
        stored.put(IndexItem.NUM, AttributeValue.fromN("12345678901234567890"));
        stored.put(IndexItem.VALUE, AttributeValue.fromN("1.50"));

        // then
        assertThat(IndexItem.normalized(stored)).isEqualTo(written.toItem());
    }

    @Test
    void normalized_whenNoNumbers_leavesTheItemAsItIs() {
        Map<String, AttributeValue> stored = Map.of("a", AttributeValue.fromS("1.50"), "b", AttributeValue.fromBool(true));

        assertThat(IndexItem.normalized(stored)).isEqualTo(stored);
    }

    @Test
    void of_whenTheItemWithoutItsValueFillsTheItemSizeExactly_indexesIt_andOneByteMoreDoesNot() {
        // given: a value too large to copy, and a project that makes the item without the copy exactly 400 KB
        IndexValue huge = new IndexValue.Text("y".repeat(DynamoDbLimits.MAX_ITEM_BYTES));
        IndexItem withoutProject = IndexItem.of("f", huge, "issue#1", "", BigDecimal.ONE);
        String project = "p".repeat((int) (DynamoDbLimits.MAX_ITEM_BYTES - DynamoDbLimits.itemBytes(withoutProject.toItem())));

        // when
        IndexItem atLimit = IndexItem.of("f", huge, "issue#1", project, BigDecimal.ONE);

        // then
        assertThat(atLimit.valueCopied()).isFalse();
        assertThat(DynamoDbLimits.itemBytes(atLimit.toItem())).isEqualTo(DynamoDbLimits.MAX_ITEM_BYTES);
        assertThatThrownBy(() -> IndexItem.of("f", huge, "issue#1", project + "p", BigDecimal.ONE))
                .isInstanceOf(UnindexableValueException.class);
    }

    @Test
    void key_whenWrittenAsAKeyMap_readsBackAsTheSameKey() {
        IndexKey key = item(new IndexValue.Text("x")).key();

        assertThat(key.toKey()).containsOnlyKeys(IndexKey.ATTRIB_ID, IndexKey.SORT_KEY);
        assertThat(IndexKey.of(key.toKey())).isEqualTo(key);
        assertThat(IndexKey.of(item(new IndexValue.Text("x")).toItem())).isEqualTo(key);
    }

    @Test
    void indexEntryOf_whenTheStoredItemHoldsNoCopyOfItsValue_stillGivesItsKeyAndIssue() {
        IndexItem withoutCopy = IndexItem.of("f", new IndexValue.Text("y".repeat(DynamoDbLimits.MAX_ITEM_BYTES)), "issue#1", "p",
                BigDecimal.ONE);

        IndexEntry entry = IndexEntry.of(withoutCopy.toItem(), IssueGrid.DEFINITIONS.table()).orElseThrow();

        assertThat(withoutCopy.valueCopied()).isFalse();
        assertThat(entry.key()).isEqualTo(withoutCopy.key());
        assertThat(entry.source()).isEqualTo(IssueGrid.key("issue#1"));
        assertThat(entry.attribId()).isEqualTo("f");
        assertThat(entry.sortKey()).isEqualTo(withoutCopy.sortKey());
    }

    @Test
    void putKey_isTheKeyOfTheItemPut() {
        IndexItem item = item(new IndexValue.Bool(true));

        assertThat(new IndexChange.Put(item).key()).isEqualTo(item.key());
    }
}
