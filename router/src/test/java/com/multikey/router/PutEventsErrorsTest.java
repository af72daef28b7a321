package com.multikey.router;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.eventbridge.model.EventBridgeException;

import static org.assertj.core.api.Assertions.assertThat;

/** What a whole PutEvents call's failure means, and the code it is counted and logged under. */
class PutEventsErrorsTest {

    private static EventBridgeException callError(int status, String code) {
        return (EventBridgeException) EventBridgeException.builder().statusCode(status)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage("test").build()).build();
    }

    @Test
    void ofCall_whenTheServiceFailed_isTransient_whateverTheCode() {
        assertThat(PutEventsErrors.ofCall(callError(500, "ValidationException"))).isEqualTo(PutEventsErrors.Kind.TRANSIENT);
        assertThat(PutEventsErrors.ofCall(callError(503, "AccessDeniedException"))).isEqualTo(PutEventsErrors.Kind.TRANSIENT);
    }

    @Test
    void ofCall_whenRefusedBelowFiveHundred_goesByTheCode() {
        assertThat(PutEventsErrors.ofCall(callError(499, "ValidationException"))).isEqualTo(PutEventsErrors.Kind.PERMANENT);
        assertThat(PutEventsErrors.ofCall(callError(400, "AccessDeniedException"))).isEqualTo(PutEventsErrors.Kind.CONFIGURATION);
        assertThat(PutEventsErrors.ofCall(callError(400, "ThrottlingException"))).isEqualTo(PutEventsErrors.Kind.TRANSIENT);
    }

    @Test
    void code_isTheAwsErrorCode_elseTheExceptionsType() {
        assertThat(PutEventsErrors.code(callError(400, "ValidationException"))).isEqualTo("ValidationException");
        assertThat(PutEventsErrors.code(SdkClientException.create("Unable to execute HTTP request"))).isEqualTo("SdkClientException");
        assertThat(PutEventsErrors.ofCall(SdkClientException.create("Unable to execute HTTP request"))).isEqualTo(PutEventsErrors.Kind.TRANSIENT);
    }
}
