package com.multikey.indexer;

import com.multikey.common.ChangeKind;
import com.multikey.common.ChangeRecord;
import com.multikey.index.ItemKey;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The order of one item's changes by a version attribute of the table's (docs/decisions/0024): a higher value is newer;
 * a removal is newer than the write it removes and older than any write of a higher value; at equal versions the tie
 * rule (a duplicate never follows; another record follows when it continues the image held).
 */
class ChangeVersionTest {

    private static final ChangeVersion REV = ChangeVersion.fromSetting("rev");
    private static final ItemKey ITEM = new ItemKey(Map.of("id", AttributeValue.fromS("issue#a")));
    // creation times that say the opposite of the versions: the attribute, not the clock, orders the changes
    private static final Instant LATE = Instant.parse("2026-12-06T10:00:00Z");
    private static final Instant EARLY = Instant.parse("2026-12-06T09:00:00Z");

    @Test
    void of_aWrite_isTwiceItsNewImagesValue_andARemoval_onePastItsOldImagesValue() {
        assertThat(REV.of(write("e1", null, image("x", 3), EARLY))).contains(6L);
        assertThat(REV.of(remove("e2", image("x", 3), EARLY))).contains(7L);
        assertThat(REV.isCreationTime()).isFalse();
    }

    @Test
    void follows_whenTheVersionIsHigher_evenWhenTheRecordWasCreatedEarlier() {
        ItemState held = new ItemState(ITEM, 4, "e1", image("x", 2));
        ChangeRecord newer = write("e2", image("x", 2), image("y", 3), EARLY);

        assertThat(ChangeOrder.follows(newer, REV.of(newer).orElseThrow(), held)).isTrue();
    }

    @Test
    void follows_not_whenTheVersionIsLower_evenWhenTheRecordWasCreatedLater() {
        ItemState held = new ItemState(ITEM, 6, "e3", image("y", 3));
        ChangeRecord older = write("e2", image("x", 1), image("x", 2), LATE);

        assertThat(ChangeOrder.follows(older, REV.of(older).orElseThrow(), held)).isFalse();
    }

    @Test
    void aRemoval_followsTheWriteItRemoves_andNoWriteOfThatValueFollowsItsTombstone() {
        ChangeRecord last = write("e3", image("x", 2), image("y", 3), LATE);
        ChangeRecord removal = remove("e4", image("y", 3), EARLY);
        ItemState written = new ItemState(ITEM, REV.of(last).orElseThrow(), "e3", image("y", 3));

        assertThat(ChangeOrder.follows(removal, REV.of(removal).orElseThrow(), written)).isTrue();
        ItemState tombstone = new ItemState(ITEM, REV.of(removal).orElseThrow(), "e4", null);
        assertThat(ChangeOrder.follows(last, REV.of(last).orElseThrow(), tombstone)).as("the removed write, late").isFalse();
        ChangeRecord recreated = write("e5", null, image("z", 4), EARLY);
        assertThat(ChangeOrder.follows(recreated, REV.of(recreated).orElseThrow(), tombstone)).as("a re-creation at a higher value").isTrue();
    }

    @Test
    void atAnEqualVersion_theTieRule_aDuplicateNever_aContinuationOnly() {
        ItemState held = new ItemState(ITEM, 6, "e3", image("y", 3));
        ChangeRecord duplicate = write("e3", image("x", 2), image("y", 3), LATE);
        ChangeRecord continues = write("e4", image("y", 3), image("w", 3), LATE);
        ChangeRecord other = write("e5", image("x", 2), image("v", 3), LATE);

        assertThat(ChangeOrder.follows(duplicate, 6, held)).isFalse();
        assertThat(ChangeOrder.follows(continues, REV.of(continues).orElseThrow(), held)).isTrue();
        assertThat(ChangeOrder.follows(other, REV.of(other).orElseThrow(), held)).isFalse();
    }

    @Test
    void of_isEmpty_withoutAValueThatIsANonNegativeIntegerOfAtMost2To62() {
        assertThat(REV.of(write("e", null, Map.of("id", AttributeValue.fromS("issue#a")), LATE))).isEmpty();
        assertThat(REV.of(write("e", null, Map.of("rev", AttributeValue.fromS("3")), LATE))).as("an S value").isEmpty();
        assertThat(REV.of(write("e", null, Map.of("rev", AttributeValue.fromN("2.5")), LATE))).isEmpty();
        assertThat(REV.of(write("e", null, Map.of("rev", AttributeValue.fromN("-1")), LATE))).isEmpty();
        assertThat(REV.of(write("e", null, Map.of("rev", AttributeValue.fromN("4611686018427387904")), LATE))).isEmpty();
        assertThat(REV.of(write("e", null, Map.of("rev", AttributeValue.fromN("4611686018427387903")), LATE)))
                .contains(9223372036854775806L);
        assertThat(REV.of(write("e", null, Map.of("rev", AttributeValue.fromN("3.0")), LATE))).contains(6L);
    }

    @Test
    void fromSetting_emptyIsTheCreationTime() {
        assertThat(ChangeVersion.fromSetting("")).isEqualTo(ChangeVersion.creationTime());
        assertThat(ChangeVersion.fromSetting(null)).isEqualTo(ChangeVersion.creationTime());
        assertThat(ChangeVersion.fromSetting(" rev ")).isEqualTo(new ChangeVersion.Attribute("rev"));
        ChangeRecord record = write("e", null, image("x", 1), Instant.ofEpochSecond(2, 5_000));
        assertThat(ChangeVersion.creationTime().of(record)).contains(2_000_005L);
    }

    private static Map<String, AttributeValue> image(String f1, long rev) {
        return Map.of("id", AttributeValue.fromS("issue#a"), "f1", AttributeValue.fromS(f1), "rev", AttributeValue.fromN(Long.toString(rev)));
    }

    private static ChangeRecord write(String eventId, Map<String, AttributeValue> before, Map<String, AttributeValue> after, Instant at) {
        return new ChangeRecord(eventId, before == null ? ChangeKind.INSERT : ChangeKind.MODIFY, "1", Map.of("id", AttributeValue.fromS("issue#a")),
                before, after, null, at);
    }

    private static ChangeRecord remove(String eventId, Map<String, AttributeValue> before, Instant at) {
        return new ChangeRecord(eventId, ChangeKind.REMOVE, "1", Map.of("id", AttributeValue.fromS("issue#a")), before, null, null, at);
    }
}
