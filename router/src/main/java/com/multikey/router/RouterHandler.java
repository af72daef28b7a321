package com.multikey.router;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.multikey.common.Backoff;
import com.multikey.common.BoundedCalls;
import com.multikey.common.ClientFactory;
import com.multikey.common.Deadline;
import com.multikey.common.EmfMetrics;
import com.multikey.common.RetryBudget;
import com.multikey.common.Sleeper;
import com.multikey.common.StructuredLog;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;

import java.time.Duration;
import java.util.Map;

/** Lambda entry point: app table stream records in, typed events on the bus, partial batch response back. */
public final class RouterHandler implements RequestHandler<DynamodbEvent, StreamsEventResponse> {

    static final Duration RESPONSE_RESERVE = Duration.ofSeconds(2);

    /** SnapStart runtime hook: primes the function before Lambda snapshots it (held here: CRaC may keep it weakly). */
    static final RouterPriming PRIMING = RouterPriming.register(System.getenv());

    /** PutEvents calls of one round in flight at once (1 to 16; default {@link BoundedCalls#DEFAULT_IN_FLIGHT}). */
    static final String PUT_EVENTS_CONCURRENCY = "PUT_EVENTS_CONCURRENCY";

    private final Router router;

    public RouterHandler() {
        this(System.getenv());
    }

    /** Configured from the given environment instead of the process's (local runners). */
    public RouterHandler(Map<String, String> environment) {
        this(fromEnvironment(environment));
    }

    RouterHandler(Router router) {
        this.router = router;
    }

    @Override
    public StreamsEventResponse handleRequest(DynamodbEvent event, Context context) {
        return router.process(event.getRecords(), Deadline.forInvocation(context.getRemainingTimeInMillis(), RESPONSE_RESERVE));
    }

    /** The router as the function wires it from its environment (also the one-reader stream consumer's route job). */
    public static Router fromEnvironment(Map<String, String> env) {
        return fromEnvironment(env, StructuredLog.forClass(Router.class),
                EmfMetrics.toStandardOutput(env.getOrDefault("METRICS_NAMESPACE", "Multikey"), RouterMetrics.SERVICE));
    }

    /** The real wiring with the log and metric lines going where the caller says (tests read them). */
    static Router fromEnvironment(Map<String, String> env, StructuredLog log, EmfMetrics emf) {
        RouterConfig config = RouterConfig.fromEnvironment(env);
        ClientFactory clients = new ClientFactory(env);
        // configure() applies ClientFactory.overrides(): the SDK's standard retry strategy owns retrying whole calls
        EventBridgeClient eventBridge = clients.configure(EventBridgeClient.builder(), "EVENTBRIDGE")
                .httpClient(ClientFactory.httpClient()).build();
        OrderedEventSender sender = new OrderedEventSender(new EventBridgePublisher(eventBridge), config.eventBusName(),
                config.maxEntryBytes(), Backoff.standard(), Sleeper.SYSTEM, RetryBudget.DEFAULT_MAX_FAILED_ATTEMPTS,
                BoundedCalls.fromEnvironment(env, PUT_EVENTS_CONCURRENCY, BoundedCalls.DEFAULT_IN_FLIGHT));
        return new Router(new ChangeEventFactory(config), sender, RouterMetrics.emf(emf), log);
    }
}
