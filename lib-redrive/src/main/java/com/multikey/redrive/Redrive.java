package com.multikey.redrive;

import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.protocols.jsoncore.JsonWriter;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Works through a failure queue: each message is handled by the queue's {@link MessageAction} and deleted
 * only after its work succeeded. A message whose records are gone from the stream is reported with what
 * can still be done and stays, unless the operator asked to drop such messages after the report. A dry run
 * deletes nothing and writes nothing. Messages that stay are made visible again at the end of the run.
 */
public final class Redrive {

    /** What came of one message. */
    public sealed interface Outcome {
        String messageId();

        /** Its work succeeded; the message was deleted. */
        record Redriven(String messageId, String what) implements Outcome {
        }

        /** Dry run: what would be done. */
        record WouldRedrive(String messageId, String what) implements Outcome {
        }

        /** The records it names are no longer in the stream: reported, deleted only when asked. */
        record RangeGone(String messageId, String range, String reason, String advice, boolean dropped) implements Outcome {
        }

        /** Its work failed; the message stays. */
        record Failed(String messageId, String reason) implements Outcome {
        }

        /** Not a message this queue holds; it stays. */
        record Unreadable(String messageId, String reason) implements Outcome {
        }
    }

    /** A run's outcomes and the messages the queue still holds (approximate). */
    public record Report(QueueKind queue, boolean dryRun, List<Outcome> outcomes, int remaining) {
        public Report {
            outcomes = List.copyOf(outcomes);
        }

        /** Whether every message handled was redriven (or would be, in a dry run). */
        public boolean allRedriven() {
            return outcomes.stream().allMatch(o -> o instanceof Outcome.Redriven || o instanceof Outcome.WouldRedrive);
        }

        public String toJson() {
            try (JsonWriter json = JsonWriter.create()) {
                json.writeStartObject();
                json.writeFieldName("queue").writeValue(queue.label());
                json.writeFieldName("dryRun").writeValue(dryRun);
                json.writeFieldName("remaining").writeValue(remaining);
                json.writeFieldName("messages").writeStartArray();
                for (Outcome outcome : outcomes) {
                    json.writeStartObject();
                    json.writeFieldName("messageId").writeValue(outcome.messageId());
                    switch (outcome) {
                        case Outcome.Redriven r -> fields(json, "outcome", "redriven", "what", r.what());
                        case Outcome.WouldRedrive w -> fields(json, "outcome", "would redrive", "what", w.what());
                        case Outcome.RangeGone g -> {
                            fields(json, "outcome", "range gone", "range", g.range(), "reason", g.reason(), "advice", g.advice());
                            json.writeFieldName("dropped").writeValue(g.dropped());
                        }
                        case Outcome.Failed f -> fields(json, "outcome", "failed", "reason", f.reason());
                        case Outcome.Unreadable u -> fields(json, "outcome", "unreadable", "reason", u.reason());
                    }
                    json.writeEndObject();
                }
                json.writeEndArray().writeEndObject();
                return new String(json.getBytes(), StandardCharsets.UTF_8);
            }
        }

        private static void fields(JsonWriter json, String... namesAndValues) {
            for (int i = 0; i < namesAndValues.length; i += 2) {
                json.writeFieldName(namesAndValues[i]).writeValue(String.valueOf(namesAndValues[i + 1]));
            }
        }
    }

    private final QueueKind kind;
    private final FailureQueue queue;
    private final MessageAction action;

    Redrive(QueueKind kind, FailureQueue queue, MessageAction action) {
        this.kind = kind;
        this.queue = queue;
        this.action = action;
    }

    /**
     * @param dryRun write, invoke and delete nothing; say what would be done
     * @param maxMessages the most messages to handle in this run
     * @param dropGone delete messages whose range is gone, after reporting them
     */
    public Report run(boolean dryRun, int maxMessages, boolean dropGone) {
        if (maxMessages < 1) {
            throw new IllegalArgumentException("maxMessages must be at least 1, got " + maxMessages);
        }
        List<Outcome> outcomes = new ArrayList<>();
        List<FailureQueue.Message> kept = new ArrayList<>();
        try {
            while (outcomes.size() < maxMessages) {
                List<FailureQueue.Message> received = queue.receive(maxMessages - outcomes.size());
                if (received.isEmpty()) {
                    break;
                }
                for (FailureQueue.Message message : received) {
                    Outcome outcome = handle(message, dryRun, dropGone);
                    boolean delete = outcome instanceof Outcome.Redriven || outcome instanceof Outcome.RangeGone gone && gone.dropped();
                    if (delete) {
                        outcome = delete(message, outcome);
                    } else {
                        kept.add(message);
                    }
                    outcomes.add(outcome);
                }
            }
        } finally {
            kept.forEach(this::release);
        }
        return new Report(kind, dryRun, outcomes, queue.approximateCount());
    }

    /**
     * Deletes a message whose work is done. SQS refuses a receipt handle that is no longer the latest (its
     * visibility timeout ran out and another reader received it): that reader has it now; reported, and the
     * run goes on.
     */
    private Outcome delete(FailureQueue.Message message, Outcome done) {
        try {
            queue.delete(message);
            return done;
        } catch (SdkException e) {
            String what = done instanceof Outcome.Redriven redriven ? redriven.what() : "range gone, dropped";
            return new Outcome.Failed(message.messageId(), "work done (" + what + "), but the message was not deleted: "
                    + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    /**
     * Makes a kept message visible again; when that is refused (its visibility timeout ran out, or another
     * reader holds it), it becomes visible when its timeout ends, and the other kept messages are still released.
     */
    private void release(FailureQueue.Message message) {
        try {
            queue.release(message);
        } catch (SdkException e) {
            // the message stays in the queue either way
        }
    }

    private Outcome handle(FailureQueue.Message message, boolean dryRun, boolean dropGone) {
        MessageAction.Result result;
        try {
            result = action.handle(message.body(), dryRun);
        } catch (IllegalArgumentException e) {
            return new Outcome.Unreadable(message.messageId(), e.getMessage());
        } catch (SdkException | FunctionInvoker.FunctionFailedException | IllegalStateException e) {
            return new Outcome.Failed(message.messageId(), e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        return switch (result) {
            case MessageAction.Result.Done done -> dryRun ? new Outcome.WouldRedrive(message.messageId(), done.what())
                    : new Outcome.Redriven(message.messageId(), done.what());
            case MessageAction.Result.Gone gone -> new Outcome.RangeGone(message.messageId(), gone.range(), gone.reason(), gone.advice(),
                    dropGone && !dryRun);
            case MessageAction.Result.Failed failed -> new Outcome.Failed(message.messageId(), failed.reason());
        };
    }
}
