package com.multikey.local;

import com.multikey.index.KeyOrder;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Prints the index table as a text table, in key order, with its control characters made visible. */
final class IndexTablePrinter {

    private static final String[] COLUMNS = {"attribId", "sortKey", "issueId", "project", "num", "value"};

    private IndexTablePrinter() {
    }

    static List<Map<String, AttributeValue>> scan(DynamoDbClient dynamoDb, String table) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        dynamoDb.scanPaginator(b -> b.tableName(table)).items().forEach(items::add);
        items.sort((a, b) -> {
            int byAttrib = a.get("attribId").s().compareTo(b.get("attribId").s());
            return byAttrib != 0 ? byAttrib : KeyOrder.compare(a.get("sortKey").s(), b.get("sortKey").s());
        });
        return items;
    }

    static void print(PrintStream out, List<Map<String, AttributeValue>> items) {
        List<String[]> rows = new ArrayList<>();
        rows.add(COLUMNS);
        for (Map<String, AttributeValue> item : items) {
            String[] row = new String[COLUMNS.length];
            for (int i = 0; i < COLUMNS.length; i++) {
                row[i] = show(item.get(COLUMNS[i]));
            }
            rows.add(row);
        }
        int[] widths = new int[COLUMNS.length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        for (int r = 0; r < rows.size(); r++) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < COLUMNS.length; i++) {
                line.append(i == 0 ? "" : " | ").append(String.format("%-" + widths[i] + "s", rows.get(r)[i]));
            }
            out.println(line.toString().stripTrailing());
            if (r == 0) {
                out.println("-".repeat(line.toString().stripTrailing().length()));
            }
        }
    }

    /** A value for a terminal: U+0001 as ␁, other control characters as \\uXXXX, long text shortened. */
    static String show(AttributeValue value) {
        if (value == null) {
            return "";
        }
        String text = switch (value.type()) {
            case S -> value.s();
            case N -> value.n();
            case BOOL -> value.bool().toString();
            default -> value.toString();
        };
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
