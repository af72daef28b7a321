package com.multikey.dynamodb.expression;

import com.multikey.dynamodb.value.Value;

import java.util.Optional;
import java.util.Set;

/** A parsed KeyConditionExpression: the partition key's value and the optional condition on the sort key. */
public record KeyCondition(Value partitionValue, Optional<SortCondition> sortCondition,
                           Set<String> usedNames, Set<String> usedValues) implements Parsed {
}
