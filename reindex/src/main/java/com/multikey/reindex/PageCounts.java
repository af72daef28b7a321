package com.multikey.reindex;

/**
 * What one or more pages of a segment did: items read (of either table), issues among them, index writes
 * made, wrong index entries found (missing, stale, orphaned) and issues repaired.
 */
public record PageCounts(long items, long issues, long writes, long missing, long stale, long orphaned, long repaired) {

    public static final PageCounts NONE = new PageCounts(0, 0, 0, 0, 0, 0, 0);

    public PageCounts plus(PageCounts other) {
        return new PageCounts(items + other.items, issues + other.issues, writes + other.writes, missing + other.missing,
                stale + other.stale, orphaned + other.orphaned, repaired + other.repaired);
    }

    public long drift() {
        return missing + stale + orphaned;
    }
}
