package com.multikey.emulator.auth;

import com.multikey.emulator.template.HttpApiRoutes;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Tokens as the local issuer mints them, and the forged, expired or misdirected ones it refuses as API Gateway does. */
class LocalJwtIssuerTest {

    private static final String ISSUER = "https://issuer.example.invalid";
    private static final HttpApiRoutes.Jwt AUTHORIZER = new HttpApiRoutes.Jwt(ISSUER, List.of("the-api"));
    private static final Instant NOW = Instant.parse("2026-11-25T12:00:00Z");

    @TempDir
    static Path keys;
    private static LocalJwtIssuer issuer;
    private static RSAKey key;

    @BeforeAll
    static void load() throws Exception {
        issuer = LocalJwtIssuer.loadOrCreate(keys.resolve("key.json"));
        key = RSAKey.parse(Files.readString(keys.resolve("key.json"), StandardCharsets.UTF_8));
    }

    private static JWTClaimsSet.Builder claims() {
        return new JWTClaimsSet.Builder().issuer(ISSUER).audience("the-api").subject("user").claim("projects", List.of("p1"))
                .issueTime(Date.from(NOW.minusSeconds(60))).expirationTime(Date.from(NOW.plusSeconds(600)));
    }

    private static String rs256(JWTClaimsSet claims) throws Exception {
        SignedJWT token = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
        token.sign(new RSASSASigner(key));
        return token.serialize();
    }

    @Test
    void verify_aMintedToken_passesItsProjectsAsApiGatewayFlattensAnArray() {
        String token = issuer.mint(ISSUER, "the-api", "projects", List.of("p1", "project#2"), NOW, Duration.ofMinutes(5));

        assertThat(issuer.verify("Bearer " + token, AUTHORIZER, NOW)).isInstanceOfSatisfying(LocalJwtIssuer.Verified.class,
                verified -> assertThat(verified.claims()).containsEntry("projects", "[p1 project#2]"));
    }

    @Test
    void verify_forgedExpiredOrMisdirectedTokens_areRefused() throws Exception {
        String none = new PlainJWT(claims().build()).serialize();
        SignedJWT hs256 = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims().build());
        hs256.sign(new MACSigner(key.toRSAPublicKey().getEncoded()));
        String noExpiry = rs256(claims().expirationTime(null).build());
        String notYet = rs256(claims().notBeforeTime(Date.from(NOW.plusSeconds(60))).build());
        String expired = rs256(claims().expirationTime(Date.from(NOW)).build());
        String otherAudience = rs256(claims().audience("another-api").build());
        String otherIssuer = rs256(claims().issuer("https://elsewhere.invalid").build());

        for (String token : List.of(none, hs256.serialize(), noExpiry, notYet, expired, otherAudience, otherIssuer, "", "Bearer x.y.z")) {
            assertThat(issuer.verify("Bearer " + token, AUTHORIZER, NOW)).as(token).isInstanceOf(LocalJwtIssuer.Refused.class);
        }
    }

    @Test
    void verify_anAudienceArrayWithTheApiSecond_isVerified() throws Exception {
        String token = rs256(claims().audience(List.of("another-api", "the-api")).build());

        assertThat(issuer.verify("Bearer " + token, AUTHORIZER, NOW)).isInstanceOf(LocalJwtIssuer.Verified.class);
    }

    @Test
    void mint_aProjectNameTheFlattenedClaimCannotCarry_isRefused() {
        // a token for "team a" would pass "[team a]", which reads as the projects "team" and "a"
        for (String project : List.of("team a", "a,b", "[x]", "x]", "\"q\"", "tab\there", "")) {
            assertThatThrownBy(() -> issuer.mint(ISSUER, "the-api", "projects", List.of(project), NOW, Duration.ofMinutes(5)))
                    .as(project).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
