package com.multikey.common;

import java.util.Map;

/** Reading settings from a function's environment. */
public final class Environment {

    private Environment() {
    }

    /** @throws IllegalStateException naming the variable, when it is missing or blank */
    public static String required(Map<String, String> environment, String name) {
        String value = environment.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(name + " is not set");
        }
        return value;
    }
}
