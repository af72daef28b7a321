package com.multikey.dynamodb.architecture;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine's packages depend on each other without cycles: read from the sources' imports (and their qualified
 * names; the root package, the engine's facade and its exceptions, is not counted), so that a package can be
 * understood, and replaced, from the ones below it.
 */
class PackageCyclesTest {

    private static final String ROOT = "com.multikey.dynamodb";
    private static final Path SOURCES = Path.of("src/main/java/com/multikey/dynamodb");
    private static final Pattern REFERENCE = Pattern.compile("\\b" + Pattern.quote(ROOT) + "\\.([a-z]+)\\.[A-Z]");

    @Test
    void packages_dependOnEachOther_withoutCycles() throws IOException {
        // given
        Map<String, Set<String>> dependencies = dependencies();

        // when
        List<List<String>> cycles = new ArrayList<>();
        for (String from : dependencies.keySet()) {
            for (String to : dependencies.get(from)) {
                if (from.compareTo(to) < 0 && reaches(dependencies, to, from, new TreeSet<>())) {
                    cycles.add(List.of(from, to));
                }
            }
        }

        // then
        assertThat(dependencies).containsKeys("table", "stream", "api");
        assertThat(cycles).as("packages that depend on each other").isEmpty();
    }

    @Test
    void stream_doesNotDependOnTable() throws IOException {
        assertThat(dependencies().get("stream")).doesNotContain("table");
    }

    private static boolean reaches(Map<String, Set<String>> dependencies, String from, String target, Set<String> seen) {
        if (from.equals(target)) {
            return true;
        }
        if (!seen.add(from)) {
            return false;
        }
        for (String next : dependencies.getOrDefault(from, Set.of())) {
            if (reaches(dependencies, next, target, seen)) {
                return true;
            }
        }
        return false;
    }

    /** Package (below the root; "" for the root) to the packages its sources name. */
    private static Map<String, Set<String>> dependencies() throws IOException {
        Map<String, Set<String>> dependencies = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Path relative = SOURCES.relativize(file.getParent());
                String pkg = relative.toString().replace('/', '.');
                Set<String> used = dependencies.computeIfAbsent(pkg, p -> new TreeSet<>());
                Matcher matcher = REFERENCE.matcher(Files.readString(file));
                while (matcher.find()) {
                    if (!matcher.group(1).equals(pkg)) {
                        used.add(matcher.group(1));
                    }
                }
            }
        }
        return dependencies;
    }
}
