package com.multikey.index;

import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static com.multikey.index.IssueImages.n;
import static com.multikey.index.IssueImages.s;
import static org.assertj.core.api.Assertions.assertThat;

class FieldPartitionedLayoutTest {

    private final IndexProjector indexer = IssueGrid.projector();

    private ItemProjection project(Map<String, AttributeValue> fields) {
        return indexer.project(IssueGrid.key("issue#1"), IssueImages.issue("issue#1", "project#1", 7, fields));
    }

    @Test
    void project_whenScalarFields_givesOneItemEachWithProjectedAttributes() {
        ItemProjection projection = project(Map.of("3812", s("2023-05-01"), "3fe6", n("42"), "done", AttributeValue.fromBool(true)));

        assertThat(projection.rejections()).isEmpty();
        assertThat(projection.items()).containsExactlyInAnyOrder(
                IndexItem.of("3812", new IndexValue.Text("2023-05-01"), "issue#1", "project#1", BigDecimal.valueOf(7)),
                IndexItem.of("3fe6", new IndexValue.Num(BigDecimal.valueOf(42)), "issue#1", "project#1", BigDecimal.valueOf(7)),
                IndexItem.of("done", new IndexValue.Bool(true), "issue#1", "project#1", BigDecimal.valueOf(7)));
    }

