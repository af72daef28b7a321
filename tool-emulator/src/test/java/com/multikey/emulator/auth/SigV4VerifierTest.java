package com.multikey.emulator.auth;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The canonical parts and the check itself, on the "get-vanilla" case of AWS's Signature Version 4 test suite. */
class SigV4VerifierTest {

    private static final String SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
    private static final Instant WHEN = Instant.parse("2015-08-30T12:36:00Z");
    private static final String VANILLA = "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
            + "SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31";

    private final SigV4Verifier verifier = new SigV4Verifier(Map.of("AKIDEXAMPLE", SECRET), "us-east-1", "service", Clock.fixed(WHEN, ZoneOffset.UTC));

    private static Map<String, List<String>> headers(String authorization) {
        return Map.of("host", List.of("example.amazonaws.com"), "x-amz-date", List.of("20150830T123600Z"), "authorization",
                List.of(authorization));
    }

    @Test
    void theTestSuitesVanillaGet_isVerified() {
        assertThat(verifier.verify("GET", URI.create("/"), headers(VANILLA), new byte[0]))
                .isEqualTo(new SigV4Verifier.Verified("AKIDEXAMPLE", "us-east-1"));
    }

    @Test
    void anyChangeToWhatWasSigned_isRefused() {
        assertThat(verifier.verify("POST", URI.create("/"), headers(VANILLA), new byte[0])).isInstanceOf(SigV4Verifier.Refused.class);
        assertThat(verifier.verify("GET", URI.create("/?a=b"), headers(VANILLA), new byte[0])).isInstanceOf(SigV4Verifier.Refused.class);
        assertThat(verifier.verify("GET", URI.create("/x"), headers(VANILLA), new byte[0])).isInstanceOf(SigV4Verifier.Refused.class);
        assertThat(verifier.verify("GET", URI.create("/"), headers(VANILLA), new byte[] {1})).isInstanceOf(SigV4Verifier.Refused.class);
        assertThat(verifier.verify("GET", URI.create("/"), headers(VANILLA.replace("5fa00", "5fa01")), new byte[0]))
                .isEqualTo(new SigV4Verifier.Refused("the signature does not match"));
    }

    @Test
    void aRequestOutsideFiveMinutesOfNow_anUnknownKey_andAnotherService_areRefused() {
        SigV4Verifier later = new SigV4Verifier(Map.of("AKIDEXAMPLE", SECRET), "us-east-1", "service",
                Clock.fixed(WHEN.plusSeconds(301), ZoneOffset.UTC));
        assertThat(later.verify("GET", URI.create("/"), headers(VANILLA), new byte[0])).isInstanceOf(SigV4Verifier.Refused.class);
        assertThat(new SigV4Verifier(Map.of("OTHER", SECRET), "us-east-1", "service", Clock.fixed(WHEN, ZoneOffset.UTC))
                .verify("GET", URI.create("/"), headers(VANILLA), new byte[0])).isEqualTo(new SigV4Verifier.Refused("unknown access key"));
        assertThat(new SigV4Verifier(Map.of("AKIDEXAMPLE", SECRET), "us-east-1", "execute-api", Clock.fixed(WHEN, ZoneOffset.UTC))
                .verify("GET", URI.create("/"), headers(VANILLA), new byte[0])).isInstanceOf(SigV4Verifier.Refused.class);
        assertThat(verifier.verify("GET", URI.create("/"), Map.of("host", List.of("example.amazonaws.com")), new byte[0]))
                .isEqualTo(new SigV4Verifier.Refused("no Authorization header"));
    }

    @Test
    void canonicalQuery_sortsByNameThenValue_andEncodesAsRfc3986() {
        assertThat(SigV4Verifier.canonicalQuery("b=2&a=z&a=y&project=project%231&s=a b&t=x%20y&e="))
                .isEqualTo("a=y&a=z&b=2&e=&project=project%231&s=a%20b&t=x%20y");
        assertThat(SigV4Verifier.canonicalPath("/v1/indexes/a%20b/items")).isEqualTo("/v1/indexes/a%2520b/items");
    }

    private static final Instant NOW = Instant.parse("2026-11-25T13:02:23Z");

