package com.multikey.cli;

import com.multikey.clikit.Failure;
import com.multikey.index.definition.DefinitionException;
import com.multikey.query.RetryableQueryException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@link #of} turns what the SDK and the libraries throw into the {@link Failure} a command stops with (one line: what is
 * wrong, then what to pass or run), with the {@link Context} of the command (its endpoints and region, which table or
 * function a "not found" means), never into a stack trace.
 */
final class Failures {

    static final String STACK_OUTPUTS = "aws cloudformation describe-stacks --stack-name <stack> --query 'Stacks[0].Outputs'";
    static final String START_LOCAL = "java -jar tool-local-cli/target/local.jar start";

    private static final Set<String> REFUSED_CREDENTIALS = Set.of("UnrecognizedClientException", "InvalidClientTokenId",
            "InvalidSignatureException", "SignatureDoesNotMatch", "ExpiredToken", "ExpiredTokenException", "IncompleteSignature",
            "MissingAuthenticationToken");

    private Failures() {
    }

    /**
     * Where a command was talking to, for the error line.
     *
     * @param region    AWS_REGION as the command saw it (null when not set)
     * @param endpoints the endpoints given, by the option that gave them (empty: AWS itself)
     * @param notFound  for a service's "not found" answer: which table, function or queue, and what to pass instead
     */
    record Context(String region, Map<String, String> endpoints, Function<AwsServiceException, Optional<String>> notFound) {
        static final Context NONE = new Context(null, Map.of(), e -> Optional.empty());

        String where() {
            return endpoints.isEmpty() ? "in AWS region " + region
                    : "at " + endpoints.entrySet().stream().map(e -> e.getValue() + " (" + e.getKey() + ")").collect(Collectors.joining(", "));
        }
    }

    /** A command that can say where it was talking to. */
    interface Located {
        Context context();
    }

    static Failure of(Throwable thrown) {
        return of(thrown, Context.NONE);
    }

    static Failure of(Throwable thrown, Context context) {
        if (thrown instanceof Failure failure) {
            return failure;
        }
        if (thrown instanceof RetryableQueryException slow) {
            return new Failure(OperatorCli.SERVICE, "the page could not be read in time " + context.where() + " (" + slow.getMessage()
                    + "): retry, or give the page more time with --page-timeout SECONDS");
        }
        Optional<SdkException> sdk = Failure.causes(thrown).stream().filter(SdkException.class::isInstance).map(SdkException.class::cast).findFirst();
        if (sdk.isPresent()) {
            return service(sdk.get(), context);
        }
        if (thrown instanceof IllegalArgumentException || thrown instanceof DefinitionException) {
            // a bad value, or a definitions file that cannot work: what to change is in the message, not in a class name
            return Failure.usage(thrown.getMessage());
        }
        return new Failure(OperatorCli.SERVICE, thrown.getMessage() == null ? thrown.getClass().getName()
                : thrown.getClass().getSimpleName() + ": " + thrown.getMessage());
    }

    private static Failure service(SdkException e, Context context) {
        if (e instanceof AwsServiceException aws) {
            String code = aws.awsErrorDetails() == null ? "" : aws.awsErrorDetails().errorCode();
            String message = aws.awsErrorDetails() == null ? aws.getMessage() : aws.awsErrorDetails().errorMessage();
            if (REFUSED_CREDENTIALS.contains(code)) {
                return new Failure(OperatorCli.SERVICE, "AWS refused the credentials " + context.where() + " (" + code + ": " + message
                        + "): refresh them ('aws sso login', or new access keys) and check AWS_PROFILE and AWS_REGION");
            }
            if (code != null && code.startsWith("AccessDenied")) {
                return new Failure(OperatorCli.SERVICE, "not allowed " + context.where() + " (" + code + ": " + message
                        + "): use credentials of a role that may do this (the stack's operator role)");
            }
            Optional<String> notFound = context.notFound().apply(aws);
            if (notFound.isPresent()) {
                return new Failure(OperatorCli.SERVICE, notFound.get());
            }
            return new Failure(OperatorCli.SERVICE, serviceName(aws) + " answered " + code + " " + context.where() + ": " + message);
        }
        if (e instanceof SdkClientException && String.valueOf(e.getMessage()).startsWith("Unable to load credentials")) {
            return new Failure(OperatorCli.SERVICE, "no AWS credentials found: run 'aws configure' or 'aws sso login', or export "
                    + "AWS_PROFILE (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY); for a local stack pass --endpoint");
        }
        Optional<Throwable> network = Failure.causes(e).stream().filter(c -> c instanceof ConnectException || c instanceof UnknownHostException
                || c instanceof NoRouteToHostException || c instanceof SocketTimeoutException).findFirst();
        if (network.isPresent()) {
            String cause = network.get().getClass().getSimpleName() + (network.get().getMessage() == null ? "" : ": " + network.get().getMessage());
            return new Failure(OperatorCli.SERVICE, "cannot connect " + context.where() + " (" + cause + "): "
                    + (context.endpoints().isEmpty() ? "check the network and AWS_REGION, or pass --endpoint for a local stack"
                    : "start the local stack (" + START_LOCAL + ") or fix " + String.join(", ", context.endpoints().keySet())));
        }
        return new Failure(OperatorCli.SERVICE, "the AWS SDK failed " + context.where() + ": " + e.getMessage());
    }

    private static String serviceName(AwsServiceException e) {
        return e.awsErrorDetails() == null || e.awsErrorDetails().serviceName() == null ? "AWS" : e.awsErrorDetails().serviceName();
    }
}
