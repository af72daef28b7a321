package com.multikey.emulator.functions;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;

/**
 * A jar's class files read as bytes, never loaded: which classes each one names (its constant pool, field and
 * method types included), what the jar's code can reach that the jar lacks, and the class file versions. The
 * jar tests use it to prove a trimmed deployable jar still holds every class its function can reach.
 */
final class JarClassFiles {

    private static final Pattern TYPE_IN_DESCRIPTOR = Pattern.compile("L([\\w/$]+);");

    private final Path path;

    private JarClassFiles(Path path) {
        this.path = path;
    }

    static JarClassFiles of(Path jar) {
        return new JarClassFiles(jar);
    }

    /**
     * Classes that code in the jar can reach but that are not in it, among the packages a build leaves out
     * in part ({@code trimmed}, e.g. an SDK service package). Reach is followed through every class the jar
     * holds, starting from all of them but those {@code keptIfReached} selects (classes kept only because
     * something reaches them, e.g. a service's model), by the classes each one names in its constant pool,
     * field and method types included. It is not followed out of a {@code cut} class: an SDK client, whose
     * methods for the operations the function never calls are the only code naming what was left out (the
     * JVM loads, without linking, the classes it must check them against: the invocation proves those are
     * in). Nor is it followed out of a class {@code loadedOnly} selects when code of a trimmed package names
     * it: e.g. the request of an operation never called, which the SDK only checks a request's type against
     * (code outside the trimmed packages, which could build one, is followed through it).
     *
     * @return missing class by a class that names it
     */
    Map<String, String> missingReachableClasses(List<String> trimmed, Predicate<String> keptIfReached,
                                                       Predicate<String> loadedOnly, Set<String> cut) {
        Map<String, Set<String>> references = new HashMap<>();
        try (JarFile jar = new JarFile(path.toFile())) {
            for (ZipEntry entry : jar.stream().toList()) {
                String name = entry.getName();
                if (name.endsWith(".class") && !name.startsWith("META-INF/")) {
                    try (InputStream in = jar.getInputStream(entry)) {
                        references.put(name.substring(0, name.length() - ".class".length()), classesNamedBy(in.readAllBytes()));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
        Predicate<String> inTrimmed = name -> trimmed.stream().anyMatch(name::startsWith);
        Map<String, String> missing = new TreeMap<>();
        Set<String> followed = new HashSet<>();
        Deque<String> pending = new ArrayDeque<>();
        references.keySet().stream().filter(keptIfReached.negate()).forEach(pending::add);
        while (!pending.isEmpty()) {
            String type = pending.pop();
            if (!followed.add(type) || cut.contains(type)) {
                continue;
            }
            boolean trimmedCode = inTrimmed.test(type);
            for (String named : references.get(type)) {
                if (!references.containsKey(named)) {
                    if (inTrimmed.test(named)) {
                        missing.putIfAbsent(named, type);
                    }
                } else if (!(trimmedCode && loadedOnly.test(named))) {
                    pending.add(named);
                }
            }
        }
        return missing;
    }

    /** Classes whose class file version is above the given one (Java 21 is 65), outside META-INF/versions. */
    Map<String, Integer> classesNewerThan(int classFileMajorVersion) {
        Map<String, Integer> newer = new TreeMap<>();
        try (JarFile jar = new JarFile(path.toFile())) {
            for (ZipEntry entry : jar.stream().toList()) {
                if (entry.getName().endsWith(".class") && !entry.getName().startsWith("META-INF/")) {
                    try (DataInputStream in = new DataInputStream(jar.getInputStream(entry))) {
                        in.readInt();
                        in.readUnsignedShort();
                        int major = in.readUnsignedShort();
                        if (major > classFileMajorVersion) {
                            newer.put(entry.getName(), major);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
        return newer;
    }

    /** Internal names of the classes a class file names: class constants and the types in its descriptors. */
    static Set<String> classesNamedBy(byte[] classFile) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
        in.skipBytes(8);
        int count = in.readUnsignedShort();
        Map<Integer, String> utf8 = new HashMap<>();
        Set<Integer> classNames = new HashSet<>();
        Set<Integer> descriptors = new HashSet<>();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8.put(i, in.readUTF());
                case 3, 4 -> in.skipBytes(4);
                case 5, 6 -> {
                    in.skipBytes(8);
                    i++;
                }
                case 7 -> classNames.add(in.readUnsignedShort());
                case 16 -> descriptors.add(in.readUnsignedShort());
                case 8, 19, 20 -> in.skipBytes(2);
                case 12 -> {
                    in.skipBytes(2);
                    descriptors.add(in.readUnsignedShort());
                }
                case 9, 10, 11, 17, 18 -> in.skipBytes(4);
                case 15 -> in.skipBytes(3);
                default -> throw new IOException("unknown constant pool tag " + tag);
            }
        }
        Set<String> named = new HashSet<>();
        for (int index : classNames) {
            String name = utf8.get(index);
            if (name.startsWith("[")) {
                addTypes(name, named);
            } else {
                named.add(name);
            }
        }
        descriptors.forEach(index -> addTypes(utf8.get(index), named));
        // the class's own field and method descriptors are UTF-8 constants named by no other constant
        utf8.values().stream()
                .filter(s -> s.startsWith("(") || s.startsWith("[") || (s.startsWith("L") && s.endsWith(";")))
                .forEach(s -> addTypes(s, named));
        return named;
    }

    private static void addTypes(String descriptor, Set<String> into) {
        Matcher matcher = TYPE_IN_DESCRIPTOR.matcher(descriptor);
        while (matcher.find()) {
            into.add(matcher.group(1));
        }
    }
}
