package com.multikey.dynamodb.expression;

import com.multikey.dynamodb.value.Value;

import java.util.Map;

/** A parsed ConditionExpression or FilterExpression. */
public interface ConditionExpression extends Parsed {

    /** Whether the item (empty when there is none) satisfies the condition. */
    boolean test(Map<String, Value> item);
}
