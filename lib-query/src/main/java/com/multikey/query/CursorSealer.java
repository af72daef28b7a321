package com.multikey.query;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;

/**
 * Seals a cursor's content with AES-256-GCM so that a client can neither read it nor change it, nor use it for another
 * query or after its lifetime. A sealed cursor is the base64url text (no padding) of
 * <pre>version (1 byte) | key id length (1 byte) | key id (ASCII) | nonce (12 random bytes) | ciphertext and 16-byte tag</pre>
 * whose plaintext is the time it was sealed (epoch seconds, 8 bytes), the content's length (2 bytes), the content,
 * and zeros up to a multiple of {@value #BLOCK_BYTES} bytes (so its length tells little of the content's). The
 * associated data is the header above and the query's binding (what identifies the query a cursor belongs to), so
 * a cursor opens for that query alone.
 *
 * <p>A cursor that does not open — edited, cut, not base64url in its one canonical spelling, of an unknown key, for
 * another query, sealed more than the lifetime ago or in the future beyond the allowed clock skew — is refused with one
 * {@link QueryException} whose message names the cursor and says nothing about why, so it tells nothing of the keys.
 * Cursors sealed under a previous key open until they expire: a rotation keeps them valid for the lifetime.
 *
 * <p>With a reloading source of keys, a cursor under a key id this sealer does not know makes it load the keys again
 * (at most once per reload interval), so a container started before a rotation learns the new key from the first
 * cursor sealed under it; and keys older than the refresh interval are loaded again at the next seal or open, so a
 * container that sees no such cursor learns the rotation too.
 */
public final class CursorSealer {

    /** How long a cursor stays valid unless told otherwise. */
    public static final Duration DEFAULT_LIFETIME = Duration.ofHours(24);
    /** How far in the future a cursor's seal time may be: containers' clocks differ a little. */
    public static final Duration CLOCK_SKEW = Duration.ofMinutes(5);
    /** The least time between two reloads of the keys. */
    public static final Duration RELOAD_INTERVAL = Duration.ofMinutes(1);
    /**
     * How old reloading keys may get before the next seal or open reads them again, so that a rotation reaches a container
     * that sees no cursor under the new key: it stops sealing under the old one, and a key removed opens nothing more.
     */
    public static final Duration REFRESH_INTERVAL = Duration.ofMinutes(5);
    /** The message of every refused cursor. */
    public static final String REFUSED = "the cursor is not valid for this query: it was changed, made for another query "
            + "(project, group, index, entry, order or filter) or has expired; start again from the first page";

    static final byte VERSION = 1;
    static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    static final int BLOCK_BYTES = 64;
    private static final int MAX_CONTENT_BYTES = 0xFFFF;
    private static final byte[] LABEL = "multikey cursor".getBytes(StandardCharsets.US_ASCII);

    private final Supplier<CursorKeys> source;
    private volatile CursorKeys keys;
    private volatile Instant loaded;
    private final boolean reloads;
    private final Duration lifetime;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    private CursorSealer(Supplier<CursorKeys> source, boolean reloads, Duration lifetime, Clock clock) {
        if (lifetime.isNegative() || lifetime.isZero()) {
            throw new IllegalArgumentException("a cursor lifetime is positive, got " + lifetime);
        }
        this.source = source;
        this.reloads = reloads;
        this.lifetime = lifetime;
        this.clock = Objects.requireNonNull(clock, "clock");
        if (!reloads) {
            this.keys = Objects.requireNonNull(source.get(), "keys");
            this.loaded = clock.instant();
        }
    }

    /** Seals under these keys, cursors valid for {@code lifetime} as told by {@code clock}. */
    public CursorSealer(CursorKeys keys, Duration lifetime, Clock clock) {
        this(() -> keys, false, lifetime, clock);
    }

    /** Seals under these keys, cursors valid for {@link #DEFAULT_LIFETIME}. */
    public static CursorSealer of(CursorKeys keys) {
        return new CursorSealer(keys, DEFAULT_LIFETIME, Clock.systemUTC());
    }

    /**
     * Seals under the keys {@code source} gives, read at the first seal or open (not while a function initializes, so a
     * SnapStart snapshot holds no key), again when a cursor names a key id they lack, at most once per
     * {@link #RELOAD_INTERVAL}, and at the first seal or open after they are {@link #REFRESH_INTERVAL} old.
     */
    public static CursorSealer reloading(Supplier<CursorKeys> source, Duration lifetime, Clock clock) {
        return new CursorSealer(source, true, lifetime, clock);
    }

    public Duration lifetime() {
        return lifetime;
    }