    /** The headers of a GET of {@code uri} signed by the AWS SDK's own signer, for {@code region}, names in lower case. */
    private static Map<String, List<String>> sdkSigned(String uri, String region) {
        SdkHttpFullRequest request = SdkHttpFullRequest.builder().method(SdkHttpMethod.GET).uri(URI.create("http://127.0.0.1:4000" + uri)).build();
        var signed = AwsV4HttpSigner.create().sign(r -> r.request(request).identity(AwsCredentialsIdentity.create("AKIDEXAMPLE", SECRET))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "execute-api").putProperty(AwsV4HttpSigner.REGION_NAME, region)
                .putProperty(AwsV4HttpSigner.SIGNING_CLOCK, Clock.fixed(NOW, ZoneOffset.UTC)));
        Map<String, List<String>> headers = new java.util.HashMap<>();
        signed.request().headers().forEach((name, values) -> headers.put(name.toLowerCase(java.util.Locale.ROOT), values));
        return headers;
    }

    private final SigV4Verifier api = new SigV4Verifier(Map.of("AKIDEXAMPLE", SECRET), "us-east-1", "execute-api", Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void verify_whenAPlusReplacesTheSignedPercent2B_isRefused() {
        // given: a signature for project "a+b" (a plus sign, %2B), which every reader of the query takes as "a b" once it is a '+'
        Map<String, List<String>> headers = sdkSigned("/v1/grid?project=a%2Bb&field=f", "us-east-1");
        assertThat(api.verify("GET", URI.create("/v1/grid?project=a%2Bb&field=f"), headers, new byte[0]))
                .isInstanceOf(SigV4Verifier.Verified.class);
        // when, then
        assertThat(api.verify("GET", URI.create("/v1/grid?project=a+b&field=f"), headers, new byte[0]))
                .isInstanceOf(SigV4Verifier.Refused.class);
    }

    @Test
    void verify_whenTheSpaceIsSentAsPlusOrAsPercent20_acceptsTheSdksSignatureForEither() {
        Map<String, List<String>> headers = sdkSigned("/v1/grid?project=a%20b&field=f", "us-east-1");
        assertThat(api.verify("GET", URI.create("/v1/grid?project=a%20b&field=f"), headers, new byte[0]))
                .isInstanceOf(SigV4Verifier.Verified.class);
        assertThat(api.verify("GET", URI.create("/v1/grid?project=a+b&field=f"), headers, new byte[0]))
                .isInstanceOf(SigV4Verifier.Verified.class);
    }

    @Test
    void verify_whenSignedForAnotherRegion_isRefused() {
        Map<String, List<String>> headers = sdkSigned("/v1/indexes", "eu-west-3");
        assertThat(api.verify("GET", URI.create("/v1/indexes"), headers, new byte[0])).isInstanceOf(SigV4Verifier.Refused.class);
    }

    @Test
    void verify_whenTheDateIsMalformedOrOtherThanTheCredentialsOrADuplicateIsAdded_isRefused() {
        Map<String, List<String>> headers = sdkSigned("/v1/indexes", "us-east-1");
        String authorization = headers.get("authorization").get(0);
        Map<String, List<String>> malformed = new java.util.HashMap<>(headers);
        malformed.put("x-amz-date", List.of("2026-11-25T13:02:23Z"));
        Map<String, List<String>> otherDay = new java.util.HashMap<>(headers);
        otherDay.put("authorization", List.of(authorization.replace("/20261125/", "/20261124/")));
        Map<String, List<String>> duplicated = new java.util.HashMap<>(headers);
        duplicated.put("x-amz-date", List.of("20261125T130223Z", "20261125T130224Z"));
        Map<String, List<String>> secondHost = new java.util.HashMap<>(headers);
        secondHost.put("host", List.of("127.0.0.1:4000", "evil.example"));

        for (Map<String, List<String>> changed : List.of(malformed, otherDay, duplicated, secondHost)) {
            assertThat(api.verify("GET", URI.create("/v1/indexes"), changed, new byte[0])).isInstanceOf(SigV4Verifier.Refused.class);
        }
        assertThat(api.verify("get", URI.create("/v1/indexes"), headers, new byte[0])).isInstanceOf(SigV4Verifier.Verified.class);
    }

    @Test
    void verify_repeatedEmptyAndNonAsciiParameters_andEncodedSlashesInThePath_areSignedAsTheSdkSignsThem() {
        for (String uri : List.of("/v1/grid?project=p&project=p&field=", "/v1/grid?project=%C3%A9t%C3%A9&field=%E2%82%AC",
                "/v1/indexes/a%2Fb/items?group=x%2Fy", "/v1/indexes/a.b/items?group=..", "/v1/grid?field&project=p")) {
            Map<String, List<String>> headers = sdkSigned(uri, "us-east-1");
            assertThat(api.verify("GET", URI.create(uri), headers, new byte[0])).as(uri).isInstanceOf(SigV4Verifier.Verified.class);
            assertThat(api.verify("GET", URI.create(uri + "&x=1"), headers, new byte[0])).as(uri).isInstanceOf(SigV4Verifier.Refused.class);
        }
    }
}
