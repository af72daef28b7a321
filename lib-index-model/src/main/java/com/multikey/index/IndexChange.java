package com.multikey.index;

/** One write to the index table. */
public sealed interface IndexChange {

    IndexKey key();

    record Put(IndexItem item) implements IndexChange {
        @Override
        public IndexKey key() {
            return item.key();
        }
    }

    record Delete(IndexKey key) implements IndexChange {
    }
}
