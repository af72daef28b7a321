package com.multikey.emulator.auth;


import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks a request's Signature Version 4 signature (header form, {@code AWS4-HMAC-SHA256}) as API Gateway does for
 * {@code AWS_IAM} routes: the credential names a known access key, the API's region and the service
 * {@code execute-api}, the request
 * time is within {@link #MAX_SKEW} of now, and the signature is the one Signature Version 4 gives the same method,
 * path, query, signed headers and body with that key's secret (the canonical request, string to sign and signing key
 * of AWS's "Create a signed AWS API request", as every service but S3 computes them: the path encoded once more).
 */
public final class SigV4Verifier {

    /** The outcome of a check. */
    public sealed interface Outcome {
    }

    /** Signed with {@code accessKey} for {@code region}. */
    public record Verified(String accessKey, String region) implements Outcome {
    }

    /** Not signed, or not signed right: {@code reason} says which (for the operator, never for the caller). */
    public record Refused(String reason) implements Outcome {
    }

    /** How far the request's {@code X-Amz-Date} may be from now. */
    public static final Duration MAX_SKEW = Duration.ofMinutes(5);

    private static final Pattern AUTHORIZATION = Pattern.compile(
            "AWS4-HMAC-SHA256 Credential=([^/\\s]+)/(\\d{8})/([a-z0-9-]+)/([a-z0-9-]+)/aws4_request,\\s*"
                    + "SignedHeaders=([a-z0-9;-]+),\\s*Signature=([0-9a-f]{64})");
    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private final Map<String, String> secrets;
    private final String region;
    private final String service;
    private final Clock clock;

    /** Accepting the access keys of {@code secrets} (access key id to secret) for {@code service} in {@code region}. */
    public SigV4Verifier(Map<String, String> secrets, String region, String service, Clock clock) {
        this.secrets = Map.copyOf(secrets);
        this.region = region;
        this.service = service;
        this.clock = clock;
    }

    /**
     * @param uri     the request's URI as sent (path and query still percent-encoded)
     * @param headers the request's headers, names in lower case
     */
    public Outcome verify(String method, URI uri, Map<String, List<String>> headers, byte[] body) {
        return verify(method, uri.getRawPath(), uri.getRawQuery(), headers, body);
    }

    /**
     * @param rawPath  the request's path as sent (percent-encoded)
     * @param rawQuery the request's query string as sent, which need not be valid percent-encoding; null when none
     * @param headers  the request's headers, names in lower case
     */
    public Outcome verify(String method, String rawPath, String rawQuery, Map<String, List<String>> headers, byte[] body) {
        String authorization = first(headers, "authorization").orElse(null);
        if (authorization == null) {
            return new Refused("no Authorization header");
        }
        Matcher signed = AUTHORIZATION.matcher(authorization.strip());
        if (!signed.matches()) {
            return new Refused("Authorization is not an AWS4-HMAC-SHA256 signature");
        }
        String accessKey = signed.group(1);
        List<String> signedHeaders = Arrays.asList(signed.group(5).split(";"));
        String secret = secrets.get(accessKey);
        if (secret == null) {
            return new Refused("unknown access key");
        }
        if (!signed.group(3).equals(region)) {
            // a signature is bound to its region's signing key: one made for another region's API is not this API's
            return new Refused("signed for region " + signed.group(3) + ", not " + region);
        }
        if (!signed.group(4).equals(service)) {
            return new Refused("signed for service " + signed.group(4) + ", not " + service);
        }
        if (!signedHeaders.contains("host")) {
            return new Refused("the host header is not signed");
        }
        Instant date;
        try {
            date = AMZ_DATE.parse(first(headers, "x-amz-date").orElse(""), Instant::from);
        } catch (DateTimeParseException e) {
            return new Refused("no valid X-Amz-Date header");
        }
        if (!AMZ_DATE.format(date).startsWith(signed.group(2))) {
            return new Refused("the credential's date is not the request's");
        }
        if (Duration.between(date, clock.instant()).abs().compareTo(MAX_SKEW) > 0) {
            return new Refused("signature expired or not yet valid (X-Amz-Date more than " + MAX_SKEW.toMinutes() + " minutes from now)");
        }
        StringBuilder canonicalHeaders = new StringBuilder();
        for (String name : signedHeaders) {
            List<String> values = headers.get(name);
            if (values == null) {
                return new Refused("signed header " + name + " is missing");
            }
            canonicalHeaders.append(name).append(':')
                    .append(String.join(",", values.stream().map(value -> value.strip().replaceAll("\\s+", " ")).toList())).append('\n');
        }
        String canonicalRequest = String.join("\n", method.toUpperCase(Locale.ROOT), canonicalPath(rawPath),
                canonicalQuery(rawQuery), canonicalHeaders.toString(), signed.group(5), hex(sha256(body)));
        String scope = String.join("/", signed.group(2), region, service, "aws4_request");
        String stringToSign = String.join("\n", "AWS4-HMAC-SHA256", AMZ_DATE.format(date), scope,
                hex(sha256(canonicalRequest.getBytes(StandardCharsets.UTF_8))));
        byte[] key = hmac(("AWS4" + secret).getBytes(StandardCharsets.UTF_8), signed.group(2));
        key = hmac(key, region);
        key = hmac(key, service);
        key = hmac(key, "aws4_request");
        byte[] expected = hex(hmac(key, stringToSign)).getBytes(StandardCharsets.US_ASCII);
        if (!MessageDigest.isEqual(expected, signed.group(6).getBytes(StandardCharsets.US_ASCII))) {
            return new Refused("the signature does not match");
        }
        return new Verified(accessKey, region);
    }

    /** The path as signed by every service but S3: each segment of the path as sent, percent-encoded once more. */
    static String canonicalPath(String rawPath) {
        if (rawPath == null || rawPath.isEmpty()) {
            return "/";
        }
        return Arrays.stream(rawPath.split("/", -1)).map(SigV4Verifier::encode).collect(java.util.stream.Collectors.joining("/"));
    }

    /**
     * The query's parameters decoded, each name and value percent-encoded (RFC 3986), sorted by name then value. A
     * {@code +} is a space, as the function that answers reads it: so the signature of {@code a%2Bb} ("a+b") cannot
     * be replayed on {@code a+b}, which the function reads as "a b".
     */
    static String canonicalQuery(String rawQuery) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return "";
        }
        return Arrays.stream(rawQuery.split("&")).filter(pair -> !pair.isEmpty()).map(pair -> {
            int equals = pair.indexOf('=');
            String name = encode(decode(equals < 0 ? pair : pair.substring(0, equals)));
            String value = equals < 0 ? "" : encode(decode(pair.substring(equals + 1)));
            return new String[] {name, value};
        }).sorted(java.util.Comparator.<String[], String>comparing(pair -> pair[0]).thenComparing(pair -> pair[1]))
                .map(pair -> pair[0] + "=" + pair[1]).collect(java.util.stream.Collectors.joining("&"));
    }

    /** RFC 3986 percent-encoding: everything but the unreserved characters, in upper-case hex. */
    static String encode(String text) {
        StringBuilder out = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' || c == '~') {
                out.append(c);
            } else {
                out.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return out.toString();
    }

    private static String decode(String text) {
        try {
            return java.net.URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            return text;
        }
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] hmac(byte[] key, String text) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String hex(byte[] bytes) {
        return java.util.HexFormat.of().formatHex(bytes);
    }

    private static Optional<String> first(Map<String, List<String>> headers, String name) {
        List<String> values = headers.get(name);
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }
}
