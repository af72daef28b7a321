package com.multikey.index;

import java.util.Map;
import java.util.Objects;

/**
 * Where an issue keeps what the index is built from: the app table's key attribute, the id prefix of
 * issues, the map of custom fields, and the attributes projected into every index item. Every reader and
 * writer of the index takes the names from here, never from a function's configuration.
 *
 * @param keyAttribute          the app table's partition key ({@code id})
 * @param issueEntityType       the id prefix before {@code #} of issues ({@code issue})
 * @param customFieldsAttribute the map of custom fields ({@code custom_fields})
 * @param numAttribute          the issue number, part of every sort key ({@code num})
 * @param projectAttribute      the project, projected into every index item ({@code project})
 */
public record IssueSchema(String keyAttribute, String issueEntityType, String customFieldsAttribute, String numAttribute,
                          String projectAttribute) {

    /** The data model's names. */
    public static final IssueSchema DEFAULT = new IssueSchema("id", "issue", "custom_fields", "num", "project");

    public IssueSchema {
        Objects.requireNonNull(keyAttribute, "keyAttribute");
        Objects.requireNonNull(issueEntityType, "issueEntityType");
        Objects.requireNonNull(customFieldsAttribute, "customFieldsAttribute");
        Objects.requireNonNull(numAttribute, "numAttribute");
        Objects.requireNonNull(projectAttribute, "projectAttribute");
        if (issueEntityType.isEmpty() || issueEntityType.contains("#")) {
            throw new IllegalArgumentException("the issue entity type must be a non-empty id prefix without '#'");
        }
    }

    /**
     * From a function's environment: {@code KEY_ATTRIBUTE}, {@code ISSUE_ENTITY_TYPE},
     * {@code CUSTOM_FIELDS_ATTRIBUTE}, {@code NUM_ATTRIBUTE}, {@code PROJECT_ATTRIBUTE}, each defaulting to
     * the data model's name.
     */
    public static IssueSchema fromEnvironment(Map<String, String> env) {
        return new IssueSchema(
                env.getOrDefault("KEY_ATTRIBUTE", DEFAULT.keyAttribute()),
                env.getOrDefault("ISSUE_ENTITY_TYPE", DEFAULT.issueEntityType()),
                env.getOrDefault("CUSTOM_FIELDS_ATTRIBUTE", DEFAULT.customFieldsAttribute()),
                env.getOrDefault("NUM_ATTRIBUTE", DEFAULT.numAttribute()),
                env.getOrDefault("PROJECT_ATTRIBUTE", DEFAULT.projectAttribute()));
    }

    /** Whether an item with this key is an issue: its id starts with the issue type and {@code #}, as the stream filter says. */
    public boolean isIssue(String id) {
        return id != null && id.startsWith(issueEntityType + "#");
    }
}
