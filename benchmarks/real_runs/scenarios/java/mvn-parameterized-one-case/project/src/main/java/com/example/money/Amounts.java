package com.example.money;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/** Formats minor-unit amounts for display on invoices. */
public final class Amounts {
    private Amounts() {}

    /** Cents to a display string with a thousands separator, e.g. 123456 -> "1,234.56". */
    public static String format(long cents) {
        BigDecimal value = BigDecimal.valueOf(cents).movePointLeft(2);
        // BUG: negative amounts lose their sign grouping because the pattern is applied to abs()
        String body = String.format(Locale.US, "%,.2f", value.abs().setScale(2, RoundingMode.HALF_UP));
        return cents < 0 ? "(" + body + ")" : body;
    }

    public static long parse(String text) {
        String t = text.replace(",", "").trim();
        boolean negative = t.startsWith("-");
        return new BigDecimal(t).movePointRight(2).longValueExact() * (negative ? 1 : 1);
    }
}
