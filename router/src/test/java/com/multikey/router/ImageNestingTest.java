package com.multikey.router;

import com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

/** Nesting as DynamoDB counts it, measured on a stream record's image before conversion. */
class ImageNestingTest {

    private static AttributeValue s(String text) {
        return new AttributeValue().withS(text);
    }

    private static AttributeValue map(AttributeValue member) {
        return new AttributeValue().withM(Map.of("m", member));
    }

    private static AttributeValue list(AttributeValue... members) {
        return new AttributeValue().withL(members);
    }

    static Stream<Arguments> images() {
        return Stream.of(
                argumentSet("no image", null, 0),
                argumentSet("scalars", Map.of("a", s("x"), "b", new AttributeValue().withN("1")), 0),
                argumentSet("a string set", Map.of("a", new AttributeValue().withSS("x", "y")), 1),
                argumentSet("a number set", Map.of("a", new AttributeValue().withNS("1")), 1),
                argumentSet("a binary set", Map.of("a", new AttributeValue().withBS(ByteBuffer.wrap(new byte[] {1}))), 1),
                argumentSet("a map of a string", Map.of("a", map(s("x"))), 1),
                argumentSet("a list of strings", Map.of("a", list(s("x"), s("y"))), 1),
                argumentSet("a list holding a map of a set, beside a string", Map.of("a", list(s("x"), map(new AttributeValue().withSS("z")))), 3),
                argumentSet("a map of a list of lists", Map.of("a", map(list(list(s("x")))), "b", s("y")), 3),
                argumentSet("the deepest of several attributes", Map.of("a", map(s("x")), "b", list(list(list(s("x")))), "c", s("y")), 3));
    }

    @ParameterizedTest
    @MethodSource("images")
    void depth_countsALevelForEachMapListOrSet_downToTheDeepestMember(Map<String, AttributeValue> image, int depth) {
        assertThat(ImageNesting.depth(image)).isEqualTo(depth);
    }
}
