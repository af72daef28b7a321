package com.multikey.reindex;

import com.multikey.common.Backoff;
import com.multikey.common.Sleeper;
import com.multikey.index.IndexChange;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.ItemKey;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Repairs the index of named items only, from each item's current consistent state: the keys it
 * considers are those implied by every image the caller saw of the item (old and new images of stream
 * records, however old) and those implied by the item as it is now; it puts what the current state
 * implies where the stored item differs, and deletes the considered keys the current state does not
 * imply. Stored items are read first (BatchGetItem), so items already right are not rewritten. Writes go
 * through {@link ConditionalIndexWriter}: if the item changes meanwhile, it is read again.
 *
 * <p>An index item at a key no image of the item implies (a leftover of some older failure) is not
 * found this way; {@code verify --repair} scans for those.
 */
public final class TargetedRepair {

    /** What became of one item. */
    public sealed interface Outcome {
        ItemKey itemKey();

        /** The index of the item was wrong and is now written from its current state. */
        record Repaired(ItemKey itemKey, int puts, int deletes) implements Outcome {
        }

        /** The index of the item already matched its current state; nothing written. */
        record AlreadyRight(ItemKey itemKey) implements Outcome {
        }

        /** Dry run: these writes would be made. */
        record Planned(ItemKey itemKey, int puts, int deletes) implements Outcome {
        }

        /** The item kept changing between read and write, every attempt; the stream indexer handles its newer changes. */
        record StillChanging(ItemKey itemKey) implements Outcome {
        }
    }

    /** BatchGetItem: at most 100 keys a call (DynamoDB API reference, BatchGetItem). */
    static final int MAX_KEYS_PER_BATCH_GET = 100;
    private static final int MAX_ATTEMPTS_PER_ITEM = 5;
    private static final int MAX_UNPROCESSED_ROUNDS = 10;

    private final DynamoDbClient dynamoDb;
    private final String indexTable;
    private final IndexScope projector;
    private final ConditionalIndexWriter writer;

    public TargetedRepair(DynamoDbClient dynamoDb, String appTable, String indexTable, IndexScope scope) {
        this.dynamoDb = dynamoDb;
        this.indexTable = indexTable;
        this.projector = scope;
        this.writer = new ConditionalIndexWriter(dynamoDb, appTable, indexTable, scope);
    }

    /**
     * @param itemKey the source item's key
     * @param imagesSeen every old and new image of the item the caller saw (e.g. in a stream range)
     * @param dryRun plan only, write nothing
     */
    public Outcome repair(ItemKey itemKey, Collection<Map<String, AttributeValue>> imagesSeen, boolean dryRun) {
        Set<IndexKey> seen = new LinkedHashSet<>();
        for (Map<String, AttributeValue> image : imagesSeen) {
            projector.project(itemKey, image).items().forEach(item -> seen.add(item.key()));
        }
        for (int attempt = 0; attempt < MAX_ATTEMPTS_PER_ITEM; attempt++) {
            Map<String, AttributeValue> version = writer.currentVersion(itemKey);
            Collection<IndexItem> want = version == null ? List.of() : projector.project(itemKey, version).items();
            Set<IndexKey> candidates = new LinkedHashSet<>(seen);
            want.forEach(item -> candidates.add(item.key()));
            List<IndexChange> changes = plan(candidates, stored(candidates), want);
            int puts = (int) changes.stream().filter(IndexChange.Put.class::isInstance).count();
            int deletes = changes.size() - puts;
            if (changes.isEmpty()) {
                return new Outcome.AlreadyRight(itemKey);
            }
            if (dryRun) {
                return new Outcome.Planned(itemKey, puts, deletes);
            }
            if (writer.write(itemKey, version, changes) == ConditionalIndexWriter.Outcome.WRITTEN) {
                return new Outcome.Repaired(itemKey, puts, deletes);
            }
        }
        return new Outcome.StillChanging(itemKey);
    }

    /**
     * The writes that make the stored items at the considered keys equal the wanted ones: a put where the
     * stored item is missing or differs, a delete where a considered key holds an item no longer wanted.
     */
    static List<IndexChange> plan(Set<IndexKey> candidates, Map<IndexKey, Map<String, AttributeValue>> stored, Collection<IndexItem> want) {
        List<IndexChange> changes = new ArrayList<>();
        Set<IndexKey> wanted = new java.util.HashSet<>();
        for (IndexItem item : want) {
            wanted.add(item.key());
            Map<String, AttributeValue> have = stored.get(item.key());
            if (have == null || !IndexItem.normalized(have).equals(item.toItem())) {
                changes.add(new IndexChange.Put(item));
            }
        }
        for (IndexKey key : candidates) {
            if (!wanted.contains(key) && stored.containsKey(key)) {
                changes.add(new IndexChange.Delete(key));
            }
        }
        return changes;
    }

    /** Waits before re-sending unprocessed keys, as DynamoDB asks (exponential backoff). */
    private static void pause(int round) {
        try {
            Sleeper.SYSTEM.sleep(Backoff.standard().delay(round));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while re-reading unprocessed keys", e);
        }
    }

    /** The stored index items at these keys, read consistently. */
    private Map<IndexKey, Map<String, AttributeValue>> stored(Set<IndexKey> keys) {
        Map<IndexKey, Map<String, AttributeValue>> found = new HashMap<>();
        List<IndexKey> all = List.copyOf(keys);
        for (int from = 0; from < all.size(); from += MAX_KEYS_PER_BATCH_GET) {
            List<Map<String, AttributeValue>> batch = all.subList(from, Math.min(all.size(), from + MAX_KEYS_PER_BATCH_GET))
                    .stream().map(IndexKey::toKey).toList();
            Map<String, KeysAndAttributes> request = Map.of(indexTable, KeysAndAttributes.builder().keys(batch).consistentRead(true).build());
            for (int round = 0; !request.isEmpty(); round++) {
                if (round == MAX_UNPROCESSED_ROUNDS) {
                    throw new IllegalStateException("BatchGetItem on " + indexTable + " kept returning unprocessed keys");
                }
                if (round > 0) {
                    pause(round);
                }
                Map<String, KeysAndAttributes> next = request;
                BatchGetItemResponse response = dynamoDb.batchGetItem(b -> b.requestItems(next));
                response.responses().getOrDefault(indexTable, List.of()).forEach(item -> found.put(IndexKey.of(item), item));
                request = response.hasUnprocessedKeys() ? response.unprocessedKeys() : Map.of();
            }
        }
        return found;
    }
}
