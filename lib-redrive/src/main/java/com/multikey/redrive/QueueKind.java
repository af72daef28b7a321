package com.multikey.redrive;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The three queues redrive acts on, by the name an operator gives. */
public enum QueueKind {
    /** {@code StreamIndexerFailureQueue}: on-failure records of the indexer's event source mapping. */
    INDEXER("indexer"),
    /** {@code RouterFailureQueue}: on-failure records of the router's event source mapping. */
    ROUTER("router"),
    /** {@code DeleteLayerDeadLetterQueue}: {@code Layer Expired} events the rule could not deliver. */
    DELETE_LAYER("delete-layer");

    private final String label;

    QueueKind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** @throws IllegalArgumentException naming the accepted values */
    public static QueueKind of(String label) {
        for (QueueKind kind : values()) {
            if (kind.label.equals(label)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("queue must be one of " + Arrays.stream(values()).map(QueueKind::label)
                .collect(Collectors.joining(", ")) + ", got " + label);
    }
}
