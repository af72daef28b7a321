package com.multikey.router;

import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;

import java.util.List;
import java.util.Optional;

/** Sends one PutEvents call. */
public interface EventPublisher {

    /**
     * @param entries  at most 10, within the request size limit
     * @param override the call's request override, carrying its {@code apiCallTimeout} (the SDK's retries included)
     * @return per entry, in order: empty when accepted, else the error code
     * @throws software.amazon.awssdk.core.exception.SdkException when the call itself fails
     */
    List<Optional<String>> publish(List<PutEventsRequestEntry> entries, AwsRequestOverrideConfiguration override);
}
