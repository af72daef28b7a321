package com.multikey.query;

import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The issue grid's settings: both parts or none, and none only for definitions that declare no grid. */
class GridSettingsTest {

    private static final GridFieldCatalog EVERY_FIELD = (project, attribId) -> true;

    @Test
    void settings_whenOnlyOnePartIsGiven_areRefused() {
        assertThatThrownBy(() -> new GridSettings(GridSettings.BY_PROJECT_INDEX, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new GridSettings(null, EVERY_FIELD)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void none_whenTheDefinitionsDeclareTheGrid_isRefused() {
        assertThatThrownBy(() -> GridSettings.NONE.requireFor(IndexDefinitions.packaged()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("declare the issue grid");
    }

    @Test
    void none_whenTheDefinitionsDeclareNoGrid_isAccepted() throws IOException {
        IndexDefinitions tracker = tracker();
        assertThat(tracker.fieldPartitionedGrid()).isEmpty();
        assertThat(tracker.groupedGrid()).isEmpty();

        assertThat(GridSettings.NONE.requireFor(tracker)).isSameAs(GridSettings.NONE);
        assertThat(GridSettings.NONE.present()).isFalse();
    }

    @Test
    void settings_ofTheGrid_areAcceptedWithOrWithoutAGrid() throws IOException {
        GridSettings grid = new GridSettings(GridSettings.BY_PROJECT_INDEX, EVERY_FIELD);

        assertThat(grid.requireFor(IndexDefinitions.packaged())).isSameAs(grid);
        assertThat(grid.requireFor(tracker())).isSameAs(grid);
        assertThat(grid.present()).isTrue();
    }

    private static IndexDefinitions tracker() throws IOException {
        try (InputStream in = GridSettingsTest.class.getResourceAsStream("/tracker-definitions.yaml")) {
            return DefinitionsYaml.read(in, "tracker-definitions.yaml");
        }
    }
}
