package com.multikey.local.runtime;

import com.amazonaws.services.dynamodbv2.local.shared.access.sqlite.SQLiteLibraryLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class LocalDynamoDbTest {

    @ParameterizedTest
    @ValueSource(strings = {"Linux/x86_64/libsqlite4java.so", "Linux/aarch64/libsqlite4java.so", "Linux/x86/libsqlite4java.so",
            "Mac/x86_64/libsqlite4java.dylib", "Mac/aarch64/libsqlite4java.dylib",
            "Windows/x86_64/sqlite4java.dll", "Windows/x86/sqlite4java.dll"})
    void dynamoDbLocalsJar_shipsTheNativeLibraryOfEachPlatform(String library) {
        String resource = "/" + SQLiteLibraryLoader.class.getPackageName().replace('.', '/') + "/native/" + library;

        assertThat(SQLiteLibraryLoader.class.getResource(resource)).as(resource).isNotNull();
    }

    @Test
    void ensureNativeLibrary_whenNoFolderIsConfigured_takesThisPlatformsFromDynamoDbLocalsJar() {
        String before = System.getProperty("sqlite4java.library.path");
        System.clearProperty("sqlite4java.library.path");
        try {
            LocalDynamoDb.ensureNativeLibrary();

            Path dir = Path.of(System.getProperty("sqlite4java.library.path"));
            assertThat(dir).isDirectory();
            assertThat(dir.toFile().list()).singleElement().asString().contains("sqlite4java");
            assertThat(Files.isRegularFile(dir.resolve(dir.toFile().list()[0]))).isTrue();
        } finally {
            if (before != null) {
                System.setProperty("sqlite4java.library.path", before);
            }
        }
    }
}
