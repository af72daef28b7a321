package com.multikey.reindex;

/**
 * Write capacity a reindex spends, the unit of its rate budget. Every index write of backfill and repair is
 * transactional ({@link ConditionalIndexWriter}); "Transactional write requests require 2 write request
 * units to perform one write for items up to 1 KB" (DynamoDB developer guide, read/write capacity modes).
 * Index items are small (a key of at most 2 KB plus the value), so two units a write is the planning figure.
 */
public final class WriteCost {

    public static final int UNITS_PER_TRANSACTIONAL_WRITE = 2;

    private WriteCost() {
    }

    /** Units for {@code writes} transactional writes, at least one unit (the condition check alone costs one). */
    public static int units(int writes) {
        return Math.max(1, writes * UNITS_PER_TRANSACTIONAL_WRITE);
    }
}
