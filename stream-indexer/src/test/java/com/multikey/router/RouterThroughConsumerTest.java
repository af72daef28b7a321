package com.multikey.router;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.multikey.common.Deadline;
import com.multikey.common.StructuredLog;
import com.multikey.indexer.InMemoryJobCheckpoints;
import com.multikey.indexer.StreamConsumer;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Clock;
import java.util.List;

/**
 * The router's contract ({@link RouterTest}) on the one-reader path: each batch routed by the consumer's route job
 * ({@link StreamConsumer}, its index job finding nothing to do), with the same events, logs, counts and batch item
 * failures as the router's own processing.
 */
class RouterThroughConsumerTest extends RouterTest {

    @Override
    StreamsEventResponse process(Router router, List<DynamodbStreamRecord> records, Deadline deadline) {
        try (StreamConsumer consumer = consumer(router)) {
            return consumer.process(records, deadline);
        }
    }

    /** The consumer of the one-reader mode with this router as its route job and an index job that indexes nothing. */
    static StreamConsumer consumer(Router router) {
        return new StreamConsumer((records, deadline) -> new StreamsEventResponse(List.of()), router::process, new InMemoryJobCheckpoints(),
                new StructuredLog("consumer", new PrintStream(OutputStream.nullOutputStream()), Clock.systemUTC()));
    }
}
