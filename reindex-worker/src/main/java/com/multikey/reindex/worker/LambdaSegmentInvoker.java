package com.multikey.reindex.worker;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvocationType;

/**
 * Invokes the worker function asynchronously (InvocationType {@code Event}): Lambda queues the request,
 * runs it within the function's reserved concurrency, retries it as the function's EventInvokeConfig says,
 * and sends it to the on-failure destination when it keeps failing.
 */
final class LambdaSegmentInvoker implements SegmentInvoker {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final LambdaClient lambda;
    private final String functionName;

    LambdaSegmentInvoker(LambdaClient lambda, String functionName) {
        this.lambda = lambda;
        this.functionName = functionName;
    }

    @Override
    public void invokeAsync(String jobId, int segment) {
        String payload;
        try {
            payload = JSON.writeValueAsString(WorkerRequest.segment(jobId, segment));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("segment request could not be written", e);
        }
        lambda.invoke(b -> b.functionName(functionName).invocationType(InvocationType.EVENT)
                .payload(SdkBytes.fromUtf8String(payload)));
    }
}
