package com.multikey.redrive;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvocationType;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;

import java.nio.charset.StandardCharsets;

/** {@link FunctionInvoker} over Lambda's Invoke API, {@code RequestResponse}. */
public final class LambdaFunctionInvoker implements FunctionInvoker {

    /** Invoke, {@code RequestResponse}: a request payload of at most 6 MB (Lambda quotas, "Invocation payload"). */
    public static final int MAX_PAYLOAD_BYTES = 6 * 1024 * 1024;

    private final LambdaClient lambda;

    public LambdaFunctionInvoker(LambdaClient lambda) {
        this.lambda = lambda;
    }

    @Override
    public String invoke(String functionName, String eventJson) {
        InvokeResponse response = lambda.invoke(b -> b.functionName(functionName).invocationType(InvocationType.REQUEST_RESPONSE)
                .payload(SdkBytes.fromString(eventJson, StandardCharsets.UTF_8)));
        String answer = response.payload() == null ? "" : response.payload().asUtf8String();
        if (response.functionError() != null) {
            throw new FunctionFailedException(functionName + " failed (" + response.functionError() + "): " + answer);
        }
        return answer;
    }
}
