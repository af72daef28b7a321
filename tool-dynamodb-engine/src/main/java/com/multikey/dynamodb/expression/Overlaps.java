package com.multikey.dynamodb.expression;

import java.util.List;

/**
 * DynamoDB's check that the paths an update writes (or a projection lists) neither overlap (one is a prefix
 * of the other, or they are equal) nor conflict (one reads a level as a map, the other as a list).
 */
final class Overlaps {

    private Overlaps() {
    }

    static void check(Source source, List<Path> paths) {
        for (int i = 0; i < paths.size(); i++) {
            for (int j = i + 1; j < paths.size(); j++) {
                check(source, paths.get(i), paths.get(j));
            }
        }
    }

    private static void check(Source source, Path one, Path two) {
        int common = Math.min(one.size(), two.size());
        for (int k = 0; k < common; k++) {
            Path.Element a = one.elements().get(k);
            Path.Element b = two.elements().get(k);
            if (a.equals(b)) {
                continue;
            }
            if (a.getClass() != b.getClass()) {
                throw source.invalid("Two document paths conflict with each other; must remove or rewrite one of these paths; path one: "
                        + one + ", path two: " + two);
            }
            return; // they part ways at this level
        }
        throw source.invalid("Two document paths overlap with each other; must remove or rewrite one of these paths; path one: "
                + one + ", path two: " + two);
    }
}
