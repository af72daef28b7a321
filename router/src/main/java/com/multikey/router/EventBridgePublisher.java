package com.multikey.router;

import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResponse;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResultEntry;

import java.util.ArrayList;
import java.util.List;

/**
 * PutEvents through the EventBridge API. The client's retry strategy (set in {@code ClientFactory}) retries a
 * throttled or failed call as a whole; what comes back failed per entry is the caller's to re-send.
 */
public final class EventBridgePublisher implements EventPublisher {

    private final EventBridgeClient eventBridge;

    public EventBridgePublisher(EventBridgeClient eventBridge) {
        this.eventBridge = eventBridge;
    }

    @Override
    public List<EntryResult> publish(List<PutEventsRequestEntry> entries, AwsRequestOverrideConfiguration override) {
        PutEventsResponse response = eventBridge.putEvents(b -> b.entries(entries).overrideConfiguration(override));
        List<EntryResult> results = new ArrayList<>(entries.size());
        List<PutEventsResultEntry> resultEntries = response.entries();
        for (int i = 0; i < entries.size(); i++) {
            PutEventsResultEntry result = i < resultEntries.size() ? resultEntries.get(i) : null;
            if (result == null) {
                results.add(new EntryResult.Failed("MissingResultEntry"));
            } else if (result.errorCode() != null) {
                results.add(new EntryResult.Failed(result.errorCode()));
            } else {
                results.add(EntryResult.ACCEPTED);
            }
        }
        return results;
    }
}
