package com.multikey.emulator.services.sqs;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SqsQueuesTest {

    private final SqsQueues queues = new SqsQueues(Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC));

    @Test
    void counts_afterAReceive_countTheReceivedMessageAsNotVisible() throws SqsQueues.Refused {
        // given
        queues.create("Failures");
        queues.sendMessage("Failures", "a");
        queues.sendMessage("Failures", "b");

        // when
        queues.receive("Failures", 1, 0, null);

        // then
        assertThat(queues.counts("Failures")).isEqualTo(new SqsQueues.Counts(1, 1));
    }

    @Test
    void changeVisibility_ofAMessageNoLongerInFlight_isMessageNotInflight() throws SqsQueues.Refused {
        // given: received with a visibility timeout of 0, visible again at once
        queues.create("Failures");
        queues.sendMessage("Failures", "a");
        String handle = queues.receive("Failures", 1, 0, 0).get(0).receiptHandle();

        // when / then
        assertThatThrownBy(() -> queues.changeVisibility("Failures", handle, 10)).isInstanceOfSatisfying(SqsQueues.Refused.class,
                e -> assertThat(e.code).isEqualTo("MessageNotInflight"));
    }

    @Test
    void changeVisibility_withoutAVisibilityTimeout_isMissingParameter_onceTheHandleIsKnown() throws SqsQueues.Refused {
        // given
        queues.create("Failures");
        queues.sendMessage("Failures", "a");
        String handle = queues.receive("Failures", 1, 0, null).get(0).receiptHandle();

        // when / then: the handle is checked first, as SQS does
        assertThatThrownBy(() -> queues.changeVisibility("Failures", "unknown", null)).isInstanceOfSatisfying(SqsQueues.Refused.class,
                e -> assertThat(e.code).isEqualTo("ReceiptHandleIsInvalid"));
        assertThatThrownBy(() -> queues.changeVisibility("Failures", handle, null)).isInstanceOfSatisfying(SqsQueues.Refused.class,
                e -> assertThat(e.code).isEqualTo("MissingParameter"));
    }
}
