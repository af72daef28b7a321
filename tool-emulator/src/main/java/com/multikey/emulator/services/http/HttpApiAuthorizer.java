package com.multikey.emulator.services.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.emulator.auth.LocalJwtIssuer;
import com.multikey.emulator.auth.SigV4Verifier;
import com.multikey.emulator.template.HttpApiRoutes;

import java.time.Clock;
import java.util.Optional;

/**
 * Authorizes a request to the local HTTP API as its route says, as API Gateway does: {@code NONE} lets it through,
 * {@code AWS_IAM} needs a SigV4 signature that {@link SigV4Verifier} accepts (else 403), {@code JWT} a token that
 * {@link LocalJwtIssuer} accepts (else 401). What it learnt about the caller becomes the event's
 * {@code requestContext.authorizer}.
 */
final class HttpApiAuthorizer {

    /** What the check decided. */
    sealed interface Decision {
    }

    /** Let through; {@code authorizer} is what the function receives about the caller (empty for {@code NONE}). */
    record Allowed(ObjectNode authorizer) implements Decision {
    }

    /** Refused with {@code status} and API Gateway's {@code body}; {@code reason} is for the operator, never the caller. */
    record Refused(int status, String body, String reason) implements Decision {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final SigV4Verifier sigV4;
    private final Optional<LocalJwtIssuer> tokens;
    private final Clock clock;

    /** @param tokens verifies the tokens of JWT routes (without it, they answer 401) */
    HttpApiAuthorizer(SigV4Verifier sigV4, Optional<LocalJwtIssuer> tokens, Clock clock) {
        this.sigV4 = sigV4;
        this.tokens = tokens;
        this.clock = clock;
    }

    Decision authorize(HttpApiRoutes.Route route, HttpApiRequest request) {
        ObjectNode authorizer = JSON.createObjectNode();
        switch (route.authorization()) {
            case HttpApiRoutes.Open open -> {
            }
            case HttpApiRoutes.Iam iam -> {
                switch (sigV4.verify(request.method(), request.rawPath(), request.rawQuery(), request.headers(), request.body())) {
                    case SigV4Verifier.Refused refused -> {
                        return new Refused(403, "{\"message\":\"Forbidden\"}", refused.reason());
                    }
                    case SigV4Verifier.Verified verified -> authorizer.putObject("iam").put("accessKey", verified.accessKey())
                            .put("accountId", LocalHttpApi.ACCOUNT).put("callerId", verified.accessKey())
                            .put("userArn", "arn:aws:iam::" + LocalHttpApi.ACCOUNT + ":user/local").put("userId", verified.accessKey());
                }
            }
            case HttpApiRoutes.Jwt jwt -> {
                LocalJwtIssuer.Outcome outcome = tokens.<LocalJwtIssuer.Outcome>map(issuer -> issuer.verify(
                        request.header("authorization"), jwt, clock.instant())).orElse(new LocalJwtIssuer.Refused("no local token key"));
                switch (outcome) {
                    case LocalJwtIssuer.Refused refused -> {
                        return new Refused(401, "{\"message\":\"Unauthorized\"}", refused.reason());
                    }
                    case LocalJwtIssuer.Verified verified -> {
                        ObjectNode claims = authorizer.putObject("jwt").putObject("claims");
                        verified.claims().forEach(claims::put);
                    }
                }
            }
        }
        return new Allowed(authorizer);
    }
}
