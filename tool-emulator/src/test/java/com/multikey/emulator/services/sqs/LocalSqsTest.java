package com.multikey.emulator.services.sqs;

import com.multikey.common.ClientFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;
import software.amazon.awssdk.services.sqs.model.ReceiptHandleIsInvalidException;
import software.amazon.awssdk.services.sqs.model.SqsException;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LocalSqsTest {

    private final MutableClock clock = new MutableClock();
    private final LocalSqs sqs = LocalSqs.start("127.0.0.1", 0, clock);
    private final SqsClient client = new ClientFactory(Map.of("AWS_REGION", "us-east-1", "AWS_ACCESS_KEY_ID", "local",
            "AWS_SECRET_ACCESS_KEY", "local", "AWS_ENDPOINT_URL_SQS", sqs.endpoint().toString()))
            .configure(SqsClient.builder(), "SQS").httpClient(ClientFactory.httpClient()).build();

    @AfterEach
    void close() {
        client.close();
        sqs.close();
    }

    @Test
    void sdkClient_sendReceiveDelete_emptiesTheQueue() {
        // given
        sqs.createQueue("Failures");
        String url = client.getQueueUrl(b -> b.queueName("Failures")).queueUrl();
        client.sendMessage(b -> b.queueUrl(url).messageBody("{\"a\":1}"));
        client.sendMessage(b -> b.queueUrl(url).messageBody("{\"a\":2}"));

        // when
        List<Message> received = client.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).visibilityTimeout(60)).messages();

        // then
        assertThat(received).extracting(Message::body).containsExactly("{\"a\":1}", "{\"a\":2}");
        assertThat(visible(url)).isZero();
        received.forEach(m -> client.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle())));
        assertThat(sqs.bodies("Failures")).isEmpty();
    }

    @Test
    void receiveMessage_whenTheVisibilityTimeoutPasses_deliversTheMessageAgainWithANewReceiptHandle() {
        // given
        String url = sqs.createQueue("Failures");
        client.sendMessage(b -> b.queueUrl(url).messageBody("m"));
        Message first = client.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(30)).messages().get(0);
        assertThat(client.receiveMessage(b -> b.queueUrl(url)).messages()).isEmpty();

        // when
        clock.advance(Duration.ofSeconds(31));
        Message second = client.receiveMessage(b -> b.queueUrl(url)).messages().get(0);

        // then
        assertThat(second.body()).isEqualTo("m");
        assertThat(second.receiptHandle()).isNotEqualTo(first.receiptHandle());
    }

    @Test
    void deleteMessage_withAReceiptHandleThatIsNoLongerTheLatest_succeedsButDeletesNothing() {
        // DeleteMessage (SQS API reference): "If you use an old ReceiptHandle, the request will succeed, but the
        // message might not be deleted."
        String url = sqs.createQueue("Failures");
        client.sendMessage(b -> b.queueUrl(url).messageBody("m"));
        Message first = client.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(30)).messages().get(0);
        clock.advance(Duration.ofSeconds(31));
        Message second = client.receiveMessage(b -> b.queueUrl(url)).messages().get(0);

        client.deleteMessage(b -> b.queueUrl(url).receiptHandle(first.receiptHandle()));
        assertThat(sqs.bodies("Failures")).containsExactly("m");

        client.deleteMessage(b -> b.queueUrl(url).receiptHandle(second.receiptHandle()));
        assertThat(sqs.bodies("Failures")).isEmpty();
        assertThatThrownBy(() -> client.deleteMessage(b -> b.queueUrl(url).receiptHandle("not-a-handle")))
                .isInstanceOf(ReceiptHandleIsInvalidException.class);
    }

    @Test
    void receiveMessage_outsideTheDocumentedLimits_isRefusedWithInvalidParameterValue() {
        String url = sqs.createQueue("Failures");

        assertThatThrownBy(() -> client.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(11)))
                .isInstanceOfSatisfying(SqsException.class, e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidParameterValue"));
        assertThatThrownBy(() -> client.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(0)))
                .isInstanceOf(SqsException.class);
        assertThatThrownBy(() -> client.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(SqsQueues.MAX_VISIBILITY_SECONDS + 1)))
                .isInstanceOf(SqsException.class);
        assertThatThrownBy(() -> client.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(SqsQueues.MAX_WAIT_SECONDS + 1)))
                .isInstanceOf(SqsException.class);
    }

    @Test
    void sendMessage_overTheSizeLimitOrWithForbiddenCharacters_isRefused() {
        String url = sqs.createQueue("Failures");

        assertThatThrownBy(() -> client.sendMessage(b -> b.queueUrl(url).messageBody("x".repeat(SqsQueues.MAX_MESSAGE_BYTES + 1))))
                .isInstanceOfSatisfying(SqsException.class, e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidParameterValue"));
        assertThatThrownBy(() -> client.sendMessage(b -> b.queueUrl(url).messageBody("a\u0001b")))
                .isInstanceOfSatisfying(SqsException.class, e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidMessageContents"));
        client.sendMessage(b -> b.queueUrl(url).messageBody("x".repeat(SqsQueues.MAX_MESSAGE_BYTES)));
        assertThat(visible(url)).isEqualTo(1);
    }

    @Test
    void unknownQueue_isQueueDoesNotExist() {
        assertThatThrownBy(() -> client.getQueueUrl(b -> b.queueName("Nope"))).isInstanceOf(QueueDoesNotExistException.class);
        assertThatThrownBy(() -> client.sendMessage(b -> b.queueUrl(sqs.url("Nope")).messageBody("m")))
                .isInstanceOf(QueueDoesNotExistException.class);
    }

    private int visible(String url) {
        return Integer.parseInt(client.getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
                .attributes().get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES));
    }

    private static final class MutableClock extends Clock {
        private Instant now = Instant.parse("2026-01-01T00:00:00Z");

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
