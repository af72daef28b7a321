package com.multikey.emulator.functions;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import com.multikey.emulator.template.TemplateEnvironment;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * A Lambda {@link Context} for invoking handlers in-process, with the function's timeout as its budget. The
 * remaining time can be set while the handler runs, so a test can make an invocation run out of time.
 */
public final class LocalContext implements Context {

    private final String functionName;
    private final int memoryMb;
    private volatile long deadlineMillis;
    private final String requestId = UUID.randomUUID().toString();

    public LocalContext(String functionName, int memoryMb, long timeoutMillis) {
        this.functionName = functionName;
        this.memoryMb = memoryMb;
        this.deadlineMillis = System.currentTimeMillis() + timeoutMillis;
    }

    /** From now on, {@link #getRemainingTimeInMillis()} counts down from {@code millis}. */
    public void setRemainingTimeInMillis(long millis) {
        this.deadlineMillis = System.currentTimeMillis() + millis;
    }

    public static LocalContext of(String functionName) {
        return new LocalContext(functionName, 1024, 60_000);
    }

    @Override
    public String getAwsRequestId() {
        return requestId;
    }

    @Override
    public String getLogGroupName() {
        return "/aws/lambda/" + functionName;
    }

    @Override
    public String getLogStreamName() {
        return "local";
    }

    @Override
    public String getFunctionName() {
        return functionName;
    }

    @Override
    public String getFunctionVersion() {
        return "$LATEST";
    }

    @Override
    public String getInvokedFunctionArn() {
        return "arn:aws:lambda:us-east-1:" + TemplateEnvironment.LOCAL_ACCOUNT + ":function:" + functionName;
    }

    @Override
    public CognitoIdentity getIdentity() {
        return null;
    }

    @Override
    public ClientContext getClientContext() {
        return null;
    }

    @Override
    public int getRemainingTimeInMillis() {
        return (int) Math.max(0, deadlineMillis - System.currentTimeMillis());
    }

    @Override
    public int getMemoryLimitInMB() {
        return memoryMb;
    }

    @Override
    public LambdaLogger getLogger() {
        return new LambdaLogger() {
            @Override
            public void log(String message) {
                System.out.println(message);
            }

            @Override
            public void log(byte[] message) {
                System.out.println(new String(message, StandardCharsets.UTF_8));
            }
        };
    }
}
