package com.multikey.redrive;

import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

import java.util.List;

/** {@link FailureQueue} over SQS. */
public final class SqsFailureQueue implements FailureQueue {

    /** ReceiveMessage {@code MaxNumberOfMessages}: 1 to 10 (SQS API reference, ReceiveMessage). */
    public static final int MAX_MESSAGES_PER_RECEIVE = 10;
    /**
     * How long a received message stays hidden while redrive works on it: longer than reading a range and
     * repairing its items takes, within ReceiveMessage's 0 to 43,200 s (SQS API reference).
     */
    static final int VISIBILITY_TIMEOUT_SECONDS = 900;
    /**
     * ReceiveMessage {@code WaitTimeSeconds}: 0 to 20 (SQS API reference). Above 0 SQS polls all its servers,
     * so a queue that holds messages never answers empty (short polling samples a subset).
     */
    static final int WAIT_TIME_SECONDS = 1;

    private final SqsClient sqs;
    private final String queueUrl;

    /** @param queue the queue's URL, or its name (looked up with GetQueueUrl) */
    public SqsFailureQueue(SqsClient sqs, String queue) {
        this.sqs = sqs;
        this.queueUrl = queue.startsWith("http://") || queue.startsWith("https://") ? queue
                : sqs.getQueueUrl(b -> b.queueName(queue)).queueUrl();
    }

    public String url() {
        return queueUrl;
    }

    @Override
    public List<Message> receive(int max) {
        int count = Math.max(1, Math.min(MAX_MESSAGES_PER_RECEIVE, max));
        return sqs.receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(count)
                .visibilityTimeout(VISIBILITY_TIMEOUT_SECONDS).waitTimeSeconds(WAIT_TIME_SECONDS))
                .messages().stream().map(m -> new Message(m.messageId(), m.body(), m.receiptHandle())).toList();
    }

    @Override
    public void delete(Message message) {
        sqs.deleteMessage(b -> b.queueUrl(queueUrl).receiptHandle(message.receiptHandle()));
    }

    @Override
    public void release(Message message) {
        sqs.changeMessageVisibility(b -> b.queueUrl(queueUrl).receiptHandle(message.receiptHandle()).visibilityTimeout(0));
    }

    @Override
    public int approximateCount() {
        return Integer.parseInt(sqs.getQueueAttributes(b -> b.queueUrl(queueUrl).attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
                .attributes().get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES));
    }
}
