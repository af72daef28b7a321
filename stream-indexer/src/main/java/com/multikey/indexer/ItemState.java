package com.multikey.indexer;

import com.multikey.index.ItemKey;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the index holds of one source item when its changes come in any order (Kinesis Data Streams for DynamoDB):
 * the version of the change last indexed and the item image the index was written for.
 *
 * @param item    the source item
 * @param version the change's version: its {@code ApproximateCreationDateTime} in microseconds since the epoch
 * @param eventId the change record's event id (a duplicate of that record is a no-op)
 * @param image   the image the index holds; null when the item was removed (a tombstone: an older, late change can
 *                never bring the item back)
 */
public record ItemState(ItemKey item, long version, String eventId, Map<String, AttributeValue> image) {

    public ItemState {
        Objects.requireNonNull(item, "item");
        image = image == null ? null : Map.copyOf(image);
    }

    public Optional<Map<String, AttributeValue>> indexedImage() {
        return Optional.ofNullable(image);
    }

    public boolean removed() {
        return image == null;
    }
}
