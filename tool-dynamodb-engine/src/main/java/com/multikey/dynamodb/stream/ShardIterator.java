package com.multikey.dynamodb.stream;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

/**
 * A shard iterator: where a reader is in a stream (after which sequence number) and when the iterator was
 * issued, written as an opaque token. AWS's iterators expire 15 minutes after they are issued.
 */
public record ShardIterator(String streamArn, String shardId, long after, Instant issued) {

    public static final Duration LIFETIME = Duration.ofMinutes(15);

    public String encode() {
        String plain = streamArn + "|" + shardId + "|" + after + "|" + issued.toEpochMilli();
        return Base64.getUrlEncoder().withoutPadding().encodeToString(plain.getBytes(StandardCharsets.UTF_8));
    }

    /** Empty when the text is not an iterator this engine issued. */
    public static Optional<ShardIterator> decode(String text) {
        try {
            String plain = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8);
            String[] parts = plain.split("\\|");
            if (parts.length != 4) {
                return Optional.empty();
            }
            return Optional.of(new ShardIterator(parts[0], parts[1], Long.parseLong(parts[2]),
                    Instant.ofEpochMilli(Long.parseLong(parts[3]))));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    public boolean expired(Instant now) {
        return issued.plus(LIFETIME).isBefore(now);
    }
}
