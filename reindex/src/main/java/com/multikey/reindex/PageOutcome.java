package com.multikey.reindex;

/** One page of a segment's work: what it did and where the segment continues. */
public record PageOutcome(PageCounts counts, SegmentPosition next) {
}
