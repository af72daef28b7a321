package com.multikey.indexer;

import com.multikey.common.ChangeKind;
import com.multikey.common.ChangeRecord;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A change's version, by which the order-independent indexer tells the newer of two changes of one item
 * (docs/decisions/0024): the record's creation time, or a numeric version attribute of the table's own.
 */
public sealed interface ChangeVersion {

    /** The record's version; empty when it has none (the record's order cannot be known). */
    Optional<Long> of(ChangeRecord record);

    /** Whether versions are creation times in microseconds since the epoch (a removal's time is then its version). */
    boolean isCreationTime();

    /** Why a record without a version is skipped, for the record's log line. */
    String missing();

    /** {@code ApproximateCreationDateTime} in microseconds ({@link ChangeOrder#version}). */
    static ChangeVersion creationTime() {
        return CreationTime.INSTANCE;
    }

    /** The numeric attribute {@code name} of the item's image, or the creation time when {@code name} is empty. */
    static ChangeVersion fromSetting(String name) {
        return name == null || name.isBlank() ? creationTime() : new Attribute(name.strip());
    }

    /** The record's creation time to the microsecond. */
    enum CreationTime implements ChangeVersion {
        INSTANCE;

        @Override
        public Optional<Long> of(ChangeRecord record) {
            return ChangeOrder.version(record);
        }

        @Override
        public boolean isCreationTime() {
            return true;
        }

        @Override
        public String missing() {
            return "record has no ApproximateCreationDateTime: its order among the item's changes cannot be known";
        }
    }

    /**
     * A version attribute the table's writers raise on every write of an item (an optimistic-locking counter): a higher
     * value is a newer change. A write's version is its new image's value; a removal's is its old image's value, and it
     * comes after the write it removes: the version is {@code 2 × value}, plus one for a removal, so a removal is newer
     * than the write of the same value and older than any write of a higher one. At equal versions (a write that left
     * the value as it was) the tie rule of {@link ChangeOrder#follows} applies. The value must keep growing across a
     * removal and a re-creation of the item: a re-created item whose counter starts again below its removal's stays
     * removed. A value that is not an integer of at most 2^62 - 1, or an image without it, leaves the record without a
     * version.
     *
     * @param name the attribute's name (a top-level N attribute)
     */
    record Attribute(String name) implements ChangeVersion {

        private static final long MAX = (1L << 62) - 1;

        public Attribute {
            Objects.requireNonNull(name, "name");
        }

        @Override
        public Optional<Long> of(ChangeRecord record) {
            boolean removal = record.kind() == ChangeKind.REMOVE;
            Optional<Map<String, AttributeValue>> image = removal ? record.oldImage() : record.newImage();
            return image.map(values -> values.get(name)).flatMap(Attribute::integer)
                    .map(value -> 2 * value + (removal ? 1 : 0));
        }

        private static Optional<Long> integer(AttributeValue value) {
            if (value == null || value.n() == null) {
                return Optional.empty();
            }
            try {
                long n = new BigDecimal(value.n()).longValueExact();
                return n < 0 || n > MAX ? Optional.empty() : Optional.of(n);
            } catch (ArithmeticException | NumberFormatException e) {
                return Optional.empty();
            }
        }

        @Override
        public boolean isCreationTime() {
            return false;
        }

        @Override
        public String missing() {
            return "record has no version attribute '" + name + "' (a non-negative integer) in its image: its order among the item's "
                    + "changes cannot be known";
        }
    }
}
