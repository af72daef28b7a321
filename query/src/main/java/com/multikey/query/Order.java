package com.multikey.query;

/** Sort direction of a page: by the field's value, then num, then issue id. */
public enum Order {
    ASC, DESC
}
