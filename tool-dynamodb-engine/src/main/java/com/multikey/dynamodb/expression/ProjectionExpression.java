package com.multikey.dynamodb.expression;

import com.multikey.dynamodb.value.Value;

import java.util.Map;

/** A parsed ProjectionExpression: the listed paths of an item, nested paths and list elements included. */
public interface ProjectionExpression extends Parsed {

    Map<String, Value> project(Map<String, Value> item);
}
