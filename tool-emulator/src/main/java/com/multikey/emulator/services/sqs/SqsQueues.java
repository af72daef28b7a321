package com.multikey.emulator.services.sqs;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The queues behind {@link LocalSqs}, as SQS keeps them: messages in order, hidden for a visibility timeout when
 * received, deleted by their latest receipt handle. Each operation checks its parameters against the limits of
 * the SQS API reference in the order SQS does and refuses with its error code ({@link Refused}); the endpoint
 * only turns requests and answers into JSON.
 */
final class SqsQueues {

    /** SendMessage: the queue's {@code MaximumMessageSize} default (CreateQueue, SQS API reference); 1 MiB at most. */
    static final int MAX_MESSAGE_BYTES = 262_144;
    /** ReceiveMessage {@code MaxNumberOfMessages}: 1 to 10 (SQS API reference). */
    static final int MAX_RECEIVE = 10;
    /** ReceiveMessage / ChangeMessageVisibility {@code VisibilityTimeout}: 0 to 43,200 s, 12 hours (SQS API reference). */
    static final int MAX_VISIBILITY_SECONDS = 43_200;
    /** ReceiveMessage {@code WaitTimeSeconds}: 0 to 20 (SQS API reference). */
    static final int MAX_WAIT_SECONDS = 20;
    /** The queue's {@code VisibilityTimeout} default: 30 s (CreateQueue, SQS API reference). */
    static final int DEFAULT_VISIBILITY_SECONDS = 30;
    /** A queue name: 1 to 80 alphanumerics, hyphens and underscores (CreateQueue, SQS API reference). */
    private static final String QUEUE_NAME = "[A-Za-z0-9_-]{1,80}";

    private final Clock clock;
    private final Map<String, List<Message>> queues = new LinkedHashMap<>();

    SqsQueues(Clock clock) {
        this.clock = clock;
    }

    /** An operation SQS refuses: its error code and message. */
    static final class Refused extends Exception {
        final String code;

        Refused(String code, String message) {
            super(message);
            this.code = code;
        }
    }

    /** A message as ReceiveMessage answers it. */
    record Received(String messageId, String receiptHandle, String body, int receiveCount) {
    }

    /** GetQueueAttributes {@code ApproximateNumberOfMessages} and {@code ...NotVisible}. */
    record Counts(long visible, long notVisible) {
    }

    private static final class Message {
        final String id = UUID.randomUUID().toString();
        final String body;
        Instant visibleAt = Instant.EPOCH;
        String receiptHandle;
        /** Handles of earlier receives: DeleteMessage accepts them and deletes nothing. */
        final Set<String> earlierHandles = new HashSet<>();
        int receiveCount;

        Message(String body) {
            this.body = body;
        }
    }

    /** Creates a queue (idempotent). */
    synchronized void create(String name) {
        if (!name.matches(QUEUE_NAME)) {
            throw new IllegalArgumentException("not a valid queue name: " + name);
        }
        queues.putIfAbsent(name, new ArrayList<>());
    }

    /** Sends as SendMessage does, from inside the runtime (an on-failure destination). */
    synchronized void send(String name, String body) {
        List<Message> queue = queues.get(name);
        if (queue == null) {
            throw new IllegalArgumentException("no queue " + name);
        }
        String refusal = refusal(body);
        if (refusal != null) {
            throw new IllegalArgumentException(refusal);
        }
        queue.add(new Message(body));
    }

    /** The bodies of every message in the queue, visible or in flight. */
    synchronized List<String> bodies(String name) {
        return queues.getOrDefault(name, List.of()).stream().map(m -> m.body).toList();
    }

    /** SendMessage; {@code body} null when the request has none. @return the message id */
    synchronized String sendMessage(String name, String body) throws Refused {
        List<Message> queue = queue(name);
        if (body == null) {
            throw new Refused("MissingParameter", "The request must contain the parameter MessageBody.");
        }
        String refusal = refusal(body);
        if (refusal != null) {
            throw new Refused(refusal.startsWith("Invalid characters") ? "InvalidMessageContents" : "InvalidParameterValue", refusal);
        }
        Message message = new Message(body);
        queue.add(message);
        return message.id;
    }

