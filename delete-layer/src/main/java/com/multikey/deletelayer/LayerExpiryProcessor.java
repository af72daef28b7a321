package com.multikey.deletelayer;

import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.common.PlainJson;
import com.multikey.common.StructuredLog;
import com.multikey.index.definition.AttributePath;
import com.multikey.index.definition.Condition;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.KeySchema;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.time.Clock;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Acts on a "Layer Expired" event: deletes the layer version the expired record names and writes a
 * tombstone under the record's full key (the old record without its TTL, with {@code deletedAt}, and in no
 * sparse index). Refuses, without deleting anything, an event that is not a TTL expiry of a layer record from
 * the app's source, an ARN that is malformed or outside the configured account and layer-name prefix, and keys
 * that are not the table's. Failures that can succeed later propagate, so
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
        // the type as the definitions name it: layer by the default file's id prefix, Layer in the single-table example
        if (!"layer".equalsIgnoreCase(detail.path("entityType").asText())) {
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

        Optional<Map<String, AttributeValue>> key = itemKey(detail.path("keys"), oldImage);
        if (key.isEmpty()) {
            return new ExpiryOutcome.Refused("the event names no item of the table: its keys lack " + keyDescription());
        }

        deleter.delete(arn);
        return new ExpiryOutcome.Deleted(arn, tombstones.write(tombstone(oldImage, key.get())));
    }

    /**
     * The expired record's full key, as the table's key schema types it: each key attribute from the event's keys (the
     * old image's when the keys lack it), a number also from the string of digits an integer outside int64 is sent as,
     * a binary from its base64; empty when one is missing or of another type.
     */
    private Optional<Map<String, AttributeValue>> itemKey(JsonNode keys, JsonNode oldImage) {
        Map<String, AttributeValue> key = new LinkedHashMap<>();
        for (KeySchema.KeyAttribute attribute : config.table().attributes()) {
            JsonNode node = keys.has(attribute.name()) ? keys.get(attribute.name()) : oldImage.path(attribute.name());
            Optional<AttributeValue> value = keyValue(attribute.type(), node);
            if (value.isEmpty()) {
                return Optional.empty();
            }
            key.put(attribute.name(), value.get());
        }
        return Optional.of(key);
    }

    private static Optional<AttributeValue> keyValue(KeySchema.KeyType type, JsonNode node) {
        try {
            return switch (type) {
                case S -> node.isTextual() ? Optional.of(AttributeValue.fromS(node.asText())) : Optional.empty();
                case N -> node.isNumber() ? Optional.of(AttributeValue.fromN(node.decimalValue().toString()))
                        : node.isTextual() ? Optional.of(AttributeValue.fromN(new BigDecimal(node.asText()).toString())) : Optional.empty();
                case B -> node.isTextual()
                        ? Optional.of(AttributeValue.fromB(SdkBytes.fromByteArray(Base64.getDecoder().decode(node.asText()))))
                        : Optional.empty();
            };
        } catch (IllegalArgumentException notNumberOrBase64) {
            return Optional.empty();
        }
    }

    private String keyDescription() {
        return config.table().attributes().stream().map(a -> a.name() + " (" + a.type() + ")").collect(Collectors.joining(" and "));
    }

    /**
     * The old record under its full key, without its TTL, the configured attributes and what put it in a sparse index
     * (a deleted version is not an active one), with {@code deletedAt}.
     */
    private Map<String, AttributeValue> tombstone(JsonNode oldImage, Map<String, AttributeValue> key) {
        Map<String, AttributeValue> item = new LinkedHashMap<>(PlainJson.toItem(oldImage));
        item.putAll(key);
        Set<AttributePath> sparse = sparseIndexAttributes(item);
        item.remove(config.ttlAttribute());
        config.dropAttributes().forEach(item::remove);
        for (AttributePath path : sparse) {
            item = without(item, path.names());
        }
        item.put("deletedAt", AttributeValue.fromS(clock.instant().toString()));
        return item;
    }

    /**
     * The attributes a condition of an index that covers the record tests ({@code exists}, {@code equals} or
     * {@code beginsWith}), but a key attribute or the ARN, which the tombstone keeps: without them the tombstone leaves
     * every such index, since each of those conditions fails on an absent attribute. An index that covers the record by
     * its key alone covers the tombstone too.
     */
    private Set<AttributePath> sparseIndexAttributes(Map<String, AttributeValue> record) {
        Set<AttributePath> paths = new LinkedHashSet<>();
        for (IndexDefinition index : config.definitions().indexes()) {
            if (!index.covers(record)) {
                continue;
            }
            for (Condition condition : index.covers()) {
                AttributePath path = condition.path();
                if (!config.table().isKeyAttribute(path)
                        && !(path.isTopLevel() && path.names().get(0).equals(config.arnAttribute()))) {
                    paths.add(path);
                }
            }
        }
        return paths;
    }

    /** The item without the attribute at the path (a member of nested maps when the path has several names). */
    private static Map<String, AttributeValue> without(Map<String, AttributeValue> item, List<String> names) {
        Map<String, AttributeValue> copy = new LinkedHashMap<>(item);
        if (names.size() == 1) {
            copy.remove(names.get(0));
            return copy;
        }
        AttributeValue inner = item.get(names.get(0));
        if (inner != null && inner.type() == AttributeValue.Type.M) {
            copy.put(names.get(0), AttributeValue.fromM(without(inner.m(), names.subList(1, names.size()))));
        }
        return copy;
    }
}
