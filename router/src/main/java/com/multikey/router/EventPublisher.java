package com.multikey.router;

import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;

import java.util.List;

/** Sends one PutEvents call. */
public interface EventPublisher {

    /**
     * @param entries  at most 10, within the request size limit
     * @param override the call's request override, carrying its {@code apiCallTimeout} (the SDK's retries included)
     * @return per entry, in order, what EventBridge answered
     * @throws software.amazon.awssdk.core.exception.SdkException when the call itself fails
     */
    List<EntryResult> publish(List<PutEventsRequestEntry> entries, AwsRequestOverrideConfiguration override);

    /** What EventBridge answered for one entry. */
    sealed interface EntryResult {

        /** The entry was accepted. */
        record Accepted() implements EntryResult {
        }

        /** The entry was refused with this error code. */
        record Failed(String errorCode) implements EntryResult {
            public Failed {
                java.util.Objects.requireNonNull(errorCode, "errorCode");
            }
        }

        EntryResult ACCEPTED = new Accepted();
    }
}
