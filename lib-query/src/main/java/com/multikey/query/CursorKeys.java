package com.multikey.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The keys cursors are sealed under: the current one, which seals, and the previous ones, which still open the cursors
 * they sealed until those expire. Each key has an id (1 to 32 of {@code A-Z a-z 0-9 . _ -}), written into the cursor in
 * clear so the right key opens it, and key material: a text of at least {@value #MIN_MATERIAL_CHARS} characters (a
 * generated secret string), from which the 256-bit AES key is derived with HMAC-SHA256.
 *
 * <p>The JSON form, which the stack's Secrets Manager secret and the local key file hold:
 * <pre>{"id": "2", "key": "…", "previous": [{"id": "1", "key": "…"}]}</pre>
 * The current key is at the top level because that is where Secrets Manager's {@code GenerateSecretString} puts the
 * text it generates; {@code previous} is optional.
 */
public final class CursorKeys {

    /** The shortest key material accepted: 32 characters of a generated secret string carry well over 128 bits. */
    public static final int MIN_MATERIAL_CHARS = 32;
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,32}");
    private static final byte[] DERIVATION_LABEL = "multikey cursor key v1".getBytes(StandardCharsets.US_ASCII);
    private static final String ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One key: its id and the AES key derived from its material. */
    public record Key(String id, SecretKey aesKey) {
        public Key {
            if (id == null || !ID.matcher(id).matches()) {
                throw new IllegalArgumentException("a cursor key id is 1 to 32 of A-Z a-z 0-9 . _ -");
            }
            Objects.requireNonNull(aesKey, "aesKey");
        }

        /**
         * The key of this id whose AES key is derived from {@code material} (at least 32 characters). Its messages name
         * neither the id nor the material: a secret written with the two swapped holds the material as its id.
         */
        public static Key of(String id, String material) {
            if (material == null || material.length() < MIN_MATERIAL_CHARS) {
                throw new IllegalArgumentException("a cursor key's material must be at least " + MIN_MATERIAL_CHARS + " characters");
            }
            return new Key(id, derive(material));
        }

        @Override
        public String toString() {
            return "CursorKeys.Key[id=" + id + "]";
        }
    }

    private final Key current;
    private final List<Key> previous;

    public CursorKeys(Key current, List<Key> previous) {
        this.current = Objects.requireNonNull(current, "current");
        this.previous = List.copyOf(previous);
        Set<String> ids = new HashSet<>();
        ids.add(current.id());
        for (Key key : this.previous) {
            if (!ids.add(key.id())) {
                throw new IllegalArgumentException("cursor key id '" + key.id() + "' is given twice");
            }
        }
    }

    /** One key, nothing previous. */
    public static CursorKeys of(Key current) {
        return new CursorKeys(current, List.of());
    }

    public Key current() {
        return current;
    }

    public List<Key> previous() {
        return previous;
    }

    /** The key of this id, current or previous. */
    public Optional<Key> find(String id) {
        if (current.id().equals(id)) {
            return Optional.of(current);
        }
        return previous.stream().filter(key -> key.id().equals(id)).findFirst();
    }

    /**
     * Reads the JSON form. Its messages name the field at fault, never a key's material.
     *
     * @throws IllegalArgumentException when the text is not that form
     */
    public static CursorKeys parse(String json) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (IOException e) {
            throw new IllegalArgumentException("the cursor keys are not JSON");
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("the cursor keys are a JSON object {\"id\", \"key\", \"previous\": [{\"id\", \"key\"}]}");
        }
        Key current = key(root, "the current key");
        List<Key> previous = new ArrayList<>();
        JsonNode list = root.path("previous");
        if (!list.isMissingNode() && !list.isNull()) {
            if (!list.isArray()) {
                throw new IllegalArgumentException("the cursor keys' previous is a list of {\"id\", \"key\"}");
            }
            for (JsonNode node : list) {
                previous.add(key(node, "a previous key"));
            }
        }
        return new CursorKeys(current, previous);
    }

    private static Key key(JsonNode node, String what) {
        if (!node.path("id").isTextual() || !node.path("key").isTextual()) {
            throw new IllegalArgumentException(what + " needs a text id and a text key");
        }
        return Key.of(node.get("id").asText(), node.get("key").asText());
    }

    /**
     * The keys in a file of the JSON form, made on first use with one generated key (id {@code 1}, 64 random letters
     * and digits), readable by its owner only where the file system has POSIX permissions.
     */
    public static CursorKeys loadOrCreate(Path file) {
        try {
            if (!Files.isRegularFile(file)) {
                Path directory = file.toAbsolutePath().getParent();
                Files.createDirectories(directory);
                Path temporary = Files.createTempFile(directory, ".cursor-keys-", ".tmp");
                try {
                    try {
                        Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-------"));
                    } catch (UnsupportedOperationException notPosix) {
                        // a file system without POSIX permissions keeps its defaults
                    }
                    Files.writeString(temporary, generatedJson("1"), StandardCharsets.UTF_8);
                    try {
                        // a link is made only where no file is (a rename would replace one another process made and
                        // may have sealed cursors under already)
                        Files.createLink(file, temporary);
                    } catch (java.nio.file.FileAlreadyExistsException madeMeanwhile) {
                        // another process made it first: use theirs
                    } catch (UnsupportedOperationException | java.nio.file.FileSystemException noLinks) {
                        // a file system without hard links: a rename that refuses to replace a file
                        try {
                            Files.move(temporary, file);
                        } catch (java.nio.file.FileAlreadyExistsException madeMeanwhile) {
                            // another process made it first: use theirs
                        }
                    }
                } finally {
                    Files.deleteIfExists(temporary);
                }
            }
            return parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or write the cursor key file " + file, e);
        }
    }

    /** The JSON form of one new key of this id: 64 random letters and digits, as the stack's generated secret has. */
    public static String generatedJson(String id) {
        SecureRandom random = new SecureRandom();
        StringBuilder material = new StringBuilder();
        for (int i = 0; i < 64; i++) {
            material.append(ALPHANUMERIC.charAt(random.nextInt(ALPHANUMERIC.length())));
        }
        ObjectNode node = JSON.createObjectNode().put("id", id).put("key", material.toString());
        return node.toString();
    }

    /** A key made now, for one process: its cursors open in this process only. */
    public static CursorKeys ephemeral() {
        return parse(generatedJson("ephemeral"));
    }

    private static SecretKey derive(String material) {
        try {
            Mac hmac = Mac.getInstance("HmacSHA256");
            hmac.init(new SecretKeySpec(material.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return new SecretKeySpec(hmac.doFinal(DERIVATION_LABEL), "AES");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is required of every JVM", e);
        }
    }

    @Override
    public String toString() {
        return "CursorKeys[current=" + current.id() + ", previous=" + previous.stream().map(Key::id).toList() + "]";
    }
}
