package com.multikey.deletelayer;

import com.multikey.common.StructuredLog;
import com.multikey.emulator.functions.LocalContext;
import com.multikey.index.definition.IndexDefinitions;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Clock;

import static org.assertj.core.api.Assertions.assertThat;

/** The handler's answer, which is what a Lambda invocation shows: one line per outcome. */
class DeleteLayerHandlerTest {

    private final RecordingLayerDeleter deleter = new RecordingLayerDeleter();
    private final InMemoryTombstoneWriter tombstones = new InMemoryTombstoneWriter(IndexDefinitions.packaged().table());
    private final DeleteLayerHandler handler = new DeleteLayerHandler(new LayerExpiryProcessor(
            new DeleteLayerConfig("AppTable", "multikey.app-table", "123456789012", "multikey-", IndexDefinitions.packaged(), "arn", "expiresAt"),
            deleter, tombstones, Clock.systemUTC(), new StructuredLog("test", new PrintStream(OutputStream.nullOutputStream()), Clock.systemUTC())));

    @Test
    void handleRequest_whenDeleted_answersWithTheArnAndWhatBecameOfTheTombstone() {
        String first = handler.handleRequest(DeleteLayerFixtures.layerExpired(), LocalContext.of("DeleteLayerFunction"));
        String second = handler.handleRequest(DeleteLayerFixtures.layerExpired(), LocalContext.of("DeleteLayerFunction"));

        assertThat(first).isEqualTo("deleted " + DeleteLayerFixtures.ARN + " (tombstone WRITTEN)");
        assertThat(second).isEqualTo("deleted " + DeleteLayerFixtures.ARN + " (tombstone KEPT_EXISTING)");
    }

    @Test
    void handleRequest_whenRefused_answersWithTheReason() {
        String answer = handler.handleRequest(DeleteLayerFixtures.layerExpired(e -> e.put("source", "someone.else")),
                LocalContext.of("DeleteLayerFunction"));

        assertThat(answer).isEqualTo("refused: event source is not multikey.app-table");
    }
}
