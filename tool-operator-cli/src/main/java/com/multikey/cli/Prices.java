package com.multikey.cli;

/**
 * The list prices a plan uses: us-east-1, as docs/cost.md gives them with their sources (they change; the plan prints
 * them, so a reader can redo the sums with others).
 *
 * @param writeUnitPerMillion  DynamoDB on-demand, per million write request units
 * @param storagePerGbMonth    DynamoDB Standard table class storage, per GB-month
 * @param lambdaRequestPerMillion Lambda, per million requests
 * @param lambdaGbSecond       Lambda (Arm) duration, per GB-second
 * @param asOf                 the day docs/cost.md read them
 */
record Prices(double writeUnitPerMillion, double storagePerGbMonth, double lambdaRequestPerMillion, double lambdaGbSecond, String asOf) {

    static final Prices US_EAST_1 = new Prices(0.625, 0.25, 0.20, 0.0000133334, "2026-11-22");

    static final String DYNAMODB_SOURCE = "https://aws.amazon.com/dynamodb/pricing/on-demand/";
    static final String LAMBDA_SOURCE = "https://aws.amazon.com/lambda/pricing/";
}
