package com.multikey.dynamodb.api;

import com.multikey.dynamodb.table.Table;

import java.util.function.Supplier;

/** Runs an action under one table's lock. */
final class Locks {

    private Locks() {
    }

    static <T> T under(Table table, Supplier<T> action) {
        table.lock().lock();
        try {
            return action.get();
        } finally {
            table.lock().unlock();
        }
    }
}
