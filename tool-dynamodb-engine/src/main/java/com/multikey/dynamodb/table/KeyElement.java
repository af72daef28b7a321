package com.multikey.dynamodb.table;

/** One attribute of a key schema: its name and scalar type (S, N or B). */
public record KeyElement(String name, String type) {

    public KeyElement {
        if (!type.equals("S") && !type.equals("N") && !type.equals("B")) {
            throw new IllegalArgumentException("key type " + type);
        }
    }
}
