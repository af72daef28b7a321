package com.multikey.index.definition;

import java.util.Objects;

/**
 * An attribute that orders items of equal value, before the item key.
 *
 * @param maxBytes the bytes it takes of the index sort key: a longer string is cut and ends with a digest
 *                 of the whole, as long values are; a number takes at most 44
 */
public record TieBreaker(AttributePath path, int maxBytes) {

    public static final int DEFAULT_MAX_BYTES = 64;
    /** A type tag, room for a cut string's digest mark, and a character. */
    public static final int MIN_MAX_BYTES = 48;

    public TieBreaker {
        Objects.requireNonNull(path, "path");
    }
}
