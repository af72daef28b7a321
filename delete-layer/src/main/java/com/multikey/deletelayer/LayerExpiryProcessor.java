package com.multikey.deletelayer;

import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.common.PlainJson;
import com.multikey.common.StructuredLog;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Acts on a "Layer Expired" event: deletes the layer version the expired record names and writes a
 * tombstone (the old record without its TTL, with {@code deletedAt}). Refuses, without deleting anything,
 * an event that is not a TTL expiry of a layer record from the app's source, and an ARN that is malformed
 * or outside the configured account and layer-name prefix. Failures that can succeed later propagate, so
 * EventBridge retries the event; both steps are idempotent.
 */
public final class LayerExpiryProcessor {

    static final String DETAIL_TYPE = "Layer Expired";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final DeleteLayerConfig config;
    private final LayerDeleter deleter;
    private final TombstoneWriter tombstones;
    private final Clock clock;
    private final StructuredLog log;

    public LayerExpiryProcessor(DeleteLayerConfig config, LayerDeleter deleter, TombstoneWriter tombstones, Clock clock,
                                StructuredLog log) {
        this.config = config;
        this.deleter = deleter;
        this.tombstones = tombstones;
        this.clock = clock;
        this.log = log;
    }

    public ExpiryOutcome process(ScheduledEvent event) {
        ExpiryOutcome outcome = decideAndAct(event);
        switch (outcome) {
            case ExpiryOutcome.Deleted deleted -> log.info("layer version deleted", Map.of(
                    "eventId", String.valueOf(event.getId()), "layerVersionArn", deleted.arn().toString(),
                    "tombstone", deleted.tombstone().name()));
            case ExpiryOutcome.Refused refused -> log.warn("event refused; nothing deleted", Map.of(
                    "eventId", String.valueOf(event == null ? null : event.getId()), "reason", refused.reason()));
        }
        return outcome;
    }

    private ExpiryOutcome decideAndAct(ScheduledEvent event) {
        if (event == null || event.getDetail() == null) {
            return new ExpiryOutcome.Refused("event has no detail");
        }
        if (!config.eventSource().equals(event.getSource())) {
            return new ExpiryOutcome.Refused("event source is not " + config.eventSource());
        }
        if (!DETAIL_TYPE.equals(event.getDetailType())) {
            return new ExpiryOutcome.Refused("detail type is not '" + DETAIL_TYPE + "'");
        }
        JsonNode detail = JSON.valueToTree(event.getDetail());
        if (!"Expired".equals(detail.path("change").asText()) || !"REMOVE".equals(detail.path("eventName").asText())) {
            return new ExpiryOutcome.Refused("not a TTL expiry (change must be Expired, eventName REMOVE)");
        }
        if (!"layer".equals(detail.path("entityType").asText())) {
            return new ExpiryOutcome.Refused("not a layer record");
        }
        JsonNode oldImage = detail.path("oldImage");
        if (!oldImage.isObject()) {
            return new ExpiryOutcome.Refused(detail.path("imagesDropped").asBoolean()
                    ? "the event carries no old image (dropped for size); the ARN is unknown"
                    : "the event carries no old image; the ARN is unknown");
        }
        LayerVersionArn arn;
        try {
            arn = LayerVersionArn.parse(oldImage.path(config.arnAttribute()).isTextual()
                    ? oldImage.path(config.arnAttribute()).asText() : null);
        } catch (IllegalArgumentException e) {
            return new ExpiryOutcome.Refused(e.getMessage());
        }
        if (!arn.accountId().equals(config.allowedAccountId())) {
            return new ExpiryOutcome.Refused("layer belongs to another account than " + config.allowedAccountId());
        }
        if (!arn.layerName().startsWith(config.layerNamePrefix())) {
            return new ExpiryOutcome.Refused("layer name does not start with '" + config.layerNamePrefix() + "'");
        }

        deleter.delete(arn);
        return new ExpiryOutcome.Deleted(arn, tombstones.write(tombstone(oldImage, detail.path("keys"))));
    }

    private Map<String, AttributeValue> tombstone(JsonNode oldImage, JsonNode keys) {
        Map<String, AttributeValue> item = new LinkedHashMap<>(PlainJson.toItem(oldImage));
        if (keys.isObject()) {
            item.putAll(PlainJson.toItem(keys));
        }
        item.remove(config.ttlAttribute());
        config.dropAttributes().forEach(item::remove);
        item.put("deletedAt", AttributeValue.fromS(clock.instant().toString()));
        return item;
    }
}
