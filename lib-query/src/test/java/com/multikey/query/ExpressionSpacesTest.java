package com.multikey.query;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The where grammar's spaces: what separates its tokens is no part of the predicates' values. */
class ExpressionSpacesTest {

    @Test
    void parse_aKeywordBetweenSpacesOtherThanAscii_leavesNoneOfThemInTheValuesItSeparates() {
        // an ideographic space (a CJK keyboard's) or an em space separates the grammar's tokens as an ASCII space does
        for (String space : List.of("\u3000", "\u2003", "\t")) {
            String text = "a = 1" + space + "or" + space + "(b = open" + space + "and" + space + "c = 3" + space + ")";

            assertThat(ExpressionText.parse(text, 0)).as(text).isEqualTo(ExpressionText.parse("a = 1 or (b = open and c = 3)", 0));
        }
    }
}
