package com.multikey.dynamodb.value;

import java.util.Arrays;

/** An immutable byte string with equality by content and DynamoDB's order (unsigned bytes). */
public final class Bytes implements Comparable<Bytes> {

    private final byte[] bytes;

    private Bytes(byte[] bytes) {
        this.bytes = bytes;
    }

    public static Bytes of(byte[] bytes) {
        return new Bytes(bytes.clone());
    }

    public byte[] toArray() {
        return bytes.clone();
    }

    public int length() {
        return bytes.length;
    }

    @Override
    public int compareTo(Bytes other) {
        return Arrays.compareUnsigned(bytes, other.bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Bytes other && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return java.util.Base64.getEncoder().encodeToString(bytes);
    }
}
