package com.multikey.dynamodb.conformance;

import org.assertj.core.api.ThrowableAssert;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Asserts an error as the SDK surfaces it: its exception class (from {@code __type}), status and message. */
final class Errors {

    private Errors() {
    }

    static <E extends AwsServiceException> E expect(ThrowableAssert.ThrowingCallable call, Class<E> type, int status, String message) {
        E error = catchThrowableOfType(type, call);
        assertThat(error).as("expected %s", type.getSimpleName()).isNotNull();
        assertThat(error.statusCode()).isEqualTo(status);
        assertThat(error.awsErrorDetails().errorMessage()).contains(message);
        return error;
    }

    static <E extends AwsServiceException> E expect(ThrowableAssert.ThrowingCallable call, Class<E> type, String message) {
        return expect(call, type, 400, message);
    }

    /**
     * A ValidationException (the SDK has no class of its own for it: its error code says it), status 400, with
     * exactly this message.
     */
    static void expectValidation(ThrowableAssert.ThrowingCallable call, String message) {
        DynamoDbException error = expect(call, DynamoDbException.class, 400, message);
        assertThat(error.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
        assertThat(error.awsErrorDetails().errorMessage()).isEqualTo(message);
    }
}
