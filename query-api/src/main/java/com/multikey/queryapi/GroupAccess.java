package com.multikey.queryapi;

import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Whether a caller may read the groups a request names ({@link GroupScope}), checked before anything is read; and which
 * index is the grid, whose projects a token names without an index.
 */
final class GroupAccess {

    private final IndexDefinitions definitions;
    /** Every declared name a token may qualify a group with: both of the grid's, whichever layout the stack's state keeps. */
    private final Set<String> indexNames;

    GroupAccess(IndexDefinitions definitions) {
        this.definitions = definitions;
        this.indexNames = definitions.declared().stream().map(IndexDefinition::name).collect(Collectors.toUnmodifiableSet());
    }

    /**
     * The grid: the index {@code GET /v1/grid} names, whose projects a token names without an index (the query library
     * reads it in the layout the stack's grid state reads).
     */
    java.util.Optional<IndexDefinition> grid() {
        return definitions.fieldPartitionedGrid().or(definitions::groupedGrid);
    }

    /**
     * Refuses, before anything is read, a group the caller's token does not name ({@link GroupScope}: {@value QueryApi#ANY_GROUP},
     * index-qualified group patterns, or projects of the grid); of several groups, every one is checked, and the refusal
     * names those the token does not.
     */
    void authorize(QueryApi.Request request, List<List<AttributeValue>> groups, IndexDefinition index) {
        if (request.readableGroups().isEmpty()) {
            return;
        }
        GroupScope scope = GroupScope.of(request.readableGroups().get(), indexNames);
        // both of the grid's layouts are the grid: a token's unqualified projects read it whichever the stack reads
        List<List<AttributeValue>> refused = groups.stream().filter(group -> !scope.permits(index, group, definitions.isGrid(index))).toList();
        if (refused.isEmpty()) {
            return;
        }
        if (groups.size() > 1) {
            throw new Problem(403, "Forbidden", "the token does not name " + refused.size() + " of the " + groups.size()
                    + " groups of index '" + index.name() + "': " + refused.stream().map(GroupScope::text).toList(), null);
        }
        List<AttributeValue> group = groups.get(0);
        throw new Problem(403, "Forbidden", group.isEmpty()
                ? "index '" + index.name() + "' has no group: it is readable by tokens that name " + QueryApi.ANY_GROUP + " or "
                + index.name() + ":" + QueryApi.ANY_GROUP + " only"
                : "the token does not name this group of index '" + index.name() + "'", null);
    }
}
