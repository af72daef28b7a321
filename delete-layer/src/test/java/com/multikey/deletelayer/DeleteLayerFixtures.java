package com.multikey.deletelayer;

import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.emulator.services.streams.LambdaEvents;
import com.multikey.emulator.template.SamTemplate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Consumer;

/** What delete-layer's tests share: the sample "Layer Expired" event. */
final class DeleteLayerFixtures {

    static final String ID = "layer#us-east-1#requests#12";
    static final String ARN = "arn:aws:lambda:us-east-1:123456789012:layer:multikey-requests:12";
    private static final ObjectMapper JSON = new ObjectMapper();

    private DeleteLayerFixtures() {
    }

    /**
     * The sample "Layer Expired" event (what the router sends for sam/events/layer-ttl-expiry.json), changed
     * by {@code edit}, read as the Lambda runtime reads it.
     */
    static ScheduledEvent layerExpired(Consumer<ObjectNode> edit) {
        try {
            ObjectNode event = (ObjectNode) JSON.readTree(SamTemplate.findUp("sam").resolve("events/layer-expired-event.json").toFile());
            edit.accept(event);
            return LambdaEvents.read(event.toString(), ScheduledEvent.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ScheduledEvent layerExpired() {
        return layerExpired(event -> { });
    }
}
