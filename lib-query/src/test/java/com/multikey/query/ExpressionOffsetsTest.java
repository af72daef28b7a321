package com.multikey.query;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The offset of a refused token is counted in characters (Unicode code points) from the start of the where's text, so
 * that a text holding a character outside the Basic Multilingual Plane (an emoji, a CJK extension ideograph) before the
 * token still names the token: the character at the offset is the token's first.
 */
class ExpressionOffsetsTest {

    private static InvalidPredicateException refusal(String text) {
        try {
            ExpressionText.parse(text, 0);
        } catch (InvalidPredicateException e) {
            return e;
        }
        throw new AssertionError("not refused: " + text);
    }

    /** The text from the offset, counted in characters. */
    private static String fromOffset(String text, int offset) {
        return text.substring(text.offsetByCodePoints(0, offset));
    }

    @Test
    void parse_whenCharactersOutsideTheBmpComeBeforeTheToken_namesTheTokenByItsCharacterOffset() {
        for (String text : List.of("\uD83D\uDE00 = 1 or (b = 2", "title = \"\uD83D\uDE00\uD83D\uDE00\" or (b = 2", "\uD840\uDC00 = 1 and (b = 2",
                "e\u0301 = 1 or (b = 2")) {
            InvalidPredicateException refused = refusal(text);
            int characters = text.codePointCount(0, text.indexOf('('));

            assertThat(refused.offset()).as(text).isEqualTo(characters);
            assertThat(fromOffset(text, refused.offset())).as(text).startsWith("(b = 2");
            assertThat(refused.getMessage()).as(text).startsWith("predicate 0 at character " + characters + ": has a '(' that does not close");
        }
    }

    @Test
    void parse_aPredicateRefusedInsideAnExpression_afterAnEmoji_isNamedAtItsFirstCharacter() {
        String text = "title = \"\uD83D\uDE00\" or severity >=";

        assertThatThrownBy(() -> ExpressionText.parse(text, 1)).isInstanceOfSatisfying(InvalidPredicateException.class, e -> {
            assertThat(e.position()).isEqualTo(1);
            assertThat(fromOffset(text, e.offset())).isEqualTo("severity >=");
        });
    }
}
