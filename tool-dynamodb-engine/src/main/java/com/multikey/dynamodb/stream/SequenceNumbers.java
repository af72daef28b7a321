package com.multikey.dynamodb.stream;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The engine's stream sequence numbers: one counter for all streams, written as 21-digit decimal strings
 * ("1" then the counter on 20 digits) so that they increase both as numbers and as strings, like AWS's.
 */
public final class SequenceNumbers {

    private static final long WIDTH = 20;
    private final AtomicLong counter = new AtomicLong();

    long next() {
        return counter.incrementAndGet();
    }

    /** The last sequence number drawn (0 before the first). */
    public long current() {
        return counter.get();
    }

    /** Sets the counter of an engine restored from a snapshot, before any stream draws from it. */
    public void restore(long current) {
        counter.set(current);
    }

    public static String format(long sequence) {
        return "1" + String.format("%0" + WIDTH + "d", sequence);
    }

    /** The counter of a sequence number this engine wrote; -1 when the text is not one. */
    public static long parse(String text) {
        if (text == null || text.length() != WIDTH + 1 || text.charAt(0) != '1') {
            return -1;
        }
        for (int i = 1; i < text.length(); i++) {
            if (!Character.isDigit(text.charAt(i))) {
                return -1;
            }
        }
        return Long.parseLong(text.substring(1));
    }
}
