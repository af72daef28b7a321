package com.multikey.queryapi;

import com.multikey.index.definition.IndexDefinition;
import com.multikey.query.GroupValue;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The groups a caller may read, from the values of its token's claim ({@code QueryApiProjectsClaim}, default
 * {@code projects}):
 * <ul>
 *   <li>{@code *}: every group of every index;</li>
 *   <li>{@code <index>:<pattern>}, where {@code <index>} is a declared index's name: the groups of that index whose text
 *       is {@code <pattern>}, or starts with what precedes a {@code *} that ends it ({@code layers-by-region:us-*};
 *       {@code <index>:*} every group of the index, and the index without a group);</li>
 *   <li>any other value: that project of the grid (the index {@code GET /v1/grid} reads), as tokens said before
 *       indexes were declared.</li>
 * </ul>
 * A group's text is its values as the {@code group} parameters spell them ({@link GroupValue#format}: {@code N:} and the
 * number's plain form without trailing zeros, {@code BOOL:}, {@code B:} and base64, {@code S:} before a text that starts
 * with a type prefix), joined by {@code /}, with {@code %} and {@code /} inside a value written {@code %25} and
 * {@code %2F}.
 */
final class GroupScope {

    private final boolean all;
    private final Set<String> gridProjects;
    private final Map<String, List<String>> patterns;

    private GroupScope(boolean all, Set<String> gridProjects, Map<String, List<String>> patterns) {
        this.all = all;
        this.gridProjects = Set.copyOf(gridProjects);
        this.patterns = Map.copyOf(patterns);
    }

    /** The scope of a claim's values, given the names of the declared indexes. */
    static GroupScope of(Set<String> claimValues, Set<String> indexNames) {
        boolean all = false;
        Set<String> projects = new HashSet<>();
        Map<String, List<String>> patterns = new HashMap<>();
        for (String value : claimValues) {
            int colon = value.indexOf(':');
            if (value.equals(QueryApi.ANY_GROUP)) {
                all = true;
            } else if (colon > 0 && indexNames.contains(value.substring(0, colon))) {
                patterns.computeIfAbsent(value.substring(0, colon), name -> new ArrayList<>()).add(value.substring(colon + 1));
            } else {
                projects.add(value);
            }
        }
        return new GroupScope(all, projects, patterns);
    }

    /**
     * Whether the caller may read this group of this index.
     *
     * @param grid whether the index is the grid's, whose projects unqualified values name
     */
    boolean permits(IndexDefinition index, List<AttributeValue> group, boolean grid) {
        if (all) {
            return true;
        }
        if (grid && group.size() == 1 && group.get(0).s() != null && gridProjects.contains(group.get(0).s())) {
            return true;
        }
        if (group.isEmpty()) {
            // an index without a group: read with <index>:* alone
            return patterns.getOrDefault(index.name(), List.of()).contains("*");
        }
        String text = text(group);
        return patterns.getOrDefault(index.name(), List.of()).stream().anyMatch(pattern -> matches(pattern, text));
    }

    private static boolean matches(String pattern, String text) {
        return pattern.endsWith("*") ? text.startsWith(pattern.substring(0, pattern.length() - 1)) : text.equals(pattern);
    }

    /** A group's text: its values as the {@code group} parameters spell them, each escaped, joined by {@code /}. */
    static String text(List<AttributeValue> group) {
        return group.stream().map(GroupValue::format).map(v -> v.replace("%", "%25").replace("/", "%2F"))
                .collect(Collectors.joining("/"));
    }

    /**
     * The group a text names, as {@link #text} writes it: values joined by {@code /}, {@code %2F} and {@code %25} inside a
     * value for {@code /} and {@code %}, each value in {@link GroupValue}'s spelling.
     *
     * @throws IllegalArgumentException when a value does not read as {@link GroupValue#parse} reads it
     */
    static List<AttributeValue> parse(String text) {
        List<AttributeValue> values = new ArrayList<>();
        for (String part : text.split("/", -1)) {
            values.add(GroupValue.parse(unescape(part)));
        }
        return values;
    }

    /** {@code %2F} as {@code /} and {@code %25} as {@code %}, read left to right ({@code %252F} is the text {@code %2F}). */
    private static String unescape(String part) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < part.length(); i++) {
            if (part.startsWith("%2F", i) || part.startsWith("%2f", i)) {
                text.append('/');
                i += 2;
            } else if (part.startsWith("%25", i)) {
                text.append('%');
                i += 2;
            } else {
                text.append(part.charAt(i));
            }
        }
        return text.toString();
    }
}
