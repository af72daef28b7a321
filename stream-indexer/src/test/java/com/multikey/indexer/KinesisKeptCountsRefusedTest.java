package com.multikey.indexer;

import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The Kinesis source's indexer keeps no counts, so it refuses definitions that declare them rather than let them drift. */
class KinesisKeptCountsRefusedTest {

    private static final String TABLE = "version: 1\ntable: {partitionKey: {name: pk, type: S}, sortKey: {name: sk, type: S}}\nindexes:\n";

    @Test
    void requireNoKeptCounts_whenAnIndexDeclaresCounts_refusesNamingIt() {
        // given
        IndexDefinitions definitions = DefinitionsYaml.parse(TABLE + "  - {name: plain, group: pk, values: {attribute: status}}\n"
                + "  - {name: counted, group: pk, values: {attribute: status}, counts: {facets: [status]}}\n");

        // when / then
        assertThatThrownBy(() -> VersionedStreamIndexer.requireNoKeptCounts(definitions))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("index 'counted' declares counts")
                .hasMessageContaining("StreamSource dynamodb");
    }

    @Test
    void requireNoKeptCounts_whenNoIndexDeclaresCounts_accepts() {
        IndexDefinitions definitions = DefinitionsYaml.parse(TABLE + "  - {name: plain, group: pk, values: {attribute: status}}\n");

        assertThatCode(() -> VersionedStreamIndexer.requireNoKeptCounts(definitions)).doesNotThrowAnyException();
    }
}
