package com.multikey.reindex;

import com.multikey.index.GridLayoutStore;
import com.multikey.index.IndexChange;
import com.multikey.index.IndexEntry;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.ItemKey;
import com.multikey.index.counts.CountLayout;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Verify (and repair) one scan segment a page at a time, in memory bounded by the page size:
 * <ul>
 *   <li>app table side ({@link SegmentPosition.Phase#APP}): each covered item of the page is projected and its
 *       expected index keys are read with BatchGetItem: a key with no item is <b>missing</b>, an item that
 *       differs from the expected one is <b>stale</b>;</li>
 *   <li>index side ({@link SegmentPosition.Phase#INDEX}): each index item of the page has its source item read with
 *       BatchGetItem (each source item once a page): an item whose source item does not exist, or that names no source item
 *       (no {@value IndexItem#ITEM_KEY} or {@value IndexItem#ITEM_ID}, or one that is no key of the table), is
 *       <b>orphaned</b>, an item its existing source item does not imply (at that key) is <b>stale</b>.</li>
 * </ul>
 * With repair on, each wrong source item is fixed by {@link SegmentRepairs} through {@link ConditionalIndexWriter} from a
 * consistent read, conditioned on that version, so it is safe beside the stream indexer. Each page's outcome lists the
 * wrong entries it found, so that whoever drives the pages can keep them to look at again once the stream has caught up.
 */
public final class SegmentVerifier implements SegmentWork {

    /** One wrong index entry: what is wrong, the source item's key as text (empty when it names none), the index key. */
    public record Discrepancy(Kind kind, String itemKey, IndexKey key) {
    }

    /** What is wrong with an index entry. */
    public enum Kind { MISSING, STALE, ORPHANED }

    private final DynamoDbClient dynamoDb;
    private final String appTable;
    private final String indexTable;
    private final IndexScope scope;
    private final SegmentRepairs repairs;
    private final BatchReader reader;
    private final RateLimiter rate;
    private final boolean repair;
    private final int pageSize;
    private final Consumer<Discrepancy> found;
    private final KeptCountsCheck counts;

    /**
     * @param writeUnitsPerSecond write capacity repairs may use (see {@link WriteCost})
     * @param found               told of every wrong entry (e.g. to keep a few samples); must not keep them all
     */
    public SegmentVerifier(DynamoDbClient dynamoDb, String appTable, String indexTable, IndexScope scope, boolean repair,
                           double writeUnitsPerSecond, int pageSize, Consumer<Discrepancy> found) {
        if (pageSize < 1) {
            throw new IllegalArgumentException("page size must be at least 1, got " + pageSize);
        }
        this.dynamoDb = dynamoDb;
        this.appTable = appTable;
        this.indexTable = indexTable;
        this.scope = scope;
        this.reader = new BatchReader(dynamoDb);
        this.rate = new RateLimiter(writeUnitsPerSecond, System::nanoTime);
        this.repairs = new SegmentRepairs(dynamoDb, appTable, indexTable, scope, rate);
        this.repair = repair;
        this.pageSize = pageSize;
        this.found = found;
        this.counts = new KeptCountsCheck(dynamoDb, indexTable, scope);
    }

    @Override
    public PageOutcome page(int segment, int totalSegments, SegmentPosition at) throws InterruptedException {
        return switch (at.phase()) {
            case APP -> appPage(segment, totalSegments, at);
            case INDEX -> indexPage(segment, totalSegments, at);
            case DONE -> new PageOutcome(PageCounts.NONE, SegmentPosition.DONE);
        };
    }

    private ScanResponse scan(String table, int segment, int totalSegments, SegmentPosition at) {
        ScanRequest.Builder scan = ScanRequest.builder().tableName(table).segment(segment).totalSegments(totalSegments)
                .limit(pageSize).consistentRead(true);
        if (!at.startKey().isEmpty()) {
            scan.exclusiveStartKey(at.startKey());
        }
        return dynamoDb.scan(scan.build());
    }

    private static Map<String, AttributeValue> next(ScanResponse page) {
        return page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : Map.of();
    }

    private PageOutcome appPage(int segment, int totalSegments, SegmentPosition at) throws InterruptedException {
        ScanResponse page = scan(appTable, segment, totalSegments, at);
        Map<ItemKey, Map<String, AttributeValue>> versions = new LinkedHashMap<>();
        Map<IndexKey, IndexItem> expected = new LinkedHashMap<>();
        for (Map<String, AttributeValue> item : page.items()) {
            var key = scope.keyOf(item);
            if (key.isPresent() && scope.covers(item)) {
                versions.put(key.get(), item);
                scope.project(key.get(), item).items().forEach(want -> expected.put(want.key(), want));
            }
        }
        Map<IndexKey, Map<String, AttributeValue>> stored = new LinkedHashMap<>();
        for (Map<String, AttributeValue> item : reader.read(indexTable, expected.keySet().stream().map(IndexKey::toKey).toList())) {
            stored.put(IndexKey.of(item), IndexItem.normalized(item));
        }
        long missing = 0;
        long stale = 0;
        List<Discrepancy> wrong = new ArrayList<>();
        Map<ItemKey, List<IndexChange>> fixes = new LinkedHashMap<>();
        for (IndexItem want : expected.values()) {
            Map<String, AttributeValue> have = stored.get(want.key());
            if (have == null) {
                missing++;
                report(wrong, new Discrepancy(Kind.MISSING, want.source().toString(), want.key()));
            } else if (!have.equals(want.toItem())) {
                stale++;
                report(wrong, new Discrepancy(Kind.STALE, want.source().toString(), want.key()));
            } else {
                continue;
            }
            fixes.computeIfAbsent(want.source(), k -> new ArrayList<>()).add(new IndexChange.Put(want));
        }
        long writes = 0;
        long repaired = 0;
        if (repair) {
            for (Map.Entry<ItemKey, List<IndexChange>> fix : fixes.entrySet()) {
                long made = repairs.fromTable(fix.getKey(), versions.get(fix.getKey()), fix.getValue());
                writes += made;
                repaired += made > 0 ? 1 : 0;
            }
        }
        Map<String, AttributeValue> after = next(page);
        SegmentPosition next = after.isEmpty() ? new SegmentPosition(SegmentPosition.Phase.INDEX, Map.of())
                : new SegmentPosition(SegmentPosition.Phase.APP, after);
        return new PageOutcome(new PageCounts(page.items().size(), versions.size(), writes, missing, stale, 0, repaired), next, wrong);
    }

    /** Tells {@code found} of a wrong entry and lists it in the page's outcome. */
    private void report(List<Discrepancy> wrong, Discrepancy discrepancy) {
        found.accept(discrepancy);
        wrong.add(discrepancy);
    }

    private PageOutcome indexPage(int segment, int totalSegments, SegmentPosition at) throws InterruptedException {
        ScanResponse page = scan(indexTable, segment, totalSegments, at);
        Map<ItemKey, List<Map<String, AttributeValue>>> bySource = new LinkedHashMap<>();
        long orphaned = 0;
        long writes = 0;
        long repaired = 0;
        List<Discrepancy> wrong = new ArrayList<>();
        for (Map<String, AttributeValue> item : page.items()) {
            if (!scope.owns(item) || isKeptCounter(item)) {
                continue;
            }
            var source = IndexEntry.sourceOf(item, scope.table());
            if (source.isEmpty()) {
                // no source item named (or no key of the table): no item can imply it
                IndexKey key = IndexKey.of(item);
                orphaned++;
                report(wrong, new Discrepancy(Kind.ORPHANED, "", key));
                if (repair && repairs.deleteSourceless(item)) {
                    writes++;
                    repaired++;
                }
                continue;
            }
            bySource.computeIfAbsent(source.get(), k -> new ArrayList<>()).add(item);
        }
        List<Map<String, AttributeValue>> keys = bySource.keySet().stream().map(ItemKey::toKey).toList();
        Map<ItemKey, Map<String, AttributeValue>> versions = new LinkedHashMap<>();
        for (Map<String, AttributeValue> sourceItem : reader.read(appTable, keys)) {
            scope.keyOf(sourceItem).ifPresent(key -> versions.put(key, sourceItem));
        }
        long stale = 0;
        for (Map.Entry<ItemKey, List<Map<String, AttributeValue>>> entry : bySource.entrySet()) {
            ItemKey itemKey = entry.getKey();
            Map<String, AttributeValue> version = versions.get(itemKey);
            Set<IndexKey> wanted = repairs.wantedKeys(itemKey, version);
            List<IndexKey> unwanted = new ArrayList<>();
            for (Map<String, AttributeValue> item : entry.getValue()) {
                IndexKey key = IndexKey.of(item);
                if (!wanted.contains(key)) {
                    unwanted.add(key);
                    if (version == null) {
                        orphaned++;
                        report(wrong, new Discrepancy(Kind.ORPHANED, itemKey.toString(), key));
                    } else {
                        stale++;
                        report(wrong, new Discrepancy(Kind.STALE, itemKey.toString(), key));
                    }
                }
            }
            if (repair && !unwanted.isEmpty()) {
                long made = repairs.fromIndex(itemKey, version, unwanted);
                writes += made;
                repaired += made > 0 ? 1 : 0;
            }
        }
        long missing = 0;
        if (counts.any()) {
            KeptCountsCheck.Outcome checked = counts.check(page.items(), repair, rate);
            checked.wrong().forEach(discrepancy -> report(wrong, discrepancy));
            missing += checked.missing();
            stale += checked.stale();
            repaired += checked.repaired();
            writes += checked.repaired();
        }
        Map<String, AttributeValue> after = next(page);
        SegmentPosition next = after.isEmpty() ? SegmentPosition.DONE : new SegmentPosition(SegmentPosition.Phase.INDEX, after);
        // the grid layout's control item is read, but is no index item
        long indexItems = page.items().stream().filter(item -> !GridLayoutStore.isControl(item)).count();
        return new PageOutcome(new PageCounts(indexItems, 0, writes, missing, stale, orphaned, repaired), next, wrong);
    }

    /** A counter item of an index that keeps counts: checked against the index items it counts, not as one of them. */
    private boolean isKeptCounter(Map<String, AttributeValue> item) {
        AttributeValue index = item.get(IndexItem.INDEX);
        return CountLayout.isCounter(item) && index != null && scope.definitions().index(index.s())
                .map(definition -> definition.counts().any()).orElse(false);
    }
}