    /** The cursor text of {@code content}, bound to {@code binding}, sealed under the current key now. */
    public String seal(byte[] content, String binding) {
        if (content.length > MAX_CONTENT_BYTES) {
            throw new IllegalArgumentException("a cursor's content is at most " + MAX_CONTENT_BYTES + " bytes");
        }
        CursorKeys.Key key = keys().current();
        byte[] header = header(key.id());
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        int plain = 8 + 2 + content.length;
        ByteBuffer plaintext = ByteBuffer.allocate((plain + BLOCK_BYTES - 1) / BLOCK_BYTES * BLOCK_BYTES);
        plaintext.putLong(clock.instant().getEpochSecond()).putShort((short) content.length).put(content);
        byte[] sealed = cipher(Cipher.ENCRYPT_MODE, key, nonce, header, binding).map(c -> {
            try {
                return c.doFinal(plaintext.array());
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("AES-GCM failed to seal", e);
            }
        }).orElseThrow();
        ByteBuffer cursor = ByteBuffer.allocate(header.length + NONCE_BYTES + sealed.length);
        cursor.put(header).put(nonce).put(sealed);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(cursor.array());
    }

    /**
     * The content of a cursor this sealer (or one with its keys) sealed for {@code binding} within the lifetime.
     *
     * @throws QueryException with {@link #REFUSED} for any other text
     */
    public byte[] open(String cursor, String binding) {
        byte[] bytes = decode(cursor);
        if (bytes.length < 2 || bytes[0] != VERSION) {
            throw refused();
        }
        int idLength = bytes[1] & 0xFF;
        int headerLength = 2 + idLength;
        if (idLength == 0 || bytes.length < headerLength + NONCE_BYTES + TAG_BITS / 8 + BLOCK_BYTES) {
            throw refused();
        }
        String id = new String(bytes, 2, idLength, StandardCharsets.US_ASCII);
        CursorKeys.Key key = key(id).orElseThrow(CursorSealer::refused);
        byte[] header = Arrays.copyOfRange(bytes, 0, headerLength);
        byte[] nonce = Arrays.copyOfRange(bytes, headerLength, headerLength + NONCE_BYTES);
        byte[] plaintext;
        try {
            plaintext = cipher(Cipher.DECRYPT_MODE, key, nonce, header, binding).orElseThrow()
                    .doFinal(bytes, headerLength + NONCE_BYTES, bytes.length - headerLength - NONCE_BYTES);
        } catch (AEADBadTagException e) {
            throw refused();
        } catch (GeneralSecurityException e) {
            throw refused();
        }
        ByteBuffer buffer = ByteBuffer.wrap(plaintext);
        Instant sealed = Instant.ofEpochSecond(buffer.getLong());
        Instant now = clock.instant();
        if (sealed.isAfter(now.plus(CLOCK_SKEW)) || !now.isBefore(sealed.plus(lifetime))) {
            throw refused();
        }
        int length = buffer.getShort() & 0xFFFF;
        if (length > buffer.remaining()) {
            throw refused();
        }
        byte[] content = new byte[length];
        buffer.get(content);
        return content;
    }

    private CursorKeys keys() {
        CursorKeys loadedKeys = keys;
        if (loadedKeys != null && !(reloads && stale(clock.instant()))) {
            return loadedKeys;
        }
        synchronized (this) {
            Instant now = clock.instant();
            if (keys == null) {
                CursorKeys first = Objects.requireNonNull(source.get(), "keys");
                loaded = now;
                keys = first;
            } else if (reloads && stale(now)) {
                loaded = now;
                keys = Objects.requireNonNull(source.get(), "keys");
            }
            return keys;
        }
    }

    private boolean stale(Instant now) {
        return !now.isBefore(loaded.plus(REFRESH_INTERVAL));
    }

    private Optional<CursorKeys.Key> key(String id) {
        Optional<CursorKeys.Key> key = keys().find(id);
        if (key.isPresent() || !reloads) {
            return key;
        }
        synchronized (this) {
            Instant now = clock.instant();
            if (keys.find(id).isEmpty() && !now.isBefore(loaded.plus(RELOAD_INTERVAL))) {
                loaded = now;
                keys = Objects.requireNonNull(source.get(), "keys");
            }
            return keys.find(id);
        }
    }

    /** Base64url without padding, in its one canonical spelling: a text that decodes but spells it otherwise is refused. */
    private static byte[] decode(String cursor) {
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(cursor);
        } catch (IllegalArgumentException e) {
            throw refused();
        }
        if (!Base64.getUrlEncoder().withoutPadding().encodeToString(bytes).equals(cursor)) {
            throw refused();
        }
        return bytes;
    }

    private static byte[] header(String id) {
        byte[] idBytes = id.getBytes(StandardCharsets.US_ASCII);
        byte[] header = new byte[2 + idBytes.length];
        header[0] = VERSION;
        header[1] = (byte) idBytes.length;
        System.arraycopy(idBytes, 0, header, 2, idBytes.length);
        return header;
    }

    private static Optional<Cipher> cipher(int mode, CursorKeys.Key key, byte[] nonce, byte[] header, String binding) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(mode, key.aesKey(), new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(LABEL);
            cipher.updateAAD(header);
            cipher.updateAAD(binding.getBytes(StandardCharsets.UTF_8));
            return Optional.of(cipher);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is required of every JVM", e);
        }
    }

    private static QueryException refused() {
        return new QueryException(QueryException.Subject.CURSOR, REFUSED);
    }
}
