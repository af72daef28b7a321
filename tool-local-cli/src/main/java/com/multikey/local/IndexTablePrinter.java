package com.multikey.local;

import com.multikey.index.GridLayoutStore;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.KeyOrder;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Prints the index table as a text table, in key order, with its control characters made visible. */
final class IndexTablePrinter {

    /** The columns of the field-partitioned grid's items. */
    static final List<String> GRID_COLUMNS = List.of(IndexKey.ATTRIB_ID, IndexKey.SORT_KEY, IndexItem.ITEM_ID, IndexItem.PROJECT,
            IndexItem.NUM, IndexItem.VALUE);
    /** The columns of a grouped index's items. */
    static final List<String> GROUPED_COLUMNS = List.of(IndexKey.ATTRIB_ID, IndexKey.SORT_KEY, IndexItem.ITEM_KEY, IndexItem.VALUE,
            IndexItem.ATTRS);

    private IndexTablePrinter() {
    }

    /** The index items of the table in key order; not the grid layout's control item. */
    static List<Map<String, AttributeValue>> scan(DynamoDbClient dynamoDb, String table) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        dynamoDb.scanPaginator(b -> b.tableName(table)).items().stream().filter(item -> !GridLayoutStore.isControl(item)).forEach(items::add);
        items.sort((a, b) -> {
            int byAttrib = a.get("attribId").s().compareTo(b.get("attribId").s());
            return byAttrib != 0 ? byAttrib : KeyOrder.compare(a.get("sortKey").s(), b.get("sortKey").s());
        });
        return items;
    }

    /** With the columns of the field-partitioned grid's items when there are any, else a grouped index's. */
    static void print(PrintStream out, List<Map<String, AttributeValue>> items) {
        print(out, items, items.stream().anyMatch(item -> item.containsKey(IndexItem.ITEM_ID)) ? GRID_COLUMNS : GROUPED_COLUMNS);
    }

    static void print(PrintStream out, List<Map<String, AttributeValue>> items, List<String> columns) {
        String[] header = columns.toArray(String[]::new);
        List<String[]> rows = new ArrayList<>();
        rows.add(header);
        for (Map<String, AttributeValue> item : items) {
            String[] row = new String[header.length];
            for (int i = 0; i < header.length; i++) {
                row[i] = show(item.get(header[i]));
            }
            rows.add(row);
        }
        int[] widths = new int[header.length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        for (int r = 0; r < rows.size(); r++) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < header.length; i++) {
                line.append(i == 0 ? "" : " | ").append(String.format("%-" + widths[i] + "s", rows.get(r)[i]));
            }
            out.println(line.toString().stripTrailing());
            if (r == 0) {
                out.println("-".repeat(line.toString().stripTrailing().length()));
            }
        }
    }

    private static String text(AttributeValue value) {
        return switch (value.type()) {
            case S -> value.s();
            case N -> value.n();
            case BOOL -> value.bool().toString();
            case SS -> value.ss().toString();
            case NS -> value.ns().toString();
            case L -> value.l().stream().map(IndexTablePrinter::text).toList().toString();
            case M -> {
                StringBuilder map = new StringBuilder("{");
                new java.util.TreeMap<>(value.m()).forEach((name, v) -> map.append(map.length() > 1 ? ", " : "").append(name)
                        .append('=').append(text(v)));
                yield map.append('}').toString();
            }
            default -> value.toString();
        };
    }

    /** A value for a terminal: U+0001 as ␁, other control characters as \\uXXXX, long text shortened. */
    static String show(AttributeValue value) {
        if (value == null) {
            return "";
        }
        String text = text(value);
        StringBuilder out = new StringBuilder();
        text.codePoints().forEach(c -> {
            if (c == 1) {
                out.append('\u2401');
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", c));
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.length() > 60 ? out.substring(0, 57) + "..." : out.toString();
    }
}
