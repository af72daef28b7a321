package com.multikey.reindex;

import java.util.List;

/**
 * One page of a segment's work: what it did, where the segment continues, and (a verify's page) each wrong index entry
 * it found, one for every one it counted.
 */
public record PageOutcome(PageCounts counts, SegmentPosition next, List<SegmentVerifier.Discrepancy> found) {

    public PageOutcome {
        found = List.copyOf(found);
    }

    /** A page that lists nothing it found (a backfill's, a removal's). */
    public PageOutcome(PageCounts counts, SegmentPosition next) {
        this(counts, next, List.of());
    }
}
