package com.multikey.cli;

import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Records the operation every AWS SDK client of this test JVM calls (registered for all clients through the SDK's
 * global interceptors file, so it sees the clients a command builds itself), to prove what a command never calls.
 */
public final class OperationRecorder implements ExecutionInterceptor {

    /** DynamoDB's operations that change a table's items or the table. */
    static final Set<String> WRITES = Set.of("PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems",
            "ExecuteStatement", "BatchExecuteStatement", "ExecuteTransaction", "CreateTable", "UpdateTable", "DeleteTable",
            "UpdateTimeToLive", "RestoreTableFromBackup", "ImportTable", "UpdateContinuousBackups");

    /** One call: its operation and request. */
    record Call(String operation, SdkRequest request) {
    }

    private static final List<Call> CALLS = new CopyOnWriteArrayList<>();

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        CALLS.add(new Call(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME), context.request()));
    }

    /** The calls made since {@link #clear()}. */
    static List<Call> calls() {
        return List.copyOf(CALLS);
    }

    static void clear() {
        CALLS.clear();
    }
}
