package com.multikey.index.definition;

import java.util.Objects;

/** Where an index's values come from. */
public sealed interface ValueSource {

    AttributePath path();

    /** The entries of a map: one index key per entry name, ordered by the entry's value (custom fields). */
    record MapEntries(AttributePath path) implements ValueSource {
        public MapEntries {
            Objects.requireNonNull(path, "path");
        }
    }

    /** The distinct elements of a list or set: one index item per element (multikey). */
    record Elements(AttributePath path) implements ValueSource {
        public Elements {
            Objects.requireNonNull(path, "path");
        }
    }

    /**
     * The words of a text attribute (or of each text of a list or set): one index item per distinct word, as
     * {@link com.multikey.index.Words} cuts them (multikey); what {@code has} and {@code has prefix} read.
     */
    record Words(AttributePath path) implements ValueSource {
        public Words {
            Objects.requireNonNull(path, "path");
        }
    }

    /** One scalar attribute (string, number or boolean). */
    record Scalar(AttributePath path) implements ValueSource {
        public Scalar {
            Objects.requireNonNull(path, "path");
        }
    }
}
