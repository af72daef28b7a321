package com.multikey.reindex;

/**
 * A reindex job's work on one scan segment, a page at a time, so that whoever drives it (threads in one
 * process, or a chain of Lambda invocations) can save the position after every page and resume from it.
 * Memory per page is bounded by the page size, never by the table size.
 */
public interface SegmentWork {

    /** Does one page of segment {@code segment} of {@code totalSegments} from {@code at}; {@code at} is not done. */
    PageOutcome page(int segment, int totalSegments, SegmentPosition at) throws InterruptedException;
}
