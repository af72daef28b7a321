package com.multikey.query;


/**
 * The Limit of each read of one part of a page. The first asks for what the page still needs and a quarter more (at
 * least {@value #MIN_LIMIT}: index items are small), so that a field with one value per item fills the page in one read
 * and a part that ends is seen to end; when earlier pages told how many items the part reads per item it lists (their
 * cursor carries it: {@link Knowledge#indexItemsPerListed()}, {@link Knowledge#tailReadPerListed()}) — a multi-valued
 * field, whose later values of items listed earlier list nothing; predicates that some candidates fail; a missing tail
 * among the group's other items — it asks for that many per item needed, a quarter more, and room for how much that
 * varies from page to page ({@link #beyond}), so that one read fills the page; with predicates, where each candidate is
 * read too against the page's budget, what every earlier page read per item listed and twice its square root
 * ({@link #withPredicates}). Without predicates a further read of the index asks for what
 * the part's yield so far (items evaluated per item placed) says the page still needs, half again, at least twice the last
 * Limit (after reads that placed nothing, eight times), keeping a page's calls few; with predicates, where every
 * candidate costs a read of its item too, what the yield says and a quarter more (after reads that placed nothing, four
 * times the last). A further read of the missing tail, which costs no read of items after it, asks for the most a read
 * asks for: the yield of a first read of a few items is too rough a guide to a sparse tail, and so the page that crosses
 * into the tail reads it in at most two Queries (a group of up to about a thousand items; 1 MB a Query).
 * Never more than {@value #MAX_READ_LIMIT}, nor than the items the page may still read (half of them when the items of
 * the index items read are read next, so that a page always moves on).
 */
final class ReadLimits {

    /** The largest Limit of one read: a thousand index items is well under a Query's 1 MB. */
    static final int MAX_READ_LIMIT = 1000;
    /** The smallest Limit of a first read. */
    static final int MIN_LIMIT = 10;

    /** The items the page still needs, as the part goes on. */
    private final java.util.function.IntSupplier need;
    /** Whether the page has predicates: each candidate is read and tested. */
    private final boolean predicates;
    private final PageReads reads;
    /** Whether each item read is an index item whose item is read next: then a read leaves the budget room for it. */
    private final boolean itemsFollow;
    private int limit;
    private long scanned;
    private int placed;

    /**
     * @param known       what earlier pages learned of the part
     * @param predicates  whether the page has predicates (each candidate is read and tested)
     * @param need        the items the page still needs, asked as the part goes on
     * @param itemsFollow true for the sorted field's index (its items are read next), false for the missing tail
     */
    ReadLimits(Knowledge known, boolean predicates, java.util.function.IntSupplier need, PageReads reads, boolean itemsFollow) {
        this.need = need;
        this.predicates = predicates;
        this.reads = reads;
        this.itemsFollow = itemsFollow;
        int now = need.getAsInt();
        if (!itemsFollow) {
            this.limit = first(now, known.tailReadPerListed().orElse(1.0), false);
        } else if (!predicates) {
            this.limit = first(now, known.indexItemsPerListed().orElse(1.0), known.multiValued());
        } else {
            this.limit = known.indexItemsPerListedSoFar().map(perListed -> withPredicates(now, perListed))
                    .orElse(first(now, 1.0, false));
        }
    }

    /**
     * The first Limit for {@code need} items when a part reads {@code perListed} items per item it lists: a quarter more
     * than the need, and room for the items that list nothing ({@link #beyond}).
     */
    static int first(int need, double perListed, boolean multiValued) {
        return (int) Math.min(MAX_READ_LIMIT, Math.max(MIN_LIMIT, need + need / 4 + 1 + beyond(need, perListed, multiValued)));
    }

    /**
     * The first Limit with predicates, when earlier pages read {@code perListed} index items per item listed: that many
     * per item needed and twice the square root of that (each candidate is read too, and counts against the page's
     * budget, so the room is smaller than without predicates).
     */
    static int withPredicates(int need, double perListed) {
        double expected = need * perListed;
        return (int) Math.min(MAX_READ_LIMIT, Math.max(MIN_LIMIT, Math.ceil(expected + 2 * Math.sqrt(expected)) + 1));
    }

    /**
     * What to read beyond one item per item needed when a part reads {@code perListed} items per item it lists, {@code e}
     * of them beyond one per item needed as the last page found: e and a quarter, and three times the square root of
     * {@code 2e + 1} (how much the difference of two such counts varies: the next page's may exceed the last one's, and
     * grows along the order of a multi-valued field); nothing when each item read lists (a field with one value per item),
     * unless the field is multi-valued ({@code multiValued}: a first page meets no later value of an item listed before).
     */
    static long beyond(int need, double perListed, boolean multiValued) {
        if (perListed <= 1 && !multiValued) {
            return 0;
        }
        double expected = need * Math.max(0, perListed - 1);
        return (long) Math.ceil(1.5 * expected + 3 * Math.sqrt(2 * expected + 1));
    }

    /** The next read's Limit: with items to follow, at most half the budget left, so that the page can read what it found. */
    int limit() {
        return Math.max(1, Math.min(limit, itemsFollow ? reads.budgetLeft() / 2 : reads.budgetLeft()));
    }

    /** Asks the next read for {@code wider} items instead, when that is more than it asks now: whether it does. */
    boolean widen(int wider) {
        int before = limit();
        int planned = limit;
        limit = Math.max(limit, Math.min(MAX_READ_LIMIT, wider));
        if (limit() > before) {
            return true;
        }
        limit = planned;
        return false;
    }

    void record(int scannedByRead, int placedByRead) {
        scanned += scannedByRead;
        placed += placedByRead;
        long next;
        if (!itemsFollow) {
            // a read of the tail costs no read of items after it, and its yield so far is a small sample of a sparse part
            next = MAX_READ_LIMIT;
        } else if (!predicates) {
            next = placed == 0 ? 8L * limit : Math.max(2L * limit, (long) Math.ceil(1.5 * need.getAsInt() * scanned / placed));
        } else {
            next = placed == 0 ? 4L * limit : Math.max(MIN_LIMIT, (long) Math.ceil(1.25 * need.getAsInt() * scanned / placed));
        }
        limit = (int) Math.min(MAX_READ_LIMIT, next);
    }
}
