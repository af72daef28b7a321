package com.multikey.index;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;

/** DynamoDB's order of string keys: their UTF-8 bytes, compared unsigned. */
public final class KeyOrder {

    public static final Comparator<String> UTF8 = KeyOrder::compare;

    private KeyOrder() {
    }

    public static int compare(String a, String b) {
        return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }
}