    @Test
    void project_whenMultiValuedField_givesOneItemPerDistinctElement() {
        ItemProjection projection = project(Map.of(
                "tags", AttributeValue.fromL(List.of(s("red"), s("blue"), s("red"), n("1"), n("1.0"), AttributeValue.fromNul(true))),
                "labels", AttributeValue.fromSs(List.of("a", "b")),
                "sizes", AttributeValue.fromNs(List.of("10", "2"))));

        assertThat(projection.items()).extracting(IndexItem::attribId, IndexItem::value).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple("tags", new IndexValue.Text("red")),
                org.assertj.core.groups.Tuple.tuple("tags", new IndexValue.Text("blue")),
                org.assertj.core.groups.Tuple.tuple("tags", new IndexValue.Num(BigDecimal.ONE)),
                org.assertj.core.groups.Tuple.tuple("labels", new IndexValue.Text("a")),
                org.assertj.core.groups.Tuple.tuple("labels", new IndexValue.Text("b")),
                org.assertj.core.groups.Tuple.tuple("sizes", new IndexValue.Num(BigDecimal.TEN)),
                org.assertj.core.groups.Tuple.tuple("sizes", new IndexValue.Num(BigDecimal.valueOf(2))));
    }

    @Test
    void project_whenTwoLongElementsAgreeWithinTheCut_keepsBothAsDistinctItems() {
        String common = "z".repeat(2000);
        ItemProjection projection = project(Map.of("notes", AttributeValue.fromSs(List.of(common + "1", common + "2"))));

        assertThat(projection.items()).hasSize(2).extracting(IndexItem::value)
                .containsExactlyInAnyOrder(new IndexValue.Text(common + "1"), new IndexValue.Text(common + "2"));
    }

    @Test
    void project_whenUnsupportedTypes_rejectsOnlyThoseFields() {
        ItemProjection projection = project(Map.of(
                "ok", s("fine"),
                "nested", AttributeValue.fromM(Map.of("a", s("b"))),
                "blob", AttributeValue.fromB(SdkBytes.fromUtf8String("x")),
                "blobs", AttributeValue.fromBs(List.of(SdkBytes.fromUtf8String("x"))),
                "deep", AttributeValue.fromL(List.of(s("x"), AttributeValue.fromL(List.of(s("y"))))),
                "huge", n("1E+126"),
                "empty", AttributeValue.fromL(List.of()),
                "none", AttributeValue.fromNul(true)));

        assertThat(projection.items()).extracting(IndexItem::attribId).containsExactly("ok");
        assertThat(projection.rejections()).asInstanceOf(InstanceOfAssertFactories.list(Rejection.Field.class))
                .extracting(Rejection.Field::attribId)
                .containsExactlyInAnyOrder("nested", "blob", "blobs", "deep", "huge");
        assertThat(projection.rejections()).extracting(Rejection::reason)
                .contains("value of unsupported type M", "list element of unsupported type L", "number is outside DynamoDB's range");
    }

    @Test
    void project_whenCustomFieldsIsNotAMap_rejectsTheImage() {
        var image = IssueImages.with(IssueImages.issue("issue#1", "p", 1, null), "custom_fields", s("oops"));

        ItemProjection projection = indexer.project(IssueGrid.key("issue#1"), image);

        assertThat(projection.items()).isEmpty();
        assertThat(projection.rejections()).containsExactly(
                new Rejection.Image(IssueGrid.key("issue#1"), IssueGrid.INDEX, "custom_fields is of type S, not a map"));
    }

    @Test
    void project_whenNumIsMissingOrNotANumber_rejectsTheImage() {
        var image = IssueImages.with(IssueImages.issue("issue#1", "p", 1, Map.of("f", s("v"))), "num", s("one"));

        assertThat(indexer.project(IssueGrid.key("issue#1"), image).rejections()).extracting(Rejection::reason)
                .containsExactly("num is missing or not a number");
    }

    @Test
    void project_whenNoCustomFields_givesNothingAndRejectsNothing() {
        assertThat(indexer.project(IssueGrid.key("issue#1"), IssueImages.issue("issue#1", "p", 1, null))).isEqualTo(ItemProjection.EMPTY);
    }

    @Test
    void project_whenCustomFieldsIsAnEmptyMap_givesNothingAndRejectsNothing() {
        assertThat(project(Map.of())).isEqualTo(ItemProjection.EMPTY);
    }

    @Test
    void project_whenCustomFieldsIsNull_givesNothingAndRejectsNothing() {
        var image = IssueImages.with(IssueImages.issue("issue#1", "p", 1, null), "custom_fields", AttributeValue.fromNul(true));

        assertThat(indexer.project(IssueGrid.key("issue#1"), image)).isEqualTo(ItemProjection.EMPTY);
    }

    @Test
    void project_whenProjectIsMissingOrNotAString_rejectsTheImage() {
        var image = IssueImages.with(IssueImages.issue("issue#1", "p", 1, Map.of("f", s("v"))), "project", n("1"));

        assertThat(indexer.project(IssueGrid.key("issue#1"), image)).isEqualTo(new ItemProjection(Set.of(),
                List.of(new Rejection.Image(IssueGrid.key("issue#1"), IssueGrid.INDEX, "project is missing or not a string"))));
    }

    @Test
    void project_whenNumIsOutsideDynamoDbRange_rejectsTheImage() {
        var image = IssueImages.with(IssueImages.issue("issue#1", "p", 1, Map.of("f", s("v"))), "num", n("1E+200"));

        assertThat(indexer.project(IssueGrid.key("issue#1"), image)).isEqualTo(new ItemProjection(Set.of(),
                List.of(new Rejection.Image(IssueGrid.key("issue#1"), IssueGrid.INDEX, "num is not a valid DynamoDB number"))));
    }

    @Test
    void project_whenOneValueOfAFieldCannotBeIndexed_leavesOutTheWholeField() {
        // given: a project so long that the item of a short value just fits, and that of a long value does not,
        // even without its copy; the long value comes after the short one in the list
        String longValue = "z".repeat(600);
        IndexItem shortItem = IndexItem.of("f", new IndexValue.Text("a"), "issue#1", "", BigDecimal.valueOf(7));
        String project = "p".repeat((int) (DynamoDbLimits.MAX_ITEM_BYTES - DynamoDbLimits.itemBytes(shortItem.toItem())));
        var image = IssueImages.issue("issue#1", project, 7, Map.of(
                "f", AttributeValue.fromL(List.of(s("a"), s(longValue))),
                "g", s("a")));

        // when
        ItemProjection projection = indexer.project(IssueGrid.key("issue#1"), image);

        // then: a field is indexed with all its values or not at all
        assertThat(projection.items()).extracting(IndexItem::attribId).containsExactly("g");
        assertThat(projection.rejections()).containsExactly(new Rejection.Field(IssueGrid.key("issue#1"), IssueGrid.INDEX, "f",
                "index item larger than 409600 bytes even without the value"));
    }
}
