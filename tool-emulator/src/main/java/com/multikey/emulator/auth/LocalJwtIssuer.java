package com.multikey.emulator.auth;

import com.multikey.emulator.template.HttpApiRoutes;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The local stand-in for an OIDC provider: an RSA key kept in a file (made on first use, readable by its owner
 * only) that signs tokens (RS256) for a list of projects, and verifies a bearer token as API Gateway's JWT
 * authorizer does: the signature by this key, {@code iss} equal to the authorizer's issuer, {@code aud} (or
 * {@code client_id}) one of its audiences, {@code exp} in the future and {@code nbf}/{@code iat} not in it. Its
 * claims reach the function as API Gateway passes them: strings as they are, arrays as {@code [a b c]}.
 */
public final class LocalJwtIssuer {

    /** The outcome of a check. */
    public sealed interface Outcome {
    }

    /** A valid token and its claims as the function receives them. */
    public record Verified(Map<String, String> claims) implements Outcome {
        public Verified {
            claims = Map.copyOf(claims);
        }
    }

    /** Not a valid token: {@code reason} says why (for the operator, never for the caller). */
    public record Refused(String reason) implements Outcome {
    }

    /** What API Gateway allows between its clock and the token's times. */
    private static final Duration LEEWAY = Duration.ZERO;
    /** A project name that reads back as itself from API Gateway's {@code [a b c]} form of a list claim. */
    private static final java.util.regex.Pattern UNAMBIGUOUS_IN_A_CLAIM = java.util.regex.Pattern.compile("[^\\s,\\[\\]\"]+");

    private final RSAKey key;

    private LocalJwtIssuer(RSAKey key) {
        this.key = key;
    }

    /** The key in {@code file}, made there when the file does not exist yet. */
    public static LocalJwtIssuer loadOrCreate(Path file) {
        try {
            if (Files.isRegularFile(file)) {
                return new LocalJwtIssuer(RSAKey.parse(Files.readString(file, StandardCharsets.UTF_8)));
            }
            RSAKey key = new RSAKeyGenerator(2048).keyUse(KeyUse.SIGNATURE).keyID(UUID.randomUUID().toString()).generate();
            if (file.toAbsolutePath().getParent() != null) {
                Files.createDirectories(file.toAbsolutePath().getParent());
            }
            Path temporary = Files.createTempFile(file.toAbsolutePath().getParent(), ".jwt-key-", ".tmp");
            try {
                trySetOwnerOnly(temporary);
                Files.writeString(temporary, key.toJSONString(), StandardCharsets.UTF_8);
                Files.move(temporary, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(temporary);
            }
            return new LocalJwtIssuer(RSAKey.parse(Files.readString(file, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or write the local token key " + file, e);
        } catch (ParseException e) {
            throw new IllegalArgumentException(file + " is not a JSON Web Key with a private RSA key: " + e.getMessage(), e);
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot make an RSA key", e);
        }
    }

    private static void trySetOwnerOnly(Path file) throws IOException {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException notPosix) {
            // a file system without POSIX permissions keeps its defaults
        }
    }

    /**
     * A token for {@code audience} from {@code issuer}, listing {@code projects} in the claim {@code claim}, valid
     * from {@code now} for {@code lifetime}.
     *
     * @throws IllegalArgumentException for a project name that is empty or holds a space, a comma, a bracket or a
     *                                  quote: API Gateway passes an array claim as {@code [a b]}, so a token for
     *                                  {@code team a} would read as one for the projects {@code team} and {@code a}
     */
    public String mint(String issuer, String audience, String claim, List<String> projects, Instant now, Duration lifetime) {
        for (String project : projects) {
            if (project.isEmpty() || !UNAMBIGUOUS_IN_A_CLAIM.matcher(project).matches()) {
                throw new IllegalArgumentException("a token cannot list the project '" + project + "': a project name in a "
                        + "token has no spaces, commas, brackets or quotes (API Gateway passes a list claim as [a b c])");
            }
        }
        JWTClaimsSet claims = new JWTClaimsSet.Builder().issuer(issuer).audience(audience).subject("local-user")
                .issueTime(Date.from(now)).notBeforeTime(Date.from(now)).expirationTime(Date.from(now.plus(lifetime)))
                .jwtID(UUID.randomUUID().toString()).claim(claim, List.copyOf(projects)).build();
        SignedJWT token = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
        try {
            token.sign(new RSASSASigner(key));
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign a token", e);
        }
        return token.serialize();
    }

    /** Checks the token of an {@code Authorization} header value ({@code Bearer TOKEN} or the bare token). */
    public Outcome verify(String authorization, HttpApiRoutes.Jwt authorizer, Instant now) {
        if (authorization == null || authorization.isBlank()) {
            return new Refused("no token");
        }
        String compact = authorization.strip();
        if (compact.regionMatches(true, 0, "Bearer ", 0, 7)) {
            compact = compact.substring(7).strip();
        }
        SignedJWT token;
        JWTClaimsSet claims;
        try {
            token = SignedJWT.parse(compact);
            claims = token.getJWTClaimsSet();
        } catch (ParseException e) {
            return new Refused("not a signed JWT");
        }
        try {
            if (!JWSAlgorithm.RS256.equals(token.getHeader().getAlgorithm()) || !token.verify(new RSASSAVerifier(key.toRSAPublicKey()))) {
                return new Refused("not signed by the local key");
            }
        } catch (JOSEException e) {
            return new Refused("not signed by the local key");
        }
        if (!authorizer.issuer().equals(claims.getIssuer())) {
            return new Refused("issuer is not " + authorizer.issuer());
        }
        List<String> audiences = claims.getAudience() == null ? List.of() : claims.getAudience();
        Object clientId = claims.getClaim("client_id");
        if (audiences.stream().noneMatch(authorizer.audiences()::contains) && !(clientId instanceof String client && authorizer.audiences().contains(client))) {
            return new Refused("audience is not one of " + authorizer.audiences());
        }
        if (claims.getExpirationTime() == null || !now.isBefore(claims.getExpirationTime().toInstant().plus(LEEWAY))) {
            return new Refused("expired");
        }
        if (claims.getNotBeforeTime() != null && now.plus(LEEWAY).isBefore(claims.getNotBeforeTime().toInstant())) {
            return new Refused("not valid yet");
        }
        Map<String, String> passed = new LinkedHashMap<>();
        claims.getClaims().forEach((name, value) -> passed.put(name, claimText(value)));
        return new Verified(passed);
    }

    private static String claimText(Object value) {
        if (value instanceof List<?> list) {
            return "[" + String.join(" ", list.stream().map(String::valueOf).toList()) + "]";
        }
        if (value instanceof Date date) {
            return String.valueOf(date.toInstant().getEpochSecond());
        }
        return String.valueOf(value);
    }
}
