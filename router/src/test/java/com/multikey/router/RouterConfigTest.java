package com.multikey.router;

import com.multikey.index.definition.DefinitionException;
import com.multikey.index.definition.DefinitionsYaml;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RouterConfigTest {

    private static Map<String, String> env(String key, String value) {
        Map<String, String> env = new HashMap<>(Map.of("EVENT_BUS_NAME", "app-events", "TABLE_ARN", RouterFixtures.TABLE_ARN));
        env.put(key, value);
        return env;
    }

    @Test
    void fromEnvironment_acceptsWhatPutEventsAccepts() {
        assertThat(RouterConfig.fromEnvironment(env("EVENT_SOURCE", "s".repeat(256))).eventSource()).hasSize(256);
        assertThat(RouterConfig.fromEnvironment(env("EVENT_BUS_NAME", "arn:aws:events:us-east-1:123456789012:event-bus/app-events"))
                .eventBusName()).endsWith("app-events");
        assertThat(RouterConfig.fromEnvironment(env("MAX_ENTRY_BYTES", "1048576")).maxEntryBytes()).isEqualTo(1048576);
    }

    @Test
    void fromEnvironment_acceptsEachSettingAtItsBound_andRefusesItOnePast() {
        assertThat(RouterConfig.fromEnvironment(env("MAX_ENTRY_BYTES", "1024")).maxEntryBytes()).isEqualTo(1024);
        assertThatThrownBy(() -> RouterConfig.fromEnvironment(env("MAX_ENTRY_BYTES", "1023"))).hasMessageContaining("MAX_ENTRY_BYTES")
                .hasMessageContaining("1023");
        assertThat(RouterConfig.fromEnvironment(env("EVENT_BUS_NAME", "b".repeat(1600))).eventBusName()).hasSize(1600);
        assertThat(RouterConfig.fromEnvironment(env("TABLE_ARN", "a".repeat(2048))).tableArn()).hasSize(2048);
    }

    @Test
    void fromEnvironment_whenASettingCanNeverBeAccepted_refusesToStart_sayingWhich() {
        assertThatThrownBy(() -> RouterConfig.fromEnvironment(env("EVENT_SOURCE", "s".repeat(257))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("EVENT_SOURCE").hasMessageContaining("257");
        assertThatThrownBy(() -> RouterConfig.fromEnvironment(env("EVENT_SOURCE", "aws.dynamodb"))).hasMessageContaining("aws.");
        assertThatThrownBy(() -> RouterConfig.fromEnvironment(env("EVENT_SOURCE", ""))).hasMessageContaining("EVENT_SOURCE");
        assertThatThrownBy(() -> RouterConfig.fromEnvironment(env("EVENT_BUS_NAME", "app events"))).hasMessageContaining("EVENT_BUS_NAME");
        assertThatThrownBy(() -> RouterConfig.fromEnvironment(env("EVENT_BUS_NAME", "b".repeat(1601)))).hasMessageContaining("EVENT_BUS_NAME");
        assertThatThrownBy(() -> RouterConfig.fromEnvironment(env("TABLE_ARN", "a".repeat(2049)))).hasMessageContaining("TABLE_ARN");
        assertThatThrownBy(() -> RouterConfig.fromEnvironment(env("MAX_ENTRY_BYTES", "1048577"))).hasMessageContaining("MAX_ENTRY_BYTES");
    }

    @Test
    void fromEnvironment_readsTheDefinitionsFileItIsGiven_andRefusesToStartOnOneThatCannotWork(@TempDir Path dir) throws Exception {
        // given
        Path singleTable = Files.writeString(dir.resolve("single-table.json"),
                DefinitionsYaml.toJson(SingleTableRouterTest.EXAMPLE.resolve("index-definitions.yaml")));
        Path unknownVersion = Files.writeString(dir.resolve("unknown-version.json"),
                "{\"version\": 99, \"table\": {\"partitionKey\": {\"name\": \"pk\"}}, \"indexes\": []}");

        Path singleTableYaml = Files.copy(SingleTableRouterTest.EXAMPLE.resolve("index-definitions.yaml"), dir.resolve("single-table.yaml"));

        // when
        RouterConfig config = RouterConfig.fromEnvironment(env("INDEX_DEFINITIONS", singleTable.toString()));
        RouterConfig fromYaml = RouterConfig.fromEnvironment(env("INDEX_DEFINITIONS", singleTableYaml.toString()));

        // then
        assertThat(config.definitions().table().sortKey()).isPresent();
        assertThat(config.keyAttribute()).isEqualTo("pk");
        assertThat(fromYaml.definitions()).as("the YAML file the docs show, as it is").isEqualTo(config.definitions());
        assertThat(RouterConfig.fromEnvironment(env("EVENT_SOURCE", "s")).keyAttribute()).as("the packaged file").isEqualTo("id");
        assertThatThrownBy(() -> RouterConfig.fromEnvironment(env("INDEX_DEFINITIONS", unknownVersion.toString())))
                .isInstanceOf(DefinitionException.class).hasMessageContaining("unknown-version.json");
        assertThatThrownBy(() -> RouterConfig.fromEnvironment(env("INDEX_DEFINITIONS", dir.resolve("missing.json").toString())))
                .isInstanceOf(DefinitionException.class).hasMessageContaining("missing.json");
    }
}
