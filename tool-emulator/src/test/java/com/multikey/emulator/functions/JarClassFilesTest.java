package com.multikey.emulator.functions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import static org.assertj.core.api.Assertions.assertThat;

class JarClassFilesTest {

    private static final String SAMPLES = "com/multikey/emulator/functions/JarClassFilesTest$";
    private static final String REACHES = internalName(Reaches.class);
    private static final String REACHED = internalName(Reached.class);

    @TempDir
    Path dir;

    static final class Reaches {
        Reached reached;
    }

    static final class Reached {
    }

    @Test
    void classesNamedBy_whenAFieldHasAType_namesThatType() throws IOException {
        // given
        byte[] classFile = classFile(Reaches.class);

        // when
        Set<String> named = JarClassFiles.classesNamedBy(classFile);

        // then
        assertThat(named).contains(REACHED).doesNotContain("java/lang/String");
    }

    @Test
    void missingReachableClasses_whenAReachedClassIsLeftOut_namesItAndTheClassReachingIt() throws IOException {
        // given
        Path jar = jar("reaches-only.jar", Reaches.class);

        // when / then
        assertThat(JarClassFiles.of(jar).missingReachableClasses(List.of(SAMPLES), name -> false, name -> false, Set.of()))
                .containsExactlyEntriesOf(Map.of(REACHED, REACHES));
    }

    @Test
    void missingReachableClasses_whenTheReachedClassIsIn_isEmpty() throws IOException {
        Path jar = jar("both.jar", Reaches.class, Reached.class);

        assertThat(JarClassFiles.of(jar).missingReachableClasses(List.of(SAMPLES), name -> false, name -> false, Set.of())).isEmpty();
    }

    @Test
    void missingReachableClasses_whenTheReachingClassIsCutOrOnlyKeptIfReached_isEmpty() throws IOException {
        Path jar = jar("reaches-only.jar", Reaches.class);
        JarClassFiles classFiles = JarClassFiles.of(jar);

        assertThat(classFiles.missingReachableClasses(List.of(SAMPLES), name -> false, name -> false, Set.of(REACHES))).isEmpty();
        assertThat(classFiles.missingReachableClasses(List.of(SAMPLES), REACHES::equals, name -> false, Set.of())).isEmpty();
        assertThat(classFiles.missingReachableClasses(List.of("org/example/"), name -> false, name -> false, Set.of()))
                .as("a missing class outside the trimmed packages").isEmpty();
    }

    @Test
    void classesNewerThan_namesTheClassesAboveTheVersion() throws IOException {
        Path jar = jar("both.jar", Reaches.class, Reached.class);

        assertThat(JarClassFiles.of(jar).classesNewerThan(64)).containsOnlyKeys(REACHES + ".class", REACHED + ".class")
                .containsValues(65);
        assertThat(JarClassFiles.of(jar).classesNewerThan(65)).isEmpty();
    }

    private Path jar(String name, Class<?>... classes) throws IOException {
        Path jar = dir.resolve(name);
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream entries = new JarOutputStream(out)) {
            for (Class<?> type : classes) {
                entries.putNextEntry(new JarEntry(internalName(type) + ".class"));
                entries.write(classFile(type));
                entries.closeEntry();
            }
        }
        return jar;
    }

    private static byte[] classFile(Class<?> type) throws IOException {
        try (InputStream in = type.getClassLoader().getResourceAsStream(internalName(type) + ".class")) {
            return in.readAllBytes();
        }
    }

    private static String internalName(Class<?> type) {
        return type.getName().replace('.', '/');
    }
}
