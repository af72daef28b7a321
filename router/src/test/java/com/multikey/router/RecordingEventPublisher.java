package com.multikey.router;

import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * An in-memory PutEvents: answers each call as its {@link #behaviour} says (all accepted unless a test says
 * otherwise), and records every call, its override and, in order, the details of the entries it accepted.
 */
final class RecordingEventPublisher implements EventPublisher {

    /** Answers a call: per entry an error code or empty, or throws for the whole call. */
    @FunctionalInterface
    interface Behaviour {
        List<Optional<String>> answer(int call, List<PutEventsRequestEntry> entries);
    }

    final List<String> accepted = new ArrayList<>();
    final List<List<PutEventsRequestEntry>> calls = new ArrayList<>();
    final List<AwsRequestOverrideConfiguration> overrides = new ArrayList<>();
    Behaviour behaviour = (call, entries) -> entries.stream().map(e -> Optional.<String>empty()).toList();

    @Override
    public List<EntryResult> publish(List<PutEventsRequestEntry> entries, AwsRequestOverrideConfiguration override) {
        calls.add(entries);
        overrides.add(override);
        // a test says per entry: empty to accept it, or the error code to refuse it with
        List<Optional<String>> answers = behaviour.answer(calls.size() - 1, entries);
        List<EntryResult> results = new java.util.ArrayList<>();
        for (int i = 0; i < answers.size(); i++) {
            if (answers.get(i).isEmpty()) {
                accepted.add(entries.get(i).detail());
                results.add(EntryResult.ACCEPTED);
            } else {
                results.add(new EntryResult.Failed(answers.get(i).get()));
            }
        }
        return results;
    }
}