    /** ReceiveMessage; {@code visibility} null when the request has none (the queue's default applies). */
    synchronized List<Received> receive(String name, int max, int wait, Integer visibility) throws Refused {
        List<Message> queue = queue(name);
        if (max < 1 || max > MAX_RECEIVE) {
            throw new Refused("InvalidParameterValue", "Value " + max + " for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10, if provided.");
        }
        if (wait < 0 || wait > MAX_WAIT_SECONDS) {
            throw new Refused("InvalidParameterValue", "Value " + wait + " for parameter WaitTimeSeconds is invalid. Reason: Must be >= 0 and <= 20, if provided.");
        }
        int seconds = visibility == null ? DEFAULT_VISIBILITY_SECONDS : visibility(visibility);
        // messages are only ever added by calls answered before this one: waiting would find nothing new
        Instant now = clock.instant();
        List<Received> received = new ArrayList<>();
        for (Message message : queue) {
            if (received.size() >= max) {
                break;
            }
            if (!message.visibleAt.isAfter(now)) {
                message.visibleAt = now.plusSeconds(seconds);
                if (message.receiptHandle != null) {
                    message.earlierHandles.add(message.receiptHandle);
                }
                message.receiptHandle = UUID.randomUUID() + "#" + message.id;
                message.receiveCount++;
                received.add(new Received(message.id, message.receiptHandle, message.body, message.receiveCount));
            }
        }
        return received;
    }

    /**
     * DeleteMessage (SQS API reference): a handle that is no longer the latest (the message was received again
     * since) is accepted, "but the message might not be deleted": here it is not.
     */
    synchronized void delete(String name, String handle) throws Refused {
        List<Message> queue = queue(name);
        if (queue.stream().anyMatch(m -> m.earlierHandles.contains(handle))) {
            return;
        }
        Message message = byReceiptHandle(queue, handle);
        queue.remove(message);
    }

    /** ChangeMessageVisibility; {@code visibility} null when the request has none. */
    synchronized void changeVisibility(String name, String handle, Integer visibility) throws Refused {
        List<Message> queue = queue(name);
        Message message = byReceiptHandle(queue, handle);
        if (!message.visibleAt.isAfter(clock.instant())) {
            throw new Refused("MessageNotInflight", "The message is not in flight.");
        }
        if (visibility == null) {
            throw new Refused("MissingParameter", "The request must contain the parameter VisibilityTimeout.");
        }
        message.visibleAt = clock.instant().plusSeconds(visibility(visibility));
    }

    /** GetQueueUrl's check: the queue exists. */
    synchronized void requireQueue(String name) throws Refused {
        queue(name);
    }

    synchronized Counts counts(String name) throws Refused {
        List<Message> queue = queue(name);
        Instant now = clock.instant();
        long visible = queue.stream().filter(m -> !m.visibleAt.isAfter(now)).count();
        return new Counts(visible, queue.size() - visible);
    }

    private List<Message> queue(String name) throws Refused {
        List<Message> queue = queues.get(name);
        if (queue == null) {
            throw new Refused("QueueDoesNotExist", "The specified queue does not exist.");
        }
        return queue;
    }

    private static Message byReceiptHandle(List<Message> queue, String handle) throws Refused {
        for (Message message : queue) {
            if (handle.equals(message.receiptHandle)) {
                return message;
            }
        }
        throw new Refused("ReceiptHandleIsInvalid", "The input receipt handle \"" + handle + "\" is not a valid receipt handle.");
    }

    private static int visibility(int seconds) throws Refused {
        if (seconds < 0 || seconds > MAX_VISIBILITY_SECONDS) {
            throw new Refused("InvalidParameterValue", "Value " + seconds + " for parameter VisibilityTimeout is invalid. Reason: Must be between 0 and 43200.");
        }
        return seconds;
    }

    /** Why SendMessage refuses a body, or null. */
    private static String refusal(String body) {
        if (body.isEmpty()) {
            return "The message body must be at least one character.";
        }
        int bytes = body.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_MESSAGE_BYTES) {
            return "One or more parameters are invalid. Reason: Message must be shorter than " + MAX_MESSAGE_BYTES + " bytes.";
        }
        boolean allowed = body.codePoints().allMatch(c -> c == 0x9 || c == 0xA || c == 0xD || c >= 0x20 && c <= 0xD7FF
                || c >= 0xE000 && c <= 0xFFFD || c >= 0x10000 && c <= 0x10FFFF);
        return allowed ? null : "Invalid characters found in the message body (allowed: #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF).";
    }
}
