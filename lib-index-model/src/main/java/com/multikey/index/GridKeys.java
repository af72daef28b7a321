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
    private static final char ESCAPE = TextEncoding.ESCAPE;
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
        int shorterCut = Math.min(valueBytes, SortKeyCodec.MAX_VALUE_BYTES);
        String partitionTo = toGrouped ? groupedPartition : fieldPartition;
        String edge = cutTextEdge(value, shorterCut, ascending);
        if (edge != null) {
            return new Position(partitionTo, edge);
        }
        String reencoded = reencode(value, toGrouped ? valueBytes : SortKeyCodec.MAX_VALUE_BYTES);
        return toGrouped
                ? new Position(partitionTo, reencoded + SEPARATOR + "N" + num + SEPARATOR + TextEncoding.escape(id))
                : new Position(partitionTo, reencoded + SEPARATOR + (num.isEmpty() ? "" : num.substring(1) + SEPARATOR + unescape(id)));
    }

    /** An encoded value (never a cut text) encoded for another budget: numbers and booleans are never cut. */
    private static String reencode(String encoded, int valueBytes) {
        return encoded.startsWith("S") ? ValueEncoding.encode(new IndexValue.Text(decodeText(encoded).text()), valueBytes) : encoded;
    }

    /**
     * For a text value that reaches past the shorter layout's cut text (cut in either layout, or long enough to sort
     * differently against the texts cut there), the edge of every value sharing the cut text, on the side the reader has not read: the two layouts order such values differently (by more of their
     * text, or by their digest). Null for any other value.
     */
    private static String cutTextEdge(String encoded, int shorterCut, boolean ascending) {
        if (!encoded.startsWith("S")) {
            return null;
        }
        DecodedText decoded = decodeText(encoded);
        String prefix = TextEncoding.prefix(decoded.text(), shorterCut);
        // a text that reaches past the shorter cut sorts, against the texts cut there, by its next character in one layout
        // and by the cut's mark in the other
        if (!decoded.cut() && prefix.equals(TextEncoding.prefix(decoded.text(), Integer.MAX_VALUE / 2))) {
            return null;
        }
        return ascending ? prefix : prefix + TEXT_CEILING;
    }

    private record DecodedText(String text, boolean cut) {
    }

    /** The text of an encoded string value, up to its cut if it was cut. */
    private static DecodedText decodeText(String encoded) {
        StringBuilder text = new StringBuilder();
        for (int i = 1; i < encoded.length(); i++) {
            char c = encoded.charAt(i);
            if (c == ESCAPE && i + 1 < encoded.length()) {
                char next = encoded.charAt(++i);
                if (next == '~') {
                    return new DecodedText(text.toString(), true);
                }
                text.append((char) (next - 2));
            } else {
                text.append(c);
            }
        }
        return new DecodedText(text.toString(), false);
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
