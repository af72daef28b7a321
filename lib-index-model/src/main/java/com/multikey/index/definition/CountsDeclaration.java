package com.multikey.index.definition;

import java.util.List;

/**
 * The counts the pipeline keeps for one grouped index ({@code counts:} in the definitions file): per group, how many
 * items the index holds ({@code total}) and, for each field of {@code facets}, how many index items carry each value.
 *
 * @param total  whether the group total is kept (one marker item per indexed item, counted)
 * @param facets the fields whose per-value counts are kept: entry names of a map-entries index, or the indexed
 *               attribute itself for an attribute or elements index
 * @param shards how many counter items a (group, field, value) is spread over, by a hash of the item key
 */
public record CountsDeclaration(boolean total, List<String> facets, int shards) {

    /** No counts kept. */
    public static final CountsDeclaration NONE = new CountsDeclaration(false, List.of(), 1);

    public static final int DEFAULT_SHARDS = 8;
    public static final int MAX_SHARDS = 64;

    public CountsDeclaration {
        facets = List.copyOf(facets);
        if (shards < 1 || shards > MAX_SHARDS) {
            throw new IllegalArgumentException("shards must be from 1 to " + MAX_SHARDS + ", got " + shards);
        }
    }

    /** Whether anything is counted. */
    public boolean any() {
        return total || !facets.isEmpty();
    }
}
