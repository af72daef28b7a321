package com.multikey.router;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.common.ChangeKind;
import com.multikey.common.ChangeRecord;
import com.multikey.common.PlainJson;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Builds the typed event of one stream record, as the event contract says: detail type
 * {@code "<Type> <Change>"}, plain-JSON detail with keys, images and changed attributes, the record's time,
 * and the table as the resource. Every entry is kept within PutEvents' limits ({@link PutEventsLimits}): an
 * integer outside int64 is a string of its digits ({@link PlainJson#EXACT}), a type name too long for DetailType
 * becomes {@code Item}, and an entry whose images are nested too deep or would reach the size limit is built
 * again without them and flagged, never dropped.
 */
public final class ChangeEventFactory {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Detail levels above an image's attributes: the detail object, then the image object. */
    private static final int LEVELS_ABOVE_ATTRIBUTES = 2;

    /** Why an event goes without its images; the detail says it as {@code imagesDroppedReason}. */
    enum DroppedImages {
        NONE(null), SIZE("size"), NESTING("nesting"), REFUSED("refused");

        final String reason;

        DroppedImages(String reason) {
            this.reason = reason;
        }
    }

    private final RouterConfig config;

    public ChangeEventFactory(RouterConfig config) {
        this.config = config;
    }

    /** The app table's key attribute, whose value names a record's item. */
    public String keyAttribute() {
        return config.keyAttribute();
    }

    /**
     * The event of a record, its keys' and images' numbers in DynamoDB's canonical spelling: a local stream may carry a
     * number as the request spelled it, and events of one item must name it alike (and keep their order, by its key).
     */
    public ChangeEvent toEvent(ChangeRecord received) {
        ChangeRecord record = received.withCanonicalNumbers();
        if (!config.includeImages()) {
            return build(record, false, DroppedImages.NONE, Optional.empty());
        }
        int nesting = LEVELS_ABOVE_ATTRIBUTES + Math.max(depth(record.oldImage()), depth(record.newImage()));
        if (nesting > PutEventsLimits.MAX_DETAIL_NESTING) {
            return build(record, false, DroppedImages.NESTING, Optional.empty());
        }
        ChangeEvent full = build(record, true, DroppedImages.NONE, Optional.of(build(record, false, DroppedImages.REFUSED, Optional.empty())));
        if (full.size() < config.maxEntryBytes()) {
            return full;
        }
        return build(record, false, DroppedImages.SIZE, Optional.empty());
    }

    /**
     * The event of a record whose images were taken off before conversion because they nest deeper than
     * DynamoDB allows ({@link ImageNesting}): without images, and without the changed attribute names that
     * come from them.
     */
    public ChangeEvent toEventWithoutImages(ChangeRecord imagesTakenOff) {
        return build(imagesTakenOff.withCanonicalNumbers(), false, DroppedImages.NESTING, Optional.empty(), true);
    }

    private ChangeEvent build(ChangeRecord record, boolean withImages, DroppedImages dropped, Optional<ChangeEvent> withoutImages) {
        return build(record, withImages, dropped, withoutImages, false);
    }

    private ChangeEvent build(ChangeRecord record, boolean withImages, DroppedImages dropped, Optional<ChangeEvent> withoutImages,
                              boolean changedAttributesUnknown) {
        String entityType = entityType(record);
        String change = change(record);
        List<String> adjustments = new ArrayList<>();
        String detailType = typeName(entityType) + " " + change;
        if (PutEventsLimits.characters(detailType) > PutEventsLimits.MAX_DETAIL_TYPE_CHARS) {
            detailType = "Item " + change;
            adjustments.add("entity type name too long for DetailType, sent as Item");
        }
        if (integersOutsideInt64(record.keys()) || withImages && (record.oldImage().map(ChangeEventFactory::integersOutsideInt64).orElse(false)
                || record.newImage().map(ChangeEventFactory::integersOutsideInt64).orElse(false))) {
            adjustments.add("integers outside int64 sent as strings");
        }
        if (dropped == DroppedImages.SIZE) {
            adjustments.add("images dropped: entry would reach the size limit of " + config.maxEntryBytes() + " bytes");
        } else if (dropped == DroppedImages.NESTING) {
            adjustments.add(changedAttributesUnknown
                    ? "images dropped: nested deeper than DynamoDB's " + ImageNesting.DYNAMODB_MAX_NESTING + " levels"
                    : "images dropped: detail would nest deeper than PutEvents' " + PutEventsLimits.MAX_DETAIL_NESTING + " levels");
        }
        ObjectNode detail = JSON.createObjectNode();
        detail.put("entityType", entityType);
        detail.put("change", change);
        detail.put("eventName", record.kind().name());
        ObjectNode keys = PlainJson.EXACT.of(record.keys());
        detail.set("keys", keys);
        if (withImages) {
            record.oldImage().ifPresent(image -> detail.set("oldImage", PlainJson.EXACT.of(image)));
            record.newImage().ifPresent(image -> detail.set("newImage", PlainJson.EXACT.of(image)));
        }
        if (changedAttributesUnknown) {
            detail.put("changedAttributesDropped", true);
        } else {
            ArrayNode changed = detail.putArray("changedAttributes");
            changedAttributes(record).forEach(changed::add);
        }
        detail.put("eventId", record.eventId());
        record.sequenceNumber().ifPresent(s -> detail.put("sequenceNumber", s));
        record.approximateCreationTime().ifPresent(t -> detail.put("approximateCreationDateTime", t.toString()));
        detail.put("imagesIncluded", withImages);
        detail.put("imagesDropped", dropped != DroppedImages.NONE);
        if (dropped != DroppedImages.NONE) {
            detail.put("imagesDroppedReason", dropped.reason);
        }
        ChangeEvent event = event(record, keys, detailType, detail, dropped, adjustments, withoutImages);
        if (!withImages && !changedAttributesUnknown && event.size() >= config.maxEntryBytes()) {
            // only the names of a huge item's attributes are left to make it too large: leave them out too
            detail.remove("changedAttributes");
            detail.put("changedAttributesDropped", true);
            adjustments.add("changed attribute names dropped: entry would reach the size limit");
            event = event(record, keys, detailType, detail, dropped, adjustments, withoutImages);
        }
        return event;
    }

    private ChangeEvent event(ChangeRecord record, ObjectNode keys, String detailType, ObjectNode detail, DroppedImages dropped,
                              List<String> adjustments, Optional<ChangeEvent> withoutImages) {
        return new ChangeEvent(keys.toString(), record.sequenceNumber().orElse(null), String.valueOf(record.eventId()),
                config.eventSource(), detailType, detail.toString(), record.approximateCreationTime().orElse(null),
                List.of(config.tableArn()), dropped != DroppedImages.NONE, adjustments, withoutImages.orElse(null));
    }

    /**
     * The entity type, by the definitions' rules over the record's keys and image (the new one, else the old one):
     * with the default file, the key's prefix before {@code #}; {@code item} when no rule decides.
     */
    String entityType(ChangeRecord record) {
        Map<String, AttributeValue> item = new HashMap<>(record.newImage().or(record::oldImage).orElse(Map.of()));
        item.putAll(record.keys());
        return config.definitions().entityTypeOf(item);
    }

    /** Levels of nesting in an image's attributes: a scalar is 0, a map, list or set 1 more than its deepest member. */
    static int depth(Optional<Map<String, AttributeValue>> image) {
        int deepest = 0;
        for (AttributeValue value : image.map(Map::values).orElse(List.of())) {
            deepest = Math.max(deepest, depth(value));
        }
        return deepest;
    }

    private static int depth(AttributeValue value) {
        if (value.hasM()) {
            int deepest = 0;
            for (AttributeValue member : value.m().values()) {
                deepest = Math.max(deepest, depth(member));
            }
            return 1 + deepest;
        }
        if (value.hasL()) {
            int deepest = 0;
            for (AttributeValue member : value.l()) {
                deepest = Math.max(deepest, depth(member));
            }
            return 1 + deepest;
        }
        return value.hasSs() || value.hasNs() || value.hasBs() ? 1 : 0;
    }

    private static boolean integersOutsideInt64(Map<String, AttributeValue> item) {
        for (AttributeValue value : item.values()) {
            if (integersOutsideInt64(value)) {
                return true;
            }
        }
        return false;
    }

    private static boolean integersOutsideInt64(AttributeValue value) {
        if (value.n() != null) {
            return PlainJson.isIntegerOutsideInt64(PlainJson.decimal(value.n()));
        }
        if (value.hasNs()) {
            for (String n : value.ns()) {
                if (PlainJson.isIntegerOutsideInt64(PlainJson.decimal(n))) {
                    return true;
                }
            }
            return false;
        }
        if (value.hasM()) {
            return integersOutsideInt64(value.m());
        }
        if (value.hasL()) {
            for (AttributeValue member : value.l()) {
                if (integersOutsideInt64(member)) {
                    return true;
                }
            }
        }
        return false;
    }

    static String change(ChangeRecord record) {
        return switch (record.kind()) {
            case INSERT -> "Created";
            case MODIFY -> "Updated";
            case REMOVE -> record.userIdentity().filter(ChangeRecord.UserIdentity::isTimeToLiveExpiry).isPresent()
                    ? "Expired" : "Removed";
        };
    }

    /** PascalCase of an entity type: {@code issue} → {@code Issue}, {@code custom-field} → {@code CustomField}. */
    static String typeName(String entityType) {
        StringBuilder out = new StringBuilder();
        boolean upper = true;
        for (int i = 0; i < entityType.length(); i++) {
            char c = entityType.charAt(i);
            if (c == '-' || c == '_' || c == ' ' || c == '.') {
                upper = true;
            } else {
                out.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return out.isEmpty() ? "Item" : out.toString();
    }

    /** Top-level attribute names whose value differs between the images (all of the one image there is). */
    static List<String> changedAttributes(ChangeRecord record) {
        Map<String, AttributeValue> before = record.oldImage().orElse(Map.of());
        Map<String, AttributeValue> after = record.newImage().orElse(Map.of());
        if (record.kind() == ChangeKind.MODIFY && (record.oldImage().isEmpty() || record.newImage().isEmpty())) {
            return List.of();
        }
        TreeSet<String> names = new TreeSet<>(before.keySet());
        names.addAll(after.keySet());
        names.removeIf(name -> before.containsKey(name) && after.containsKey(name) && before.get(name).equals(after.get(name)));
        return List.copyOf(names);
    }
}
