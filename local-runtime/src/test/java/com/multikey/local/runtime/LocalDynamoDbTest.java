package com.multikey.local.runtime;

import com.amazonaws.services.dynamodbv2.local.shared.access.sqlite.SQLiteLibraryLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

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
        String dynamoDbLocalsBefore = System.getProperty(LocalDynamoDb.SQLITE_LIB_PATH);
        System.clearProperty("sqlite4java.library.path");
        System.clearProperty(LocalDynamoDb.SQLITE_LIB_PATH);
        try {
            LocalDynamoDb.ensureNativeLibrary();

            Path dir = Path.of(System.getProperty("sqlite4java.library.path"));
            assertThat(dir).isDirectory();
            assertThat(dir.toFile().list()).singleElement().asString().contains("sqlite4java");
            assertThat(Files.isRegularFile(dir.resolve(dir.toFile().list()[0]))).isTrue();
            assertThat(System.getProperty(LocalDynamoDb.SQLITE_LIB_PATH)).as("DynamoDB Local's own loader").isEqualTo(dir.toString());
        } finally {
            restore("sqlite4java.library.path", before);
            restore(LocalDynamoDb.SQLITE_LIB_PATH, dynamoDbLocalsBefore);
        }
    }

    @Test
    void aJvmThatStartedAndClosedDynamoDbLocal_leavesNothingInItsTemporaryDirectory(@TempDir Path dir) throws Exception {
        // given
        Path tmp = Files.createDirectory(dir.resolve("tmp"));
        Path output = dir.resolve("output.txt");

        // when
        Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"),
                StartAndClose.class.getName())
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();

        // then
        assertThat(jvm.waitFor(2, TimeUnit.MINUTES)).as("the JVM ended").isTrue();
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        assertThat(jvm.exitValue()).as(printed).isZero();
        assertThat(printed).as("the library was copied to the JVM's temporary directory").contains("library path " + tmp);
        try (var left = Files.list(tmp)) {
            assertThat(left).as(printed).isEmpty();
        }
    }

    /** Starts DynamoDB Local with the library copied from its jar, answers one request, closes it and ends the JVM. */
    static final class StartAndClose {
        public static void main(String[] args) {
            try (LocalDynamoDb local = LocalDynamoDb.start(); var dynamoDb = local.client()) {
                dynamoDb.listTables();
                System.out.println("library path " + System.getProperty("sqlite4java.library.path"));
            }
            // DynamoDB Local leaves non-daemon threads behind after close
            System.exit(0);
        }
    }

    private static void restore(String property, String value) {
        if (value == null) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, value);
        }
    }
}
