package com.multikey.redrive;

import java.util.List;

/** A failure queue as redrive uses it: receive, delete after success, hand back what stays. */
public interface FailureQueue {

    /** A received message: its id, its body and what deleting it takes. */
    record Message(String messageId, String body, String receiptHandle) {
    }

    /** Up to {@code max} messages (at most 10 a call, as SQS allows), hidden from other readers while redrive works on them. */
    List<Message> receive(int max);

    void delete(Message message);

    /** Makes a message that stays visible again at once, for the next run or reader. */
    void release(Message message);

    /** Messages visible in the queue (approximate). */
    int approximateCount();
}
