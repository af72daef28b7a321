/**
 * DynamoDB's attribute values: the sealed {@link com.multikey.dynamodb.value.Value} records, numbers as DynamoDB
 * validates and normalizes them ({@link com.multikey.dynamodb.value.Numbers}), key order and item sizes
 * ({@link com.multikey.dynamodb.value.Values}), and the wire protocol's JSON
 * ({@link com.multikey.dynamodb.value.ValueJson}).
 *
 * <p>Written from AWS's developer guide ("Supported data types and naming rules", "Item sizes and formats",
 * service quotas) and, where the guide is silent or approximate, from DynamoDB's answers as published test
 * suites recorded them (messages, number sizes to the byte, set order on output).
 */
package com.multikey.dynamodb.value;
