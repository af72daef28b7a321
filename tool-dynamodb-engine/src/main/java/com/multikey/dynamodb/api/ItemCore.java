package com.multikey.dynamodb.api;

import com.multikey.dynamodb.expression.ConditionExpression;
import com.multikey.dynamodb.expression.UpdateExpression;
import com.multikey.dynamodb.table.Table;
import com.multikey.dynamodb.value.Value;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one write path of the engine's item operations, whatever request carried them (PutItem, UpdateItem,
 * DeleteItem, a transaction's actions, a PartiQL statement): a write of one item is first planned (its condition
 * tested on the item as it is, its new image made and checked) and then applied, which stores it and, through the
 * table, updates the indexes and appends the stream record. A transaction plans all its writes before applying any.
 * Every method is called under the table's lock.
 */
final class ItemCore {

    /** A write of one item. */
    sealed interface Write {
        Map<String, Value> key();
    }

    /**
     * Replaces the item with {@code item} (its key derived from it). Made by {@link #of}, which checks the item: the one
     * check of an item to be stored, whatever request carries it.
     */
    record Put(Map<String, Value> item, Map<String, Value> key) implements Write {
        /** The put of {@code item}, checked as a PutItem's item is (a ValidationException otherwise). */
        static Put of(Table table, Map<String, Value> item) {
            ItemChecks.item(table, item);
            return new Put(item, table.keySchema().keyOf(item));
        }
    }

    /** Updates the item (or the bare key when there is none) with the update, if any. */
    record Update(Map<String, Value> key, Optional<UpdateExpression> update) implements Write {
    }

    /** Deletes the item, if there is one. */
    record Delete(Map<String, Value> key) implements Write {
    }

    /** Only tests the condition (a transaction's ConditionCheck). */
    record Check(Map<String, Value> key) implements Write {
    }

    /** A planned write: the item before ({@code old}, null if none) and after ({@code current}, null if none). */
    record Planned(Table table, Write write, Map<String, Value> old, Map<String, Value> current) {
        boolean writes() {
            return !(write instanceof Check);
        }
    }

    private ItemCore() {
    }

    /** The item with this key (checked before), or null. */
    static Map<String, Value> get(Table table, Map<String, Value> key) {
        return table.get(key);
    }

    /**
     * Plans a write: tests the condition on the item as it is (an absent item is tested as an empty one) and makes
     * the new image, checked as a PutItem's item is (a put's item was checked when the put was made). Throws
     * {@link ConditionalCheckFailed} (with the old item when {@code oldOnFailure}) or a ValidationException; changes
     * nothing.
     */
    static Planned plan(Table table, Write write, Optional<ConditionExpression> condition, boolean oldOnFailure) {
        Map<String, Value> old = table.get(write.key());
        if (condition.isPresent() && !condition.get().test(old == null ? Map.of() : old)) {
            throw new ConditionalCheckFailed(oldOnFailure ? old : null);
        }
        Map<String, Value> current = switch (write) {
            case Put put -> put.item();
            case Update update -> updated(table, update.key(), old, update.update());
            case Delete delete -> null;
            case Check check -> old;
        };
        return new Planned(table, write, old, current);
    }

    /** Applies a planned write (planned under the same hold of the lock). */
    static void apply(Planned planned, Instant now) {
        switch (planned.write()) {
            case Put put -> planned.table().put(planned.current(), now);
            case Update update -> planned.table().put(planned.current(), now);
            case Delete delete -> planned.table().delete(delete.key(), now, false);
            case Check check -> {
            }
        }
    }

    /**
     * Applies a transaction's planned writes (TransactWriteItems, ExecuteTransaction), all of them, planned under the
     * same hold of their tables' locks; a transaction's writes cost twice a plain write's units.
     */
    static void applyTransaction(List<Planned> planned, ConsumedCapacity capacity, Instant now) {
        for (Planned write : planned) {
            apply(write, now);
            if (write.writes()) {
                capacity.write(write.table(), write.old(), write.current(), 2);
            }
        }
    }

    /** Plans and applies one write. */
    static Planned write(Table table, Write write, Optional<ConditionExpression> condition, boolean oldOnFailure, Instant now) {
        Planned planned = plan(table, write, condition, oldOnFailure);
        apply(planned, now);
        return planned;
    }

    /** The item an update makes of the old one (or of the bare key), checked as a PutItem's item is. */
    static Map<String, Value> updated(Table table, Map<String, Value> key, Map<String, Value> old, Optional<UpdateExpression> update) {
        Map<String, Value> base = old != null ? old : new LinkedHashMap<>(key);
        Map<String, Value> updated = update.map(u -> u.apply(base)).orElse(base);
        ItemChecks.item(table, updated);
        return updated;
    }
}
