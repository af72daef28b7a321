package com.multikey.index;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.Map;

import static com.multikey.index.IssueImages.n;
import static com.multikey.index.IssueImages.s;
import static org.assertj.core.api.Assertions.assertThat;

/** The projections of two versions of an issue, restricted to what can differ between them. */
class FieldPartitionedLayoutChangedTest {

    private final IndexProjector projector = IssueGrid.projector();

    private static Map<String, AttributeValue> issue(String project, int num, Map<String, AttributeValue> fields) {
        return IssueImages.issue("issue#1", project, num, fields);
    }

    private static IndexItem item(String attribId, String value, String project, int num) {
        return IndexItem.of(attribId, new IndexValue.Text(value), "issue#1", project, BigDecimal.valueOf(num));
    }

    @Test
    void changed_whenOneFieldChanges_projectsOnlyThatField() {
        // given
        var before = issue("p", 1, Map.of("same", s("x"), "changed", s("old"), "gone", s("g")));
        var after = issue("p", 1, Map.of("same", s("x"), "changed", s("new"), "added", s("a")));

        // when
        IndexProjector.Changed projections = projector.changed(IssueGrid.key("issue#1"), before, after);

        // then
        assertThat(projections.before().items()).containsExactlyInAnyOrder(item("changed", "old", "p", 1), item("gone", "g", "p", 1));
        assertThat(projections.after().items()).containsExactlyInAnyOrder(item("changed", "new", "p", 1), item("added", "a", "p", 1));
    }

    @Test
    void changed_whenNothingChanges_projectsNothing() {
        var image = issue("p", 1, Map.of("f", s("x")));

        IndexProjector.Changed projections = projector.changed(IssueGrid.key("issue#1"), image, image);

        assertThat(projections.before()).isEqualTo(ItemProjection.EMPTY);
        assertThat(projections.after()).isEqualTo(ItemProjection.EMPTY);
    }

    @Test
    void changed_whenNumChanges_projectsEveryFieldOfBoth() {
        // num is part of every sort key: every item of the issue moves
        var before = issue("p", 1, Map.of("same", s("x")));
        var after = issue("p", 2, Map.of("same", s("x")));

        IndexProjector.Changed projections = projector.changed(IssueGrid.key("issue#1"), before, after);

        assertThat(projections.before().items()).containsExactly(item("same", "x", "p", 1));
        assertThat(projections.after().items()).containsExactly(item("same", "x", "p", 2));
    }

    @Test
    void changed_whenProjectChanges_projectsEveryFieldOfBoth() {
        // the project is copied into every item: every item is rewritten
        var before = issue("p", 1, Map.of("same", s("x")));
        var after = issue("q", 1, Map.of("same", s("x")));

        IndexProjector.Changed projections = projector.changed(IssueGrid.key("issue#1"), before, after);

        assertThat(projections.before().items()).containsExactly(item("same", "x", "p", 1));
        assertThat(projections.after().items()).containsExactly(item("same", "x", "q", 1));
    }

    @Test
    void changed_whenIssueIsCreated_projectsNothingBeforeAndEverythingAfter() {
        var after = issue("p", 1, Map.of("f", s("x")));

        IndexProjector.Changed projections = projector.changed(IssueGrid.key("issue#1"), null, after);

        assertThat(projections.before()).isEqualTo(ItemProjection.EMPTY);
        assertThat(projections.after().items()).containsExactly(item("f", "x", "p", 1));
    }

    @Test
    void changed_whenIssueIsRemoved_projectsEverythingBeforeAndNothingAfter() {
        var before = issue("p", 1, Map.of("f", s("x")));

        IndexProjector.Changed projections = projector.changed(IssueGrid.key("issue#1"), before, null);

        assertThat(projections.before().items()).containsExactly(item("f", "x", "p", 1));
        assertThat(projections.after()).isEqualTo(ItemProjection.EMPTY);
    }

    @Test
    void changed_whenCustomFieldsAppear_projectsEveryFieldAfter() {
        var before = issue("p", 1, null);
        var after = issue("p", 1, Map.of("f", s("x")));

        IndexProjector.Changed projections = projector.changed(IssueGrid.key("issue#1"), before, after);

        assertThat(projections.before()).isEqualTo(ItemProjection.EMPTY);
        assertThat(projections.after().items()).containsExactly(item("f", "x", "p", 1));
    }

    @Test
    void changed_whenCustomFieldsDisappear_projectsEveryFieldBefore() {
        var before = issue("p", 1, Map.of("f", s("x")));
        var after = issue("p", 1, null);

        IndexProjector.Changed projections = projector.changed(IssueGrid.key("issue#1"), before, after);

        assertThat(projections.before().items()).containsExactly(item("f", "x", "p", 1));
        assertThat(projections.after()).isEqualTo(ItemProjection.EMPTY);
    }

    @Test
    void changed_whenCustomFieldsStopBeingAMap_rejectsTheNewImageWhole() {
        var before = issue("p", 1, Map.of("f", s("x")));
        var after = IssueImages.with(before, "custom_fields", s("oops"));

        IndexProjector.Changed projections = projector.changed(IssueGrid.key("issue#1"), before, after);

        assertThat(projections.before().items()).containsExactly(item("f", "x", "p", 1));
        assertThat(projections.after().items()).isEmpty();
        assertThat(projections.after().rejections()).containsExactly(
                new Rejection.Image(IssueGrid.key("issue#1"), IssueGrid.INDEX, "custom_fields is of type S, not a map"));
    }

    @Test
    void changed_whenCustomFieldsBecomeAMap_projectsEveryFieldAfter() {
        var after = issue("p", 1, Map.of("f", s("x")));
        var before = IssueImages.with(after, "custom_fields", n("1"));

        IndexProjector.Changed projections = projector.changed(IssueGrid.key("issue#1"), before, after);

        assertThat(projections.before().items()).isEmpty();
        assertThat(projections.after().items()).containsExactly(item("f", "x", "p", 1));
    }

    @Test
    void projectEntry_isTheWholeProjectionsItemsOfThatEntry_andNothingForAnEntryTheIssueLacks() {
        // given
        var image = issue("p", 1, Map.of("a", s("x"), "b", AttributeValue.fromL(java.util.List.of(s("y"), n("2"))), "c", s("z")));
        ItemKey key = IssueGrid.key("issue#1");

        // when
        ItemProjection b = projector.projectEntry("custom_fields", key, image, "b");
        ItemProjection none = projector.projectEntry("custom_fields", key, image, "d");

        // then
        assertThat(b.items()).hasSize(2).containsExactlyInAnyOrderElementsOf(projector.project(key, image).items().stream()
                .filter(item -> item.attribId().equals("b")).toList());
        assertThat(none).isEqualTo(ItemProjection.EMPTY);
    }
}
