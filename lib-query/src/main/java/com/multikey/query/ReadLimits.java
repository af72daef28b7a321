package com.multikey.query;

/**
 * The Limit of each read of one part of a page. The first asks for what the page still needs and a quarter more (at
 * least {@value #MIN_LIMIT}: index items are small), so that a field with one value per item fills the page in one read
 * and a part that ends is seen to end. Without predicates a further read asks for what the part's yield so far (items
 * evaluated per item placed) says the page still needs, half again, at least twice the last Limit (after reads that
 * placed nothing, eight times), keeping a page's calls few; with predicates, where every candidate costs a read of its
 * item too, what the yield says and a quarter more (after reads that placed nothing, four times the last). Never more
 * than {@value #MAX_READ_LIMIT}, nor than the items the page may still read (half of them when the items of the index
 * items read are read next, so that a page always moves on).
 */
final class ReadLimits {

    /** The largest Limit of one read: a thousand index items is well under a Query's 1 MB. */
    static final int MAX_READ_LIMIT = 1000;
    /** The smallest Limit of a first read. */
    static final int MIN_LIMIT = 10;

    private final PageFill fill;
    private final PageReads reads;
    /** Whether each item read is an index item whose item is read next: then a read leaves the budget room for it. */
    private final boolean itemsFollow;
    private int limit;
    private long scanned;
    private int placed;

    ReadLimits(PageFill fill, PageReads reads, boolean itemsFollow) {
        this.fill = fill;
        this.reads = reads;
        this.itemsFollow = itemsFollow;
        this.limit = Math.max(MIN_LIMIT, fill.need() + fill.need() / 4 + 1);
    }

    /** The next read's Limit: with items to follow, at most half the budget left, so that the page can read what it found. */
    int limit() {
        return Math.max(1, Math.min(limit, itemsFollow ? reads.budgetLeft() / 2 : reads.budgetLeft()));
    }

    void record(int scannedByRead, int placedByRead) {
        scanned += scannedByRead;
        placed += placedByRead;
        long next;
        if (fill.tests.isEmpty()) {
            next = placed == 0 ? 8L * limit : Math.max(2L * limit, (long) Math.ceil(1.5 * fill.need() * scanned / placed));
        } else {
            next = placed == 0 ? 4L * limit : Math.max(MIN_LIMIT, (long) Math.ceil(1.25 * fill.need() * scanned / placed));
        }
        limit = (int) Math.min(MAX_READ_LIMIT, next);
    }
}
