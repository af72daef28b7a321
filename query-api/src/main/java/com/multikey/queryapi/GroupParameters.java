package com.multikey.queryapi;

import com.multikey.index.definition.IndexDefinition;
import com.multikey.query.GroupValue;
import com.multikey.query.PageRequest;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;

/**
 * The groups a request names: the grid's {@code project}s, an index's {@code group} (the values of one group) or its
 * {@code groups} (several, each its values joined by {@code /}); each refusal a 400 naming the parameter.
 */
final class GroupParameters {

    private GroupParameters() {
    }

    /**
     * The grid's projects: {@code project} once each (a project named twice is read once); their number checked by
     * {@link #atMostMaxGroups}.
     */
    static List<List<AttributeValue>> projects(RequestParameters parameters) {
        parameters.required("project");
        List<String> projects = parameters.all("project");
        if (projects.stream().anyMatch(String::isEmpty)) {
            throw Problem.badRequest("project", "required: a project's id each time it is given");
        }
        return projects.stream().distinct().map(project -> List.of(AttributeValue.fromS(project))).toList();
    }

    /**
     * The groups of an index's page: {@code group} (one group, as many values as the index has group attributes) or
     * {@code groups} (several), not both.
     */
    static List<List<AttributeValue>> ofIndex(IndexDefinition index, RequestParameters parameters) {
        List<AttributeValue> group = parameters.all("group").stream().map(GroupParameters::groupValue).toList();
        List<String> several = parameters.all("groups");
        if (!several.isEmpty() && !group.isEmpty()) {
            throw Problem.badRequest("groups", "give group (the values of one group) or groups (several groups), not both");
        }
        if (several.isEmpty()) {
            return List.of(oneGroup(index, group));
        }
        return atMostMaxGroups("groups", GroupValue.distinct(several.stream().map(text -> groupOfText(index, text)).toList()));
    }

    /** The one group of an index a request names with {@code group}: as many values as the index has group attributes. */
    static List<AttributeValue> oneGroup(IndexDefinition index, RequestParameters parameters) {
        return oneGroup(index, parameters.all("group").stream().map(GroupParameters::groupValue).toList());
    }

    private static List<AttributeValue> oneGroup(IndexDefinition index, List<AttributeValue> group) {
        if (group.size() != index.group().size()) {
            throw Problem.badRequest("group", "index '" + index.name() + "' runs within " + index.group() + ": give "
                    + index.group().size() + " group value(s), got " + group.size());
        }
        return group;
    }

    /**
     * A group of {@code groups}: its values joined by {@code /} as a token names the group ({@link GroupScope#parse}), as many
     * as the index has group attributes.
     */
    private static List<AttributeValue> groupOfText(IndexDefinition index, String text) {
        if (index.group().isEmpty()) {
            throw Problem.badRequest("groups", "index '" + index.name() + "' has no group");
        }
        List<AttributeValue> group;
        try {
            group = GroupScope.parse(text);
        } catch (IllegalArgumentException e) {
            throw Problem.badRequest("groups", e.getMessage());
        }
        if (group.size() != index.group().size()) {
            throw Problem.badRequest("groups", "index '" + index.name() + "' runs within " + index.group() + ": each groups value is "
                    + index.group().size() + " group value(s) joined by /, got " + group.size());
        }
        return group;
    }

    /** A group value in a parameter, spelled as {@link GroupValue} reads it (S:, N:, BOOL:, B:, or plain text). */
    private static AttributeValue groupValue(String text) {
        try {
            return GroupValue.parse(text);
        } catch (IllegalArgumentException e) {
            throw Problem.badRequest("group", e.getMessage());
        }
    }

    /** The groups, at most {@value PageRequest#MAX_GROUPS}; more are a 400 naming the parameter. */
    static List<List<AttributeValue>> atMostMaxGroups(String parameter, List<List<AttributeValue>> groups) {
        if (groups.size() > PageRequest.MAX_GROUPS) {
            throw Problem.badRequest(parameter, "at most " + PageRequest.MAX_GROUPS + " groups a request, got " + groups.size());
        }
        return groups;
    }
}
