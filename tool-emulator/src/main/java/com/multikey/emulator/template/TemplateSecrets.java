package com.multikey.emulator.template;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Map;

/**
 * The template's {@code AWS::SecretsManager::Secret}s on this machine: each one a file {@code <directory>/<LogicalId>.json}
 * holding its secret string, made on first use as the stack makes it — from {@code SecretString}, or generated as
 * {@code GenerateSecretString} says ({@code SecretStringTemplate} with the generated text under {@code GenerateStringKey},
 * {@code PasswordLength}, the {@code Exclude*} settings and {@code IncludeSpace}) — and readable by its owner only.
 * A file that exists is kept, so a local stack started again keeps its secrets.
 */
public final class TemplateSecrets {

    public static final String SECRET_TYPE = "AWS::SecretsManager::Secret";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    private static final String LOWER = "abcdefghijklmnopqrstuvwxyz";
    private static final String DIGITS = "0123456789";
    private static final String PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

    private TemplateSecrets() {
    }

    /** Each secret of the template, by logical id: its file under {@code directory}, made now if it did not exist. */
    public static Map<String, Path> create(SamTemplate template, Path directory) {
        Map<String, Path> files = new java.util.LinkedHashMap<>();
        for (String id : template.resourcesOfType(SECRET_TYPE)) {
            files.put(id, loadOrCreate(directory.resolve(id + ".json"), template.properties(id), id));
        }
        return files;
    }

    static Path loadOrCreate(Path file, Map<?, ?> properties, String where) {
        if (Files.isRegularFile(file)) {
            return file;
        }
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Path temporary = Files.createTempFile(file.toAbsolutePath().getParent(), ".secret-", ".tmp");
            try {
                try {
                    Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-------"));
                } catch (UnsupportedOperationException notPosix) {
                    // a file system without POSIX permissions keeps its defaults
                }
                Files.writeString(temporary, secretString(properties, where), StandardCharsets.UTF_8);
                try {
                    // a link is made only where no file is (a rename would replace one another local stack made and
                    // may have read already)
                    Files.createLink(file, temporary);
                } catch (FileAlreadyExistsException madeMeanwhile) {
                    // another local stack made it first: theirs is kept
                } catch (UnsupportedOperationException | java.nio.file.FileSystemException noLinks) {
                    // a file system without hard links: a rename that refuses to replace a file
                    try {
                        Files.move(temporary, file);
                    } catch (FileAlreadyExistsException madeMeanwhile) {
                        // another local stack made it first: theirs is kept
                    }
                }
            } finally {
                Files.deleteIfExists(temporary);
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the local secret " + file, e);
        }
    }

    /** The secret string the stack would make from these properties. */
    static String secretString(Map<?, ?> properties, String where) {
        if (properties.get("SecretString") instanceof String given) {
            return given;
        }
        if (!(properties.get("GenerateSecretString") instanceof Map<?, ?> generate)) {
            throw new IllegalArgumentException(where + ": a secret needs SecretString or GenerateSecretString");
        }
        String text = generate(generate);
        if (generate.get("SecretStringTemplate") instanceof String template && generate.get("GenerateStringKey") instanceof String key) {
            try {
                JsonNode node = JSON.readTree(template);
                if (!(node instanceof ObjectNode object)) {
                    throw new IllegalArgumentException(where + ": SecretStringTemplate is a JSON object");
                }
                return object.put(key, text).toString();
            } catch (IOException e) {
                throw new IllegalArgumentException(where + ": SecretStringTemplate is not JSON", e);
            }
        }
        return text;
    }

    private static String generate(Map<?, ?> settings) {
        int length = settings.get("PasswordLength") == null ? 32 : Integer.parseInt(String.valueOf(settings.get("PasswordLength")));
        String excluded = settings.get("ExcludeCharacters") == null ? "" : String.valueOf(settings.get("ExcludeCharacters"));
        StringBuilder alphabet = new StringBuilder();
        if (!flag(settings, "ExcludeUppercase")) {
            alphabet.append(UPPER);
        }
        if (!flag(settings, "ExcludeLowercase")) {
            alphabet.append(LOWER);
        }
        if (!flag(settings, "ExcludeNumbers")) {
            alphabet.append(DIGITS);
        }
        if (!flag(settings, "ExcludePunctuation")) {
            alphabet.append(PUNCTUATION);
        }
        if (flag(settings, "IncludeSpace")) {
            alphabet.append(' ');
        }
        String characters = alphabet.chars().filter(c -> excluded.indexOf(c) < 0)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        if (characters.isEmpty() || length < 1 || length > 4096) {
            throw new IllegalArgumentException("GenerateSecretString leaves no characters, or a length outside 1-4096");
        }
        SecureRandom random = new SecureRandom();
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(characters.charAt(random.nextInt(characters.length())));
        }
        return text.toString();
    }

    private static boolean flag(Map<?, ?> settings, String name) {
        return Boolean.parseBoolean(String.valueOf(settings.get(name)));
    }
}
