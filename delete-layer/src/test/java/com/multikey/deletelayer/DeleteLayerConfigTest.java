package com.multikey.deletelayer;

import com.multikey.index.definition.IndexDefinitions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** delete-layer's settings as the function reads them from its environment (docs/configuration.md). */
class DeleteLayerConfigTest {

    @Test
    void fromEnvironment_whenOnlyTheRequiredSettingsAreSet_takesTheDocumentedDefaults() {
        DeleteLayerConfig config = DeleteLayerConfig.fromEnvironment(Map.of("APP_TABLE_NAME", "AppTable", "ALLOWED_ACCOUNT_ID", "123456789012"));

        assertThat(config).isEqualTo(new DeleteLayerConfig("AppTable", "multikey.app-table", "123456789012", "",
                IndexDefinitions.packaged(), "arn", "expiresAt", Set.of()));
    }

    @Test
    void fromEnvironment_whenEverySettingIsSet_readsEachOne(@TempDir Path dir) throws IOException {
        Path definitions = Files.writeString(dir.resolve("index-definitions.yaml"), """
                version: 1
                table:
                  partitionKey: {name: pk, type: S}
                  sortKey: {name: sk, type: N}
                entityTypes:
                  - {name: Layer, when: [{attribute: pk, beginsWith: "lyr#"}]}
                indexes: []
                """);

        DeleteLayerConfig config = DeleteLayerConfig.fromEnvironment(Map.of(
                "APP_TABLE_NAME", "Layers", "EVENT_SOURCE", "team.layers", "ALLOWED_ACCOUNT_ID", "210987654321",
                "LAYER_NAME_PREFIX", "team-", "INDEX_DEFINITIONS", definitions.toString(), "ARN_ATTRIBUTE", "layerArn",
                "TTL_ATTRIBUTE", "exDt", "TOMBSTONE_DROP_ATTRIBUTES", "dplySts,notes"));

        assertThat(config).isEqualTo(new DeleteLayerConfig("Layers", "team.layers", "210987654321", "team-",
                IndexDefinitions.read(definitions), "layerArn", "exDt", Set.of("dplySts", "notes")));
        assertThat(config.table().attributes()).extracting(a -> a.name() + " " + a.type()).containsExactly("pk S", "sk N");
    }

    @Test
    void fromEnvironment_readsTheDroppedAttributes_trimmed_andSkipsEmptyNames() {
        DeleteLayerConfig config = DeleteLayerConfig.fromEnvironment(Map.of("APP_TABLE_NAME", "AppTable", "ALLOWED_ACCOUNT_ID",
                "123456789012", "TOMBSTONE_DROP_ATTRIBUTES", " dplySts , ,notes,"));

        assertThat(config.dropAttributes()).containsExactlyInAnyOrder("dplySts", "notes");
    }

    @Test
    void fromEnvironment_whenARequiredSettingIsMissing_namesIt() {
        assertThatThrownBy(() -> DeleteLayerConfig.fromEnvironment(Map.of("ALLOWED_ACCOUNT_ID", "123456789012")))
                .isInstanceOf(IllegalStateException.class).hasMessage("APP_TABLE_NAME is not set");
        assertThatThrownBy(() -> DeleteLayerConfig.fromEnvironment(Map.of("APP_TABLE_NAME", "AppTable")))
                .isInstanceOf(IllegalStateException.class).hasMessage("ALLOWED_ACCOUNT_ID is not set");
    }
}
