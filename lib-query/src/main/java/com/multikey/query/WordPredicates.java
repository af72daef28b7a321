package com.multikey.query;

import com.multikey.index.definition.AttributePath;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.index.definition.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a read knows of {@code has} and {@code has prefix}: the words index that holds a field's words (a driver reads it),
 * and the refusal of a word predicate on a field no words index holds.
 */
final class WordPredicates {

    private WordPredicates() {
    }

    /** Whether a predicate asks for words of a text ({@code has}, {@code has prefix}). */
    static boolean is(Predicate predicate) {
        return predicate instanceof Predicate.Has || predicate instanceof Predicate.HasPrefix;
    }

    /** The attribute path a field names: an entry of a map's index is the map's path and the entry's name. */
    static AttributePath path(IndexDefinition index, ItemTests tests, String field) {
        if (tests.isEntry(field)) {
            List<String> names = new ArrayList<>(index.values().path().names());
            names.add(tests.entryName(field));
            return new AttributePath(names);
        }
        return tests.attributePath(field);
    }

    /** The words index declared over an attribute path, if any. */
    static Optional<IndexDefinition> indexOf(IndexDefinitions definitions, AttributePath path) {
        return definitions.indexes().stream().filter(index -> index.values() instanceof ValueSource.Words && index.values().path().equals(path))
                .findFirst();
    }

    /**
     * Refuses a word predicate on a field no words index holds: the words of a text are a declared index's, cut by its rule,
     * never guessed at read time.
     */
    static void requireIndex(IndexDefinitions definitions, Target target, ItemTests tests, int position, Predicate predicate) {
        if (!is(predicate)) {
            return;
        }
        AttributePath path = path(target.index(), tests, predicate.field());
        if (indexOf(definitions, path).isEmpty()) {
            throw new InvalidPredicateException(position, (predicate instanceof Predicate.Has ? "has" : "has prefix")
                    + " reads the words of a text, and no words index holds those of '" + path + "': declare one "
                    + "(values: {wordsOf: " + path + "}) and backfill it");
        }
    }
}
