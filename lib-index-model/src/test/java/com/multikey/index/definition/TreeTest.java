package com.multikey.index.definition;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** The questions the reader asks of a definitions document: what a node is, and its text. */
class TreeTest {

    private static final Tree DOCUMENT = Tree.of(JsonNode.parser().parse("""
            {"text": "x", "number": 1.50, "whole": 12, "big": 3000000000, "yes": true, "no": false, "nothing": null,
             "object": {"a": 1, "b": 2}, "list": [1, "two", false]}
            """));

    @Test
    void isValueNode_whenAStringANumberOrABoolean() {
        assertThat(DOCUMENT.get("text").isValueNode()).isTrue();
        assertThat(DOCUMENT.get("number").isValueNode()).isTrue();
        assertThat(DOCUMENT.get("yes").isValueNode()).isTrue();
        assertThat(DOCUMENT.get("nothing").isValueNode()).isFalse();
        assertThat(DOCUMENT.get("object").isValueNode()).isFalse();
        assertThat(DOCUMENT.get("list").isValueNode()).isFalse();
        assertThat(DOCUMENT.get("absent").isValueNode()).isFalse();
    }

    @Test
    void asText_isTheTextOfAStringANumberOrABoolean_elseTheFallback() {
        assertThat(DOCUMENT.get("text").asText("-")).isEqualTo("x");
        assertThat(DOCUMENT.get("number").asText("-")).as("the number's own digits").isEqualTo("1.50");
        assertThat(DOCUMENT.get("no").asText("-")).isEqualTo("false");
        assertThat(DOCUMENT.get("yes").asText()).isEqualTo("true");
        assertThat(DOCUMENT.get("nothing").asText("-")).isEqualTo("-");
        assertThat(DOCUMENT.get("object").asText()).isEmpty();
    }

    @Test
    void isNullAndIsObject_tellNullFromMissing_andObjectsFromLists() {
        assertThat(DOCUMENT.get("nothing").isNull()).isTrue();
        assertThat(DOCUMENT.get("nothing").isMissing()).isFalse();
        assertThat(DOCUMENT.get("text").isNull()).isFalse();
        assertThat(DOCUMENT.get("absent").isNull()).isFalse();
        assertThat(DOCUMENT.get("absent").isMissing()).isTrue();
        assertThat(DOCUMENT.hasNonNull("text")).isTrue();
        assertThat(DOCUMENT.hasNonNull("nothing")).isFalse();
        assertThat(DOCUMENT.hasNonNull("absent")).isFalse();
        assertThat(DOCUMENT.get("object").isObject()).isTrue();
        assertThat(DOCUMENT.get("list").isObject()).isFalse();
        assertThat(DOCUMENT.get("absent").isObject()).isFalse();
    }

    @Test
    void get_whenNotAnObject_isMissing() {
        assertThat(DOCUMENT.get("list").get("a").isMissing()).isTrue();
        assertThat(DOCUMENT.get("list").has("a")).isFalse();
        assertThat(DOCUMENT.get("object").get("a").asInt()).isEqualTo(1);
    }

    @Test
    void size_isTheMembersOfAnObject_theElementsOfAList_elseZero() {
        assertThat(DOCUMENT.get("object").size()).isEqualTo(2);
        assertThat(DOCUMENT.get("list").size()).isEqualTo(3);
        assertThat(DOCUMENT.get("text").size()).isZero();
        assertThat(DOCUMENT.get("absent").size()).isZero();
    }

    @Test
    void asList_isTheElementsOfAList_orTheOneValue() {
        assertThat(DOCUMENT.get("list").asList()).extracting(element -> element.asText("-")).containsExactly("1", "two", "false");
        assertThat(DOCUMENT.get("text").asList()).extracting(element -> element.asText("-")).containsExactly("x");
        assertThat(DOCUMENT.get("object").iterator()).isExhausted();
    }

    @Test
    void isInt_whenAWholeNumberThatFitsAnInt() {
        assertThat(DOCUMENT.get("whole").isInt()).isTrue();
        assertThat(DOCUMENT.get("whole").asInt(-1)).isEqualTo(12);
        assertThat(DOCUMENT.get("number").isInt()).isFalse();
        assertThat(DOCUMENT.get("big").isInt()).isFalse();
        assertThat(DOCUMENT.get("big").asInt(-1)).isEqualTo(-1);
        assertThat(DOCUMENT.get("text").isInt()).isFalse();
    }
}
