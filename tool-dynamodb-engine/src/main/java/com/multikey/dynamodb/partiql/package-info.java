/**
 * PartiQL for DynamoDB as AWS documents it (ql-reference.*): the statements SELECT, INSERT, UPDATE and DELETE, read
 * into {@link com.multikey.dynamodb.partiql.Statement} values by {@link com.multikey.dynamodb.partiql.StatementParser}.
 * Pure: the engine's api package runs them on the same item core as the JSON operations.
 */
package com.multikey.dynamodb.partiql;
