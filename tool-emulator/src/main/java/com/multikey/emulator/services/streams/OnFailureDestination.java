package com.multikey.emulator.services.streams;

import software.amazon.awssdk.services.dynamodb.model.Record;

import java.util.List;

/** Where an emulated event source mapping sends a batch it gave up on ({@code DestinationConfig.OnFailure}). */
@FunctionalInterface
interface OnFailureDestination {

    /**
     * @param batch the records given up on, in stream order
     * @param invokeCount how many times the batch was delivered
     */
    void send(List<Record> batch, int invokeCount);

    OnFailureDestination NONE = (batch, invokeCount) -> {
    };
}
