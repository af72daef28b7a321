package com.multikey.cli;

import com.multikey.query.Total;

import java.text.NumberFormat;
import java.util.Locale;

/** Counts as people read them in a grid: "1–25 of 1,234", "of 10,000+" for a lower bound. */
final class CountText {

    private CountText() {
    }

    /** A count with thousands separators, and a {@code +} when it is a lower bound. */
    static String of(long value, Total.Relation relation) {
        String digits = NumberFormat.getIntegerInstance(Locale.ROOT).format(value);
        return switch (relation) {
            case EQ -> digits;
            case GTE -> digits + "+";
        };
    }

    /**
     * Where a page stands in its request's total: on a first page, its positions ("1–25 of 1,234"; "0 of 0" when empty);
     * on a later page, whose offset a cursor does not tell, its size ("25 of 1,234").
     */
    static String range(int items, boolean firstPage, Total total) {
        String of = " of " + of(total.value(), total.relation());
        if (items == 0) {
            return "0" + of;
        }
        return (firstPage ? "1\u2013" + NumberFormat.getIntegerInstance(Locale.ROOT).format(items) : items + " item(s)") + of;
    }
}
