package com.multikey.dynamodb.expression;

import com.multikey.dynamodb.value.Value;

import java.util.Map;
import java.util.Set;

/** A condition or filter expression parsed and checked; evaluation is {@link Evaluator}'s. */
record ParsedCondition(Condition condition, Set<String> usedNames, Set<String> usedValues, Set<String> nestedAccessNames,
                       Set<String> topLevelNames)
        implements ConditionExpression {

    @Override
    public boolean test(Map<String, Value> item) {
        return Evaluator.test(condition, item);
    }
}
