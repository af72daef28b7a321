package com.multikey.dynamodb.api;

import com.multikey.dynamodb.EngineException;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The ClientRequestTokens of the transactions that completed in the last 10 minutes, as AWS remembers them
 * (TransactWriteItems, ExecuteTransaction): the same request again succeeds without writing twice, another request
 * with the token is an IdempotentParameterMismatchException. Thread-safe.
 */
final class ClientTokens {

    /** How long AWS remembers a ClientRequestToken after the request that used it. */
    static final Duration LIFETIME = Duration.ofMinutes(10);

    private final Map<String, Token> tokens = new HashMap<>();

    /** A token's request (as JSON) and when it completed. */
    private record Token(String request, Instant completed) {
    }

    /** Whether the request with this token completed within the token's lifetime; refuses another request with it. */
    synchronized boolean alreadyDone(String token, String request, Instant now) {
        tokens.values().removeIf(t -> t.completed().plus(LIFETIME).isBefore(now));
        Token done = tokens.get(token);
        if (done == null) {
            return false;
        }
        if (!done.request().equals(request)) {
            throw new EngineException("IdempotentParameterMismatchException", 400,
                    "The request uses the same client token as a previous, but non-identical request.");
        }
        return true;
    }

    synchronized void remember(String token, String request, Instant now) {
        tokens.put(token, new Token(request, now));
    }

    /** The tokens remembered now: token to its request (JSON) and when it completed, for a snapshot of the state. */
    synchronized Map<String, Map.Entry<String, Instant>> snapshot() {
        Map<String, Map.Entry<String, Instant>> copy = new TreeMap<>();
        tokens.forEach((token, done) -> copy.put(token, Map.entry(done.request(), done.completed())));
        return copy;
    }

    /** Remembers a token as a snapshot of the engine's state kept it. */
    synchronized void restore(String token, String request, Instant completed) {
        tokens.put(token, new Token(request, completed));
    }
}
