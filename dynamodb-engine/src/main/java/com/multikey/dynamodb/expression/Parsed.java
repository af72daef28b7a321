package com.multikey.dynamodb.expression;

import java.util.Set;

/** What a parsed expression used of the request's ExpressionAttributeNames and -Values (with '#'/':'). */
public interface Parsed {

    Set<String> usedNames();

    Set<String> usedValues();
}
