package com.multikey.deletelayer;

import java.util.ArrayList;
import java.util.List;

/** An in-memory {@link LayerDeleter}: records the versions it is asked to delete, or fails as a test says. */
final class RecordingLayerDeleter implements LayerDeleter {

    final List<LayerVersionArn> deleted = new ArrayList<>();
    private RuntimeException failure;

    /** Every later call throws this, deleting nothing, as a Lambda API that keeps throttling would. */
    void failWith(RuntimeException failure) {
        this.failure = failure;
    }

    @Override
    public void delete(LayerVersionArn arn) {
        if (failure != null) {
            throw failure;
        }
        deleted.add(arn);
    }
}
