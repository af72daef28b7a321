package com.multikey.dynamodb.api;

import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.value.Value;

import java.util.Map;

/** ConditionalCheckFailedException, with the item when the request asked for it (ReturnValuesOnConditionCheckFailure). */
public final class ConditionalCheckFailed extends EngineException {

    private final transient Map<String, Value> item;

    ConditionalCheckFailed(Map<String, Value> item) {
        super("ConditionalCheckFailedException", 400, "The conditional request failed");
        this.item = item;
    }

    /** The item as it was, or null when not asked for or there was none. */
    public Map<String, Value> item() {
        return item;
    }
}
