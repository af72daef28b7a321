package com.multikey.deletelayer;

/** Deletes Lambda layer versions. */
public interface LayerDeleter {

    /** Deletes the version; a version that is already gone counts as deleted. */
    void delete(LayerVersionArn arn);
}
