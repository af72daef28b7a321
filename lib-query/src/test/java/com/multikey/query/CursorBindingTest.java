package com.multikey.query;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A cursor is bound to its request's groups by value, as a request reads them (docs/query.md): {@code N:100} and
 * {@code N:1E+2} are one group, so a cursor of one opens on the other; another number is another group. A cursor made
 * when the binding held the spelling as given still opens on the request spelled as it was made.
 */
class CursorBindingTest {

    private static final Instant T0 = Instant.parse("2026-12-01T08:00:00Z");
    private static final CursorSealer SEALER = new CursorSealer(CursorKeys.of(CursorKeys.Key.of("1", "c".repeat(20) + "0123456789ABCDEFGHIJ")),
            CursorSealer.DEFAULT_LIFETIME, Clock.fixed(T0, ZoneOffset.UTC));
    private static final Cursor CURSOR = new Cursor(Cursor.Part.INDEX, Map.of("attribId", AttributeValue.fromS(""),
            "sortKey", AttributeValue.fromS("N0000")));

    private static PageRequest onNumber(String... numbers) {
        List<List<AttributeValue>> groups = java.util.Arrays.stream(numbers).map(n -> List.of(GroupValue.parse("N:" + n))).toList();
        PageRequest request = PageRequest.onIndex("by-num", groups.get(0), "", Order.ASC, 25);
        return groups.size() == 1 ? request : request.withGroups(groups);
    }

    @Test
    void decode_whenTheGroupIsTheSameNumberSpelledOtherwise_opensTheCursor() {
        // given
        String cursor = CURSOR.encode(onNumber("100"), SEALER);

        // when
        Cursor opened = Cursor.decode(cursor, onNumber("1E+2"), SEALER);

        // then
        assertThat(opened.toJson()).isEqualTo(CURSOR.toJson());
        assertThat(Cursor.decode(CURSOR.encode(onNumber("1.50E+2", "7"), SEALER), onNumber("150", "7.0"), SEALER).toJson())
                .isEqualTo(CURSOR.toJson());
    }

    @Test
    void decode_whenTheGroupIsAnotherNumber_refusesTheCursor() {
        String cursor = CURSOR.encode(onNumber("1E+2"), SEALER);

        assertThatThrownBy(() -> Cursor.decode(cursor, onNumber("101"), SEALER)).isInstanceOf(QueryException.class)
                .hasMessage(CursorSealer.REFUSED);
        assertThatThrownBy(() -> Cursor.decode(CURSOR.encode(onNumber("100", "7"), SEALER), onNumber("100", "8"), SEALER))
                .isInstanceOf(QueryException.class).hasMessage(CursorSealer.REFUSED);
    }

    @Test
    void decode_aCursorBoundToTheGroupAsSpelled_beforeTheBindingWasCanonical_stillOpensOnThatSpelling() {
        // given: a cursor sealed under the binding a request of group N:1E+2 had (its number as given)
        String asMadeBefore = "6:by-num6:N:1E+20:3:ASC0:5:false";
        String cursor = SEALER.seal(CURSOR.toJson().toString().getBytes(StandardCharsets.UTF_8), asMadeBefore);

        // when
        Cursor opened = Cursor.decode(cursor, onNumber("1E+2"), SEALER);

        // then
        assertThat(opened.toJson()).isEqualTo(CURSOR.toJson());
    }
}
