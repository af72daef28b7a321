package com.multikey.dynamodb.expression;

import com.multikey.dynamodb.value.Value;

import java.util.Map;
import java.util.Set;

/** A parsed UpdateExpression (SET, REMOVE, ADD, DELETE clauses). */
public interface UpdateExpression extends Parsed {

    /**
     * The item after the update; the given item (empty when there is none) is not changed. A
     * ValidationException as DynamoDB gives it when an operand has the wrong type, a path's parent is missing,
     * or a list index is out of range for a SET that cannot append.
     */
    Map<String, Value> apply(Map<String, Value> item);

    /** The top-level attribute names the update writes or removes (the caller refuses key attributes). */
    Set<String> topLevelAttributes();

    /**
     * The parts of the item at the paths the update writes or removes, nested as a projection keeps them: from
     * the old item for ReturnValues UPDATED_OLD, from the new one for UPDATED_NEW (which so leaves out what was
     * removed). DynamoDB returns only the changed fragment of a nested path ({@code SET parent.child = :v}
     * gives {@code {parent: {child: ...}}}).
     */
    Map<String, Value> updatedAttributes(Map<String, Value> item);
}
