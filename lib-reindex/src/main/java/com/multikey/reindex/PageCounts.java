package com.multikey.reindex;

/**
 * What one or more pages of a segment did: items read (of either table), the source table's items among them that the
 * indexes cover, index writes made, wrong index entries found (missing, stale, orphaned) and items repaired.
 */
public record PageCounts(long items, long sourceItems, long writes, long missing, long stale, long orphaned, long repaired) {

    public static final PageCounts NONE = new PageCounts(0, 0, 0, 0, 0, 0, 0);

    public PageCounts plus(PageCounts other) {
        return new PageCounts(items + other.items, sourceItems + other.sourceItems, writes + other.writes, missing + other.missing,
                stale + other.stale, orphaned + other.orphaned, repaired + other.repaired);
    }

    public long drift() {
        return missing + stale + orphaned;
    }
}
