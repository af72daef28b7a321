package com.multikey.dynamodb.expression;

import java.util.Set;

/** What a parsed expression used of the request's ExpressionAttributeNames and -Values (with '#'/':'). */
public interface Parsed {

    Set<String> usedNames();

    Set<String> usedValues();

    /**
     * The top-level attribute names the expression reaches into with a nested path ({@code a.b}, {@code a[0]}).
     * DynamoDB refuses these when they are key attributes of the table or index, with "Key attributes must be
     * scalars; list random access '[]' and map lookup '.' are not allowed: Key: a" ("IndexKey: d" for an
     * index's); the caller knows the keys.
     */
    default Set<String> nestedAccessNames() {
        return Set.of();
    }

    /**
     * The top-level attribute names every document path of the expression starts with (names resolved). A
     * Query refuses a FilterExpression naming a key attribute of the table or index queried: "Filter
     * Expression can only contain non-primary key attributes: Primary key attribute: sk".
     */
    default Set<String> topLevelNames() {
        return Set.of();
    }
}
