package com.multikey.redrive;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.sqs.model.SqsException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The run over a queue, with an in-memory queue and scripted actions. */
class RedriveTest {

    /** An in-memory queue: received messages are hidden until deleted or released. */
    static class InMemoryQueue implements FailureQueue {
        final Map<String, String> visible = new LinkedHashMap<>();
        final Map<String, String> inFlight = new LinkedHashMap<>();
        final List<String> deleted = new ArrayList<>();

        InMemoryQueue(String... bodies) {
            for (int i = 0; i < bodies.length; i++) {
                visible.put("m" + i, bodies[i]);
            }
        }

        @Override
        public List<Message> receive(int max) {
            List<Message> out = new ArrayList<>();
            for (var it = visible.entrySet().iterator(); it.hasNext() && out.size() < Math.min(max, 10); ) {
                var entry = it.next();
                out.add(new Message(entry.getKey(), entry.getValue(), "rh-" + entry.getKey()));
                inFlight.put(entry.getKey(), entry.getValue());
                it.remove();
            }
            return out;
        }

        @Override
        public void delete(Message message) {
            inFlight.remove(message.messageId());
            deleted.add(message.messageId());
        }

        @Override
        public void release(Message message) {
            visible.put(message.messageId(), inFlight.remove(message.messageId()));
        }

        @Override
        public int approximateCount() {
            return visible.size();
        }
    }

    private static final MessageAction SCRIPTED = (body, dryRun) -> switch (body) {
        case "ok" -> new MessageAction.Result.Done("done");
        case "gone" -> new MessageAction.Result.Gone("range", "trimmed", "run verify --repair");
        case "fails" -> new MessageAction.Result.Failed("still failing");
        case "throws" -> throw new FunctionInvoker.FunctionFailedException("function failed");
        default -> throw new IllegalArgumentException("not a message of this queue");
    };

    @Test
    void run_deletesOnlyTheMessagesWhoseWorkSucceeded_andMakesTheOthersVisibleAgain() {
        // given
        InMemoryQueue queue = new InMemoryQueue("ok", "gone", "fails", "throws", "garbage", "ok");

        // when
        Redrive.Report report = new Redrive(QueueKind.INDEXER, queue, SCRIPTED).run(false, 100, false);

        // then
        assertThat(report.outcomes()).extracting(o -> o.getClass().getSimpleName())
                .containsExactly("Redriven", "RangeGone", "Failed", "Failed", "Unreadable", "Redriven");
        assertThat(queue.deleted).containsExactly("m0", "m5");
        assertThat(queue.visible).containsOnlyKeys("m1", "m2", "m3", "m4");
        assertThat(queue.inFlight).isEmpty();
        assertThat(report.remaining()).isEqualTo(4);
        assertThat(report.allRedriven()).isFalse();
    }

    /** SQS's answer to a receipt handle that is no longer the latest (the message was received again by another reader). */
    private static SqsException receiptHandleIsInvalid() {
        return (SqsException) SqsException.builder().statusCode(400).awsErrorDetails(AwsErrorDetails.builder()
                .errorCode("ReceiptHandleIsInvalid").errorMessage("The input receipt handle is not a valid receipt handle.").build()).build();
    }

    @Test
    void run_whenReleasingAKeptMessageFails_stillAnswersTheReport_andReleasesTheOthers() {
        // given: the first message's visibility timeout ran out during the run and another reader received it
        InMemoryQueue queue = new InMemoryQueue("garbage", "fails", "ok") {
            @Override
            public void release(Message message) {
                if (message.messageId().equals("m0")) {
                    throw receiptHandleIsInvalid();
                }
                super.release(message);
            }
        };

        // when
        Redrive.Report report = new Redrive(QueueKind.INDEXER, queue, SCRIPTED).run(false, 10, false);

        // then
        assertThat(report.outcomes()).extracting(o -> o.getClass().getSimpleName()).containsExactly("Unreadable", "Failed", "Redriven");
        assertThat(queue.deleted).containsExactly("m2");
        assertThat(queue.visible).containsKey("m1");
    }

