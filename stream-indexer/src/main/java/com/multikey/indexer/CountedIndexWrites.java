package com.multikey.indexer;

import com.multikey.common.Backoff;
import com.multikey.common.Deadline;
import com.multikey.common.RetryBudget;
import com.multikey.common.Sleeper;
import com.multikey.common.StructuredLog;
import com.multikey.index.IndexChange;
import com.multikey.index.IndexKey;
import com.multikey.index.counts.CountedWrites;
import com.multikey.indexer.IndexWriter.Refused;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The index writer's counted changes: TransactWriteItems calls, each counted write conditioned on its key's existence
 * with its counter's change (see {@link CountedWrites}), one call at a time.
 */
final class CountedIndexWrites {

    private final DynamoDbClient dynamoDb;
    private final String tableName;
    private final Backoff backoff;
    private final Sleeper sleeper;
    private final StructuredLog log;
    private long counterUpdates;
    private long flipRetries;

    CountedIndexWrites(DynamoDbClient dynamoDb, String tableName, Backoff backoff, Sleeper sleeper, StructuredLog log) {
        this.dynamoDb = dynamoDb;
        this.tableName = tableName;
        this.backoff = backoff;
        this.sleeper = sleeper;
        this.log = log;
    }

    /** Assumptions one transaction may correct before it counts as failed (each write's flips at most once unless raced). */
    static final int MAX_CORRECTIONS = 10;

    /** What the transactions sent so far did. */
    IndexWriter.CountedStats stats() {
        return new IndexWriter.CountedStats(counterUpdates, flipRetries);
    }

    /** Writes the counted changes, adding what is left to retry to {@code unwritten} and what is refused to {@code refused}. */
    void write(List<CountedWrites.Counted> counted, Deadline deadline, Set<IndexKey> unwritten, List<Refused> refused) {
        List<Refused> refusedCounted = new ArrayList<>();
        for (List<CountedWrites.Counted> call : CountedWrites.transactions(counted, CountedWrites.MAX_ITEMS, 0)) {
            transact(call, deadline, unwritten, refusedCounted);
        }
        refused.addAll(refusedCounted);
        // a refused put leaves its key empty (and its count without it), not holding the item of an older image
        List<CountedWrites.Counted> clear = new ArrayList<>();
        for (Refused refusal : refusedCounted) {
            counted.stream().filter(c -> c.key().equals(refusal.key()) && c.change() instanceof IndexChange.Put).findFirst()
                    .ifPresent(c -> clear.add(new CountedWrites.Counted(new IndexChange.Delete(c.key()), c.counter(), true)));
        }
        for (List<CountedWrites.Counted> call : CountedWrites.transactions(clear, CountedWrites.MAX_ITEMS, 0)) {
            transact(call, deadline, unwritten, new ArrayList<>());
        }
    }

    /**
     * One transaction of counted writes: a write whose assumption DynamoDB finds wrong (its condition failed) is
     * flipped and the call sent again at once; a conflict or throttling is retried with backoff; a refused item is
     * isolated by halves.
     */
    private void transact(List<CountedWrites.Counted> call, Deadline deadline, Set<IndexKey> unwritten, List<Refused> refused) {
        RetryBudget budget = new RetryBudget(backoff, sleeper, deadline);
        List<CountedWrites.Counted> pending = new ArrayList<>(call);
        int corrections = 0;
        while (budget.hasTime()) {
            pending.removeIf(write -> !write.writes());
            if (pending.isEmpty()) {
                return;
            }
            try {
                List<TransactWriteItem> items = CountedWrites.items(tableName, pending);
                dynamoDb.transactWriteItems(b -> b.transactItems(items).overrideConfiguration(budget.callTimeout()));
                counterUpdates += items.stream().filter(item -> item.update() != null).count();
                return;
            } catch (TransactionCanceledException e) {
                List<Integer> wrong = CountedWrites.failedAssumptions(e, 0, pending.size());
                if (!wrong.isEmpty() && corrections++ < MAX_CORRECTIONS) {
                    for (int i : wrong) {
                        pending.set(i, pending.get(i).flipped());
                    }
                    budget.progressed();
                    flipRetries++;
                    continue;
                }
                if (CountedWrites.refused(e)) {
                    isolateCounted(pending, deadline, unwritten, refused, "ValidationError");
                    return;
                }
                // a conflict with another lane's transaction on a shared counter, or throttling: retried with backoff
            } catch (SdkException e) {
                if (DynamoDbIndexWriter.isRefusal(e)) {
                    isolateCounted(pending, deadline, unwritten, refused, DynamoDbIndexWriter.errorCode(e));
                    return;
                }
                if (!DynamoDbIndexWriter.isRetryable(e)) {
                    log.error("counted index write failed and will not succeed by retrying now", Map.of(
                            "table", tableName, "requests", pending.size(), "error", DynamoDbIndexWriter.errorCode(e)));
                    break;
                }
            }
            if (!budget.retryAfterFailure()) {
                break;
            }
        }
        pending.forEach(write -> unwritten.add(write.key()));
    }

    private void isolateCounted(List<CountedWrites.Counted> call, Deadline deadline, Set<IndexKey> unwritten,
                                List<Refused> refused, String errorCode) {
        if (call.size() == 1) {
            refused.add(new Refused(call.getFirst().key(), errorCode));
            return;
        }
        int half = call.size() / 2;
        transact(List.copyOf(call.subList(0, half)), deadline, unwritten, refused);
        transact(List.copyOf(call.subList(half, call.size())), deadline, unwritten, refused);
    }
}
