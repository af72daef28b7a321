package com.multikey.index;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IssueSchemaTest {

    @Test
    void new_whenIssueEntityTypeIsAnIdPrefix_acceptsIt() {
        assertThat(new IssueSchema("id", "task", "cf", "n", "p").issueEntityType()).isEqualTo("task");
    }

    @Test
    void new_whenIssueEntityTypeIsEmptyOrHoldsTheSeparator_refuses() {
        assertThatThrownBy(() -> new IssueSchema("id", "", "cf", "n", "p")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new IssueSchema("id", "is#sue", "cf", "n", "p")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void fromEnvironment_whenNothingIsSet_isTheDataModelsNames() {
        assertThat(IssueSchema.fromEnvironment(Map.of())).isEqualTo(IssueSchema.DEFAULT);
    }

    @Test
    void fromEnvironment_whenEveryNameIsSet_usesThem() {
        IssueSchema schema = IssueSchema.fromEnvironment(Map.of("KEY_ATTRIBUTE", "pk", "ISSUE_ENTITY_TYPE", "task",
                "CUSTOM_FIELDS_ATTRIBUTE", "cf", "NUM_ATTRIBUTE", "n", "PROJECT_ATTRIBUTE", "p"));

        assertThat(schema).isEqualTo(new IssueSchema("pk", "task", "cf", "n", "p"));
    }

    @Test
    void isIssue_whenTheIdStartsWithTheTypeAndSeparator_isTrue() {
        assertThat(IssueSchema.DEFAULT.isIssue("issue#1")).isTrue();
        assertThat(IssueSchema.DEFAULT.isIssue("issue#")).isTrue();
    }

    @Test
    void isIssue_whenTheIdIsOfAnotherTypeOrMissing_isFalse() {
        assertThat(IssueSchema.DEFAULT.isIssue("layer#1")).isFalse();
        assertThat(IssueSchema.DEFAULT.isIssue("issues#1")).isFalse();
        assertThat(IssueSchema.DEFAULT.isIssue("issue")).isFalse();
        assertThat(IssueSchema.DEFAULT.isIssue(null)).isFalse();
    }
}