    @Test
    void run_whenDeletingAMessageFails_reportsIt_andGoesOnWithTheNextMessages() {
        // given: the work of m0 succeeded, but its receipt handle is no longer valid when it is deleted
        InMemoryQueue queue = new InMemoryQueue("ok", "ok") {
            @Override
            public void delete(Message message) {
                if (message.messageId().equals("m0")) {
                    throw receiptHandleIsInvalid();
                }
                super.delete(message);
            }
        };

        // when
        Redrive.Report report = new Redrive(QueueKind.INDEXER, queue, SCRIPTED).run(false, 10, false);

        // then
        assertThat(report.outcomes()).hasSize(2);
        assertThat(report.outcomes().get(0)).isInstanceOfSatisfying(Redrive.Outcome.Failed.class,
                failed -> assertThat(failed.reason()).contains("done", "not deleted"));
        assertThat(report.outcomes().get(1)).isInstanceOf(Redrive.Outcome.Redriven.class);
        assertThat(queue.deleted).containsExactly("m1");
    }

    @Test
    void run_aBlankMessage_isUnreadableAndKept_andTheRunGoesOn() {
        // given: SQS accepts a body of one space; the next message is a dead-lettered event
        String event = "{\"id\": \"e1\", \"detail-type\": \"Layer Expired\", \"detail\": {}}";
        InMemoryQueue queue = new InMemoryQueue(" ", event);
        MessageAction action = new DeleteLayerRedrive((function, payload) -> "null", "delete-layer");

        // when
        Redrive.Report report = new Redrive(QueueKind.DELETE_LAYER, queue, action).run(false, 10, false);

        // then
        assertThat(report.outcomes()).extracting(o -> o.getClass().getSimpleName()).containsExactly("Unreadable", "Redriven");
        assertThat(queue.deleted).containsExactly("m1");
        assertThat(queue.visible).containsOnlyKeys("m0");
    }

    @Test
    void run_dryRun_deletesNothing_evenWhenAskedToDropGoneRanges() {
        InMemoryQueue queue = new InMemoryQueue("ok", "gone");

        Redrive.Report report = new Redrive(QueueKind.ROUTER, queue, SCRIPTED).run(true, 100, true);

        assertThat(report.outcomes()).extracting(o -> o.getClass().getSimpleName()).containsExactly("WouldRedrive", "RangeGone");
        assertThat(((Redrive.Outcome.RangeGone) report.outcomes().get(1)).dropped()).isFalse();
        assertThat(queue.deleted).isEmpty();
        assertThat(queue.visible).hasSize(2);
    }

    @Test
    void run_dropGone_deletesAGoneRangeAfterReportingIt() {
        InMemoryQueue queue = new InMemoryQueue("gone");

        Redrive.Report report = new Redrive(QueueKind.INDEXER, queue, SCRIPTED).run(false, 100, true);

        assertThat(report.outcomes()).singleElement().isInstanceOfSatisfying(Redrive.Outcome.RangeGone.class, gone -> {
            assertThat(gone.dropped()).isTrue();
            assertThat(gone.advice()).isEqualTo("run verify --repair");
        });
        assertThat(queue.deleted).containsExactly("m0");
    }

    @Test
    void run_handlesAtMostMaxMessages_receivingTenAtATime() {
        String[] bodies = new String[25];
        java.util.Arrays.fill(bodies, "ok");
        InMemoryQueue queue = new InMemoryQueue(bodies);

        Redrive.Report report = new Redrive(QueueKind.INDEXER, queue, SCRIPTED).run(false, 13, false);

        assertThat(report.outcomes()).hasSize(13);
        assertThat(queue.deleted).hasSize(13);
        assertThat(report.remaining()).isEqualTo(12);
    }

    @Test
    void report_toJson_namesEachOutcome() {
        InMemoryQueue queue = new InMemoryQueue("ok", "gone");

        String json = new Redrive(QueueKind.DELETE_LAYER, queue, SCRIPTED).run(false, 10, false).toJson();

        assertThat(json).startsWith("{\"queue\":\"delete-layer\",\"dryRun\":false,\"remaining\":1,\"messages\":[")
                .contains("\"outcome\":\"redriven\"", "\"outcome\":\"range gone\"", "\"dropped\":false");
    }

    @Test
    void queueKind_of_refusesAnUnknownName_namingTheAcceptedOnes() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> QueueKind.of("indexr"))
                .hasMessageContaining("indexer, router, delete-layer");
        assertThat(QueueKind.of("delete-layer")).isEqualTo(QueueKind.DELETE_LAYER);
    }
}
