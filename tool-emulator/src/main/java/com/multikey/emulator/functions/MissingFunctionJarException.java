package com.multikey.emulator.functions;

import java.nio.file.Path;

/** A function's {@code CodeUri} names a jar the build has not made yet; the message says to run {@code mvn package}. */
public final class MissingFunctionJarException extends IllegalStateException {

    private final String function;
    private final Path path;

    public MissingFunctionJarException(String function, Path path) {
        super(function + ": no jar at its CodeUri " + path + ": run 'mvn package' in the repository first "
                + "(scripts/with-jdk21 mvn -B package -DskipTests)");
        this.function = function;
        this.path = path;
    }

    public String function() {
        return function;
    }

    public Path path() {
        return path;
    }
}
