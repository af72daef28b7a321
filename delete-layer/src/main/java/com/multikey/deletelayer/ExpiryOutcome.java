package com.multikey.deletelayer;

/** What became of one "Layer Expired" event. */
public sealed interface ExpiryOutcome {

    /** The layer version was deleted (or already gone) and the tombstone written or an existing item kept. */
    record Deleted(LayerVersionArn arn, TombstoneWriter.Outcome tombstone) implements ExpiryOutcome {
    }

    /** The event was not acted on, and retrying cannot change that. */
    record Refused(String reason) implements ExpiryOutcome {
    }
}
