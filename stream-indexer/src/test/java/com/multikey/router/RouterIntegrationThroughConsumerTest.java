package com.multikey.router;

import com.multikey.common.Deadline;

import java.util.Map;

/**
 * The router's contract against a local PutEvents endpoint ({@link RouterIntegrationTest}: calls of at most ten entries
 * and within the size limit, partial failures retried, throttling, refusals) on the one-reader path: the batch routed
 * by the consumer's route job, built from the same environment as the consumer's handler builds it.
 */
class RouterIntegrationThroughConsumerTest extends RouterIntegrationTest {

    @Override
    Handler handler(Map<String, String> env) {
        Router router = RouterHandler.fromEnvironment(env);
        return (event, context) -> {
            try (var consumer = RouterThroughConsumerTest.consumer(router)) {
                return consumer.process(event.getRecords(), Deadline.forInvocation(context.getRemainingTimeInMillis(),
                        RouterHandler.RESPONSE_RESERVE));
            }
        };
    }
}
