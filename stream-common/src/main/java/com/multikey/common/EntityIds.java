package com.multikey.common;

/** Entity types of the app table: an item's type is the prefix of its {@code id} before the first {@code #}. */
public final class EntityIds {

    private EntityIds() {
    }

    /** The entity type of an id: {@code issue#020e} gives {@code issue}; an id without {@code #} gives itself. */
    public static String typeOf(String id) {
        int hash = id.indexOf('#');
        return hash < 0 ? id : id.substring(0, hash);
    }
}
