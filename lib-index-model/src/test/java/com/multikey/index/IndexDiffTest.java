package com.multikey.index;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The writes that turn one version's index items into another's. */
class IndexDiffTest {

    private static IndexItem item(String attribId, IndexValue value, String project) {
        return IndexItem.of(attribId, value, "issue#1", project, BigDecimal.ONE);
    }

    private final IndexItem kept = item("f", new IndexValue.Text("x"), "p");
    private final IndexItem other = item("g", new IndexValue.Num(BigDecimal.TEN), "p");

    @Test
    void between_whenItemsAreEqual_writesNothing() {
        assertThat(IndexDiff.between(List.of(kept, other), List.of(other, kept))).isEmpty();
    }

    @Test
    void between_whenAKeyIsNew_putsItsItem() {
        assertThat(IndexDiff.between(List.of(kept), List.of(kept, other))).containsExactly(new IndexChange.Put(other));
    }

    @Test
    void between_whenAKeyIsGone_deletesIt() {
        assertThat(IndexDiff.between(List.of(kept, other), List.of(kept))).containsExactly(new IndexChange.Delete(other.key()));
    }

    @Test
    void between_whenTheItemOfAKeyChanges_putsTheNewItemAndDeletesNothing() {
        // the project is not part of the key: the same key with a new project is a put over the old item
        IndexItem moved = item("f", new IndexValue.Text("x"), "q");

        assertThat(IndexDiff.between(List.of(kept), List.of(moved))).containsExactly(new IndexChange.Put(moved));
    }
}
