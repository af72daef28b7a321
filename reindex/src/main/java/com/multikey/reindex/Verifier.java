package com.multikey.reindex;

import com.multikey.index.IndexChange;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.IssueProjector;
import com.multikey.index.IssueSchema;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compares the index with what the app table implies and, when asked, repairs it: missing items (the table
 * implies them, the index lacks them), stale items (the issue exists but implies another item at that key,
 * or none), orphaned items (their issue no longer exists). Repairs go through {@link ConditionalIndexWriter}
 * from a fresh consistent read of each issue, so they are safe while the stream indexer runs.
 */
public final class Verifier {

    /** One wrong index entry. */
    public record Discrepancy(String issueId, IndexKey key) {
    }

    /** What a verification found, with up to {@value #SAMPLES} samples of each kind, and what it repaired. */
    public record Report(long issues, long indexItems, long missingCount, long staleCount, long orphanedCount,
                         List<Discrepancy> missing, List<Discrepancy> stale, List<Discrepancy> orphaned, long repairedIssues) {
        public boolean clean() {
            return missingCount == 0 && staleCount == 0 && orphanedCount == 0;
        }
    }

    static final int SAMPLES = 5;
    private static final int MAX_ATTEMPTS_PER_ISSUE = 5;

    private final DynamoDbClient dynamoDb;
    private final String appTable;
    private final String indexTable;
    private final IssueSchema schema;
    private final IssueProjector issues;
    private final ConditionalIndexWriter writer;

    public Verifier(DynamoDbClient dynamoDb, String appTable, String indexTable, IssueSchema schema) {
        this.dynamoDb = dynamoDb;
        this.appTable = appTable;
        this.indexTable = indexTable;
        this.schema = schema;
        this.issues = new IssueProjector(schema);
        this.writer = new ConditionalIndexWriter(dynamoDb, appTable, indexTable, schema);
    }

    public Report verify(boolean repair) {
        Map<String, Map<IndexKey, Map<String, AttributeValue>>> actual = new HashMap<>();
        long[] indexItems = {0};
        dynamoDb.scanPaginator(b -> b.tableName(indexTable).consistentRead(true)).items().forEach(stored -> {
            actual.computeIfAbsent(IndexItem.issueIdOf(stored), k -> new LinkedHashMap<>()).put(IndexKey.of(stored), IndexItem.normalized(stored));
            indexItems[0]++;
        });
        Map<String, Map<IndexKey, IndexItem>> expected = new HashMap<>();
        dynamoDb.scanPaginator(b -> b.tableName(appTable).consistentRead(true)).items().forEach(item -> {
            AttributeValue id = item.get(schema.keyAttribute());
            if (id != null && id.s() != null && schema.isIssue(id.s())) {
                expected.put(id.s(), byKey(issues.project(id.s(), item).items()));
            }
        });

        List<Discrepancy> missing = new ArrayList<>();
        List<Discrepancy> stale = new ArrayList<>();
        List<Discrepancy> orphaned = new ArrayList<>();
        Set<String> wrong = new LinkedHashSet<>();
        Set<String> all = new LinkedHashSet<>(expected.keySet());
        all.addAll(actual.keySet());
        for (String issueId : all) {
            Map<IndexKey, IndexItem> want = expected.get(issueId);
            Map<IndexKey, Map<String, AttributeValue>> have = actual.getOrDefault(issueId, Map.of());
            if (want == null) {
                have.keySet().forEach(key -> orphaned.add(new Discrepancy(issueId, key)));
                wrong.add(issueId);
                continue;
            }
            want.forEach((key, item) -> {
                if (!have.containsKey(key)) {
                    missing.add(new Discrepancy(issueId, key));
                    wrong.add(issueId);
                }
            });
            have.forEach((key, stored) -> {
                if (!want.containsKey(key) || !stored.equals(want.get(key).toItem())) {
                    stale.add(new Discrepancy(issueId, key));
                    wrong.add(issueId);
                }
            });
        }
        long repaired = 0;
        if (repair) {
            for (String issueId : wrong) {
                repaired += repairIssue(issueId, actual.getOrDefault(issueId, Map.of())) ? 1 : 0;
            }
        }
        return new Report(expected.size(), indexItems[0], missing.size(), stale.size(), orphaned.size(),
                sample(missing), sample(stale), sample(orphaned), repaired);
    }

    private boolean repairIssue(String issueId, Map<IndexKey, Map<String, AttributeValue>> current) {
        for (int attempt = 0; attempt < MAX_ATTEMPTS_PER_ISSUE; attempt++) {
            Map<String, AttributeValue> version = writer.currentVersion(issueId);
            Collection<IndexItem> want = version == null ? List.of() : issues.project(issueId, version).items();
            List<IndexChange> changes = changes(current, want);
            if (writer.write(issueId, version, changes) == ConditionalIndexWriter.Outcome.WRITTEN) {
                return true;
            }
        }
        return false;
    }

    /** The writes that turn the stored items of an issue into the expected ones, compared as stored. */
    private static List<IndexChange> changes(Map<IndexKey, Map<String, AttributeValue>> stored, Collection<IndexItem> want) {
        List<IndexChange> changes = new ArrayList<>();
        Set<IndexKey> wanted = new java.util.HashSet<>();
        for (IndexItem item : want) {
            wanted.add(item.key());
            if (!item.toItem().equals(stored.get(item.key()))) {
                changes.add(new IndexChange.Put(item));
            }
        }
        stored.keySet().stream().filter(key -> !wanted.contains(key)).forEach(key -> changes.add(new IndexChange.Delete(key)));
        return changes;
    }

    private static Map<IndexKey, IndexItem> byKey(Collection<IndexItem> items) {
        Map<IndexKey, IndexItem> map = new LinkedHashMap<>();
        items.forEach(item -> map.put(item.key(), item));
        return map;
    }

    private static List<Discrepancy> sample(List<Discrepancy> all) {
        return List.copyOf(all.subList(0, Math.min(SAMPLES, all.size())));
    }
}
