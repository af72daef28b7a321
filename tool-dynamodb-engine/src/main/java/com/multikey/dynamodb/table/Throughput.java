package com.multikey.dynamodb.table;

/** Provisioned read and write capacity units, as declared (the engine never enforces them). */
public record Throughput(long readCapacityUnits, long writeCapacityUnits) {
}
