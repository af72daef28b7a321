package com.multikey.router;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.common.ChangeKind;
import com.multikey.common.ChangeRecord;
import com.multikey.common.EntityIds;
import com.multikey.common.PlainJson;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Builds the typed event of one stream record, as the event contract says: detail type
 * {@code "<Type> <Change>"}, plain-JSON detail with keys, images and changed attributes, the record's time,
 * and the table as the resource. An entry over the size limit is built again without its images and
 * flagged, never dropped.
 */
public final class ChangeEventFactory {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final RouterConfig config;

    public ChangeEventFactory(RouterConfig config) {
        this.config = config;
    }

    public ChangeEvent toEvent(ChangeRecord record) {
        ChangeEvent full = build(record, config.includeImages(), false);
        if (full.size() <= config.maxEntryBytes()) {
            return full;
        }
        return build(record, false, true);
    }

    private ChangeEvent build(ChangeRecord record, boolean withImages, boolean imagesDropped) {
        String entityType = entityType(record);
        String change = change(record);
        ObjectNode detail = JSON.createObjectNode();
        detail.put("entityType", entityType);
        detail.put("change", change);
        detail.put("eventName", record.kind().name());
        ObjectNode keys = PlainJson.of(record.keys());
        detail.set("keys", keys);
        if (withImages) {
            record.oldImage().ifPresent(image -> detail.set("oldImage", PlainJson.of(image)));
            record.newImage().ifPresent(image -> detail.set("newImage", PlainJson.of(image)));
        }
        ArrayNode changed = detail.putArray("changedAttributes");
        changedAttributes(record).forEach(changed::add);
        detail.put("eventId", record.eventId());
        record.sequenceNumber().ifPresent(s -> detail.put("sequenceNumber", s));
        record.approximateCreationTime().ifPresent(t -> detail.put("approximateCreationDateTime", t.toString()));
        detail.put("imagesIncluded", withImages);
        detail.put("imagesDropped", imagesDropped);
        return new ChangeEvent(keys.toString(), record.sequenceNumber(), config.eventSource(),
                typeName(entityType) + " " + change, detail.toString(), record.approximateCreationTime(),
                List.of(config.tableArn()), imagesDropped);
    }

    /** The entity type: the key attribute's prefix before {@code #}; {@code item} when the key has none. */
    String entityType(ChangeRecord record) {
        Optional<String> id = record.stringKey(config.keyAttribute());
        return id.map(EntityIds::typeOf).filter(t -> !t.isBlank()).orElse("item");
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
