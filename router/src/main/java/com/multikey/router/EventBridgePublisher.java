package com.multikey.router;

import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResponse;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResultEntry;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** PutEvents through the EventBridge API. */
public final class EventBridgePublisher implements EventPublisher {

    private final EventBridgeClient eventBridge;

    public EventBridgePublisher(EventBridgeClient eventBridge) {
        this.eventBridge = eventBridge;
    }

    @Override
    public List<Optional<String>> publish(List<PutEventsRequestEntry> entries) {
        PutEventsResponse response = eventBridge.putEvents(b -> b.entries(entries));
        List<Optional<String>> results = new ArrayList<>(entries.size());
        List<PutEventsResultEntry> resultEntries = response.entries();
        for (int i = 0; i < entries.size(); i++) {
            PutEventsResultEntry result = i < resultEntries.size() ? resultEntries.get(i) : null;
            if (result == null) {
                results.add(Optional.of("MissingResultEntry"));
            } else if (result.errorCode() != null) {
                results.add(Optional.of(result.errorCode()));
            } else {
                results.add(Optional.empty());
            }
        }
        return results;
    }
}
