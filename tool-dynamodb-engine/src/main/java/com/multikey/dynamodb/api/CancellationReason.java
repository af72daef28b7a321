package com.multikey.dynamodb.api;

import com.multikey.dynamodb.value.Value;

import java.util.Map;

/** Why one item of a cancelled transaction failed ("None" when it did not); {@code item} only on request. */
public record CancellationReason(String code, String message, Map<String, Value> item) {

    static final CancellationReason NONE = new CancellationReason("None", null, null);
}
