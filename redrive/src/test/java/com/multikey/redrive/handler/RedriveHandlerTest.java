package com.multikey.redrive.handler;

import com.multikey.redrive.QueueKind;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The invocation's request, as the handler reads it before handing the run to lib-redrive. */
class RedriveHandlerTest {

    @Test
    void request_readsQueueDryRunAndMaxMessages_withDefaults() {
        assertThat(RedriveHandler.Request.of(Map.of("queue", "router", "dryRun", true, "maxMessages", 5)))
                .isEqualTo(new RedriveHandler.Request(QueueKind.ROUTER, true, 5, false));
        assertThat(RedriveHandler.Request.of(Map.of("queue", "indexer", "dropGone", true)))
                .isEqualTo(new RedriveHandler.Request(QueueKind.INDEXER, false, RedriveHandler.DEFAULT_MAX_MESSAGES, true));
    }

    @Test
    void request_whenBadInput_refusesItNamingTheField() {
        assertThatThrownBy(() -> RedriveHandler.Request.of(Map.of("dryRun", true)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"queue\"");
        assertThatThrownBy(() -> RedriveHandler.Request.of(Map.of("queue", "indexr")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("indexer, router, delete-layer");
        assertThatThrownBy(() -> RedriveHandler.Request.of(Map.of("queue", "indexer", "maxMessages", 0)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"maxMessages\"");
        assertThatThrownBy(() -> RedriveHandler.Request.of(Map.of("queue", "indexer", "dryRun", "yes")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"dryRun\"");
        assertThatThrownBy(() -> RedriveHandler.Request.of(null)).isInstanceOf(IllegalArgumentException.class);
    }
}
