package com.multikey.index;

import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What an issue whose field ids, values or id break DynamoDB's limits gets in the index. */
class IndexItemLimitsTest {

    private final IndexProjector indexer = IssueGrid.projector();

    private ItemProjection project(String issueId, Map<String, AttributeValue> fields) {
        return indexer.project(IssueGrid.key(issueId), IssueImages.issue(issueId, "project#1", 7, fields));
    }

    @Test
    void project_whenFieldIdOverThePartitionKeyLimit_rejectsThatFieldOnly() {
        String tooLong = "f".repeat(DynamoDbLimits.MAX_PARTITION_KEY_BYTES + 1);

        ItemProjection projection = project("issue#1", Map.of(tooLong, IssueImages.s("x"), "ok", IssueImages.s("y")));

        assertThat(projection.items()).extracting(IndexItem::attribId).containsExactly("ok");
        assertThat(projection.rejections()).singleElement().isInstanceOfSatisfying(Rejection.Field.class, rejection -> {
            assertThat(rejection.attribId()).isEqualTo(tooLong);
            assertThat(rejection.reason()).contains("2048 bytes");
        });
    }

    @Test
    void project_whenFieldIdExactlyAtThePartitionKeyLimit_indexesIt() {
        // 682 three-byte characters and two one-byte ones: 2,048 bytes in UTF-8, 684 chars
        String atLimit = "€".repeat(682) + "ab";
        assertThat(DynamoDbLimits.utf8Bytes(atLimit)).isEqualTo(DynamoDbLimits.MAX_PARTITION_KEY_BYTES);

        ItemProjection projection = project("issue#1", Map.of(atLimit, IssueImages.s("x"), atLimit + "c", IssueImages.s("y")));

        assertThat(projection.items()).extracting(IndexItem::attribId).containsExactly(atLimit);
        assertThat(projection.rejections()).asInstanceOf(InstanceOfAssertFactories.list(Rejection.Field.class))
                .extracting(Rejection.Field::attribId).containsExactly(atLimit + "c");
    }

    @Test
    void project_whenEmptyFieldId_rejectsThatField() {
        ItemProjection projection = project("issue#1", Map.of("", IssueImages.s("x"), "ok", IssueImages.s("y")));

        assertThat(projection.items()).extracting(IndexItem::attribId).containsExactly("ok");
        assertThat(projection.rejections()).asInstanceOf(InstanceOfAssertFactories.list(Rejection.Field.class))
                .extracting(Rejection.Field::attribId).containsExactly("");
    }

    @Test
    void of_whenValueMakesTheItemTooLarge_indexesItWithoutTheCopy() {
        // a value that fits in the issue (a 400 KB item) but not beside the index item's keys
        String huge = "y".repeat(DynamoDbLimits.MAX_ITEM_BYTES - 200);

        IndexItem item = IndexItem.of("notes", new IndexValue.Text(huge), "issue#1", "project#1", BigDecimal.ONE);

        assertThat(item.valueCopied()).isFalse();
        Map<String, AttributeValue> stored = item.toItem();
        assertThat(stored).doesNotContainKey(IndexItem.VALUE).containsEntry(IndexItem.VALUE_OMITTED, AttributeValue.fromBool(true));
        assertThat(DynamoDbLimits.itemBytes(stored)).isLessThanOrEqualTo(DynamoDbLimits.MAX_ITEM_BYTES);
        assertThat(item.sortKey()).isEqualTo(SortKeyCodec.encode(new IndexValue.Text(huge), BigDecimal.ONE, "issue#1"));
    }

    @Test
    void of_whenTheItemFitsExactly_copiesTheValue_andOneByteMoreDoesNot() {
        // values past the sort key's cut all give keys of one length, so the room left is exact
        String cut = "y".repeat(2000);
        IndexItem base = IndexItem.of("notes", new IndexValue.Text(cut), "issue#1", "project#1", BigDecimal.ONE);
        long room = DynamoDbLimits.MAX_ITEM_BYTES - DynamoDbLimits.itemBytes(base.toItem()) + cut.length();
        String fits = "y".repeat((int) room);

        IndexItem atLimit = IndexItem.of("notes", new IndexValue.Text(fits), "issue#1", "project#1", BigDecimal.ONE);
        IndexItem over = IndexItem.of("notes", new IndexValue.Text(fits + "y"), "issue#1", "project#1", BigDecimal.ONE);

        assertThat(DynamoDbLimits.itemBytes(atLimit.toItem())).isEqualTo(DynamoDbLimits.MAX_ITEM_BYTES);
        assertThat(atLimit.valueCopied()).isTrue();
        assertThat(over.valueCopied()).isFalse();
    }

    @Test
    void of_whenTheItemIsTooLargeEvenWithoutTheValue_refusesIt() {
        String hugeProject = "p".repeat(DynamoDbLimits.MAX_ITEM_BYTES);

        assertThatThrownBy(() -> IndexItem.of("f", new IndexValue.Text("x"), "issue#1", hugeProject, BigDecimal.ONE))
                .isInstanceOf(UnindexableValueException.class).hasMessageContaining("even without the value");
    }

    @Test
    void project_whenIssueIdLongerThanTheSortKeyAllows_rejectsTheImageOnce() {
        String id = "issue#" + "i".repeat(SortKeyCodec.MAX_ISSUE_ID_BYTES);

        ItemProjection projection = project(id, Map.of("a", IssueImages.s("x"), "b", IssueImages.s("y")));

        assertThat(projection.items()).isEmpty();
        assertThat(projection.rejections()).singleElement().isInstanceOfSatisfying(Rejection.Image.class, rejection ->
                assertThat(rejection.reason()).contains("issue id longer than 256 bytes"));
    }

    @Test
    void project_whenIssueIdAtTheLimit_indexesIt() {
        String id = "issue#" + "i".repeat(SortKeyCodec.MAX_ISSUE_ID_BYTES - 6);

        ItemProjection projection = project(id, Map.of("a", IssueImages.s("x")));

        assertThat(projection.rejections()).isEmpty();
        assertThat(projection.items()).singleElement().satisfies(item ->
                assertThat(DynamoDbLimits.utf8Bytes(item.sortKey())).isLessThanOrEqualTo(DynamoDbLimits.MAX_SORT_KEY_BYTES));
    }

}
