package com.multikey.router;

import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;

import java.util.Set;

/**
 * What a PutEvents error means for the event, from the codes the API reference lists for
 * PutEventsResultEntry ("Retryable errors include: InternalFailure, ThrottlingException. Non-retryable errors
 * include: AccessDeniedException, InvalidAccountIdException, InvalidArgument, MalformedDetail,
 * RedactionFailure, NotAuthorizedForSourceException, NotAuthorizedForDetailTypeException") and the common
 * errors of a whole call.
 */
final class PutEventsErrors {

    /** How the router treats an error. */
    enum Kind {
        /** Try again later: retried within the invocation, then the record is a batch item failure. */
        TRANSIENT,
        /** This entry can never be accepted as it is: sent once without images, then skipped. */
        PERMANENT,
        /**
         * The function's setup is refused (permissions, account, bus, source): no event can pass, so none is
         * skipped; the records are batch item failures and end in the failure queue, which is alarmed.
         */
        CONFIGURATION
    }

    private static final Set<String> PERMANENT = Set.of("InvalidArgument", "MalformedDetail", "RedactionFailure",
            "NotAuthorizedForDetailTypeException", "ValidationException", "SerializationException", "RequestEntityTooLarge",
            "RequestEntityTooLargeException");
    private static final Set<String> CONFIGURATION = Set.of("AccessDeniedException", "AccessDenied", "InvalidAccountIdException",
            "NotAuthorizedForSourceException", "ResourceNotFoundException", "UnrecognizedClientException",
            "InvalidSignatureException", "IncompleteSignature", "MissingAuthenticationToken", "ExpiredTokenException");

    private PutEventsErrors() {
    }

    /** An entry's {@code ErrorCode}; a code not known to be permanent is transient, so its record is never lost. */
    static Kind ofEntry(String errorCode) {
        if (PERMANENT.contains(errorCode)) {
            return Kind.PERMANENT;
        }
        return CONFIGURATION.contains(errorCode) ? Kind.CONFIGURATION : Kind.TRANSIENT;
    }

    /**
     * A whole call that failed after the SDK's own retries: a service error with a code known to be permanent
     * (one bad entry can make AWS refuse the call, e.g. {@code ValidationException}) or a configuration code;
     * anything else (throttling, 5xx, I/O, timeouts, codes not known here) is transient.
     */
    static Kind ofCall(SdkException failure) {
        if (failure instanceof AwsServiceException service && !service.isThrottlingException() && service.statusCode() < 500) {
            return ofEntry(code(failure));
        }
        return Kind.TRANSIENT;
    }

    /** The AWS error code of a failed call, else the exception's type (an I/O error, a timeout). */
    static String code(SdkException failure) {
        if (failure instanceof AwsServiceException service && service.awsErrorDetails() != null
                && service.awsErrorDetails().errorCode() != null) {
            return service.awsErrorDetails().errorCode();
        }
        return failure.getClass().getSimpleName();
    }
}
