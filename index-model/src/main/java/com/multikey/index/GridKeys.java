package com.multikey.index;

import com.multikey.index.definition.IndexDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;

/**
 * Positions in one of the issue grid's two layouts as positions in the other, so a reader's cursor carries over when its
 * stack moves the grid from the field-partitioned layout to the grouped one (or when two function instances see the
 * move a few seconds apart). Both layouts order a field's items by (value, num, issue id); the keys differ in the
 * partition ({@code F} against {@code <grid>|<project>|F}), in the value's cut (723 bytes against the grouped index's
 * budget), in the num's type tag and in the issue id's escaping. A position is exact unless its value is a text cut in
 * either layout (longer than the shorter cut): it then falls back to the edge of every value that shares the cut text,
 * on the side the reader has not passed yet, so nothing is lost and items of such values may be listed again.
 */
public final class GridKeys {

    private static final char SEPARATOR = SortKeyCodec.SEPARATOR;
    private static final char ESCAPE = SortKeyCodec.ESCAPE;
    /** Above every character a string value's encoding can hold. */
    private static final String TEXT_CEILING = "\uDBFF\uDFFF";

    private GridKeys() {
    }

    /** A position: the partition and sort key of an index key, not necessarily an existing item's. */
    public record Position(String partition, String sortKey) {
    }

    /**
     * The position in the {@code target} layout of a key of the other layout of the same project and field, or null when
     * the key is neither the other layout's partition of that field nor a sort key that layout writes.
     *
     * @param target     the grid layout read now
     * @param valueBytes the grouped grid's value budget ({@code IndexProjector.bounds(grid).valueBytes()})
     * @param ascending  the reader's order: a fallback position stays on the side it has not read yet
     */
    public static Position translate(IndexDefinition target, String project, String field, int valueBytes, boolean ascending,
                                     String partition, String sortKey) {
        String fieldPartition = field;
        String groupedPartition;
        try {
            groupedPartition = GroupedLayout.partition(target.name(), List.of(AttributeValue.fromS(project)), field);
        } catch (UnindexableValueException e) {
            return null;
        }
        boolean toGrouped = target.layout() == IndexDefinition.Layout.GROUPED;
        if (toGrouped && !partition.equals(fieldPartition)) {
            return null;
        }
        if (!toGrouped) {
            // a grouped grid partition of this project and field, whatever the grouped grid's name: it ends with "|<project>|<field>"
            String tail = groupedPartition.substring(target.name().length());
            if (!partition.endsWith(tail) || partition.length() == tail.length()) {
                return null;
            }
        }
        int first = sortKey.indexOf(SEPARATOR);
        int second = first < 0 ? -1 : sortKey.indexOf(SEPARATOR, first + 1);
        if (second < 0) {
            return null;
        }
        String value = sortKey.substring(0, first);
        String num = sortKey.substring(first + 1, second);
        String id = sortKey.substring(second + 1);
        return toGrouped
                ? new Position(groupedPartition, reencode(value, valueBytes, ascending) + SEPARATOR + "N" + num + SEPARATOR + escape(id))
                : new Position(fieldPartition, reencode(value, SortKeyCodec.MAX_VALUE_BYTES, ascending) + SEPARATOR
                + (num.isEmpty() ? "" : num.substring(1) + SEPARATOR + unescape(id)));
    }

    /** An encoded value re-encoded with another cut; for a cut text, the edge of every value sharing the shorter cut text. */
    private static String reencode(String encoded, int valueBytes, boolean ascending) {
        if (!encoded.startsWith("S")) {
            return encoded; // numbers and booleans are never cut
        }
        StringBuilder text = new StringBuilder();
        boolean cut = false;
        for (int i = 1; i < encoded.length(); i++) {
            char c = encoded.charAt(i);
            if (c == ESCAPE && i + 1 < encoded.length()) {
                char next = encoded.charAt(++i);
                if (next == '~') {
                    cut = true;
                    break;
                }
                text.append((char) (next - 2));
            } else {
                text.append(c);
            }
        }
        if (!cut) {
            return SortKeyCodec.encodeValue(new IndexValue.Text(text.toString()), valueBytes);
        }
        String prefix = SortKeyCodec.textPrefix(text.toString(), valueBytes);
        // the position's value sorts among those sharing the cut text: resume at their edge, on the unread side
        return ascending ? prefix : prefix + TEXT_CEILING;
    }

    private static String escape(String id) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c <= ESCAPE) {
                out.append(ESCAPE).append((char) (c + 2));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static String unescape(String id) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c == ESCAPE && i + 1 < id.length()) {
                out.append((char) (id.charAt(++i) - 2));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
