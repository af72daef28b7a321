package com.multikey.query;

/**
 * Sort direction of a page: by the index's value, then its tie-breakers, then the item key (for the grid: value, num,
 * id).
 */
public enum Order {
    ASC, DESC
}
