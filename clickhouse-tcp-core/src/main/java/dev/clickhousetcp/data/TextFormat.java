package dev.clickhousetcp.data;

import java.math.BigDecimal;

/**
 * Renders values the way ClickHouse's text output does ({@code src/IO/WriteHelpers.h}): floats in
 * shortest round-trip form, strings quoted and escaped inside composite values.
 */
public final class TextFormat {
    private TextFormat() {
    }

    /** Float64 text: shortest round-trip digits, {@code inf}, {@code -inf}, {@code nan}. */
    public static String formatDouble(double v) {
        if (Double.isNaN(v)) {
            return "nan";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        return formatShortest(shortest(Double.toString(v), x -> Double.parseDouble(x) == v), v == 0 && 1 / v < 0);
    }

    /** Float32 text, from the float's own shortest digits. */
    public static String formatFloat(float v) {
        if (Float.isNaN(v)) {
            return "nan";
        }
        if (Float.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        return formatShortest(shortest(Float.toString(v), x -> Float.parseFloat(x) == v), v == 0 && 1 / v < 0);
    }

    /**
     * The shortest decimal that reads back as the same value. {@code Double.toString} always keeps a
     * second digit (4.9E-324 where 5e-324 suffices) and on JDK 17 sometimes more digits than needed.
     */
    private static String shortest(String javaText, java.util.function.Predicate<String> roundTrips) {
        BigDecimal d = new BigDecimal(javaText);
        int digits = d.precision();
        for (int n = 1; n < digits; n++) {
            String candidate = d.round(new java.math.MathContext(n, java.math.RoundingMode.HALF_EVEN)).toString();
            if (roundTrips.test(candidate)) {
                return candidate;
            }
        }
        return javaText;
    }

    private static String formatShortest(String javaText, boolean negativeZero) {
        if (negativeZero) {
            return "-0";
        }
        BigDecimal d = new BigDecimal(javaText).stripTrailingZeros();
        if (d.signum() == 0) {
            return "0";
        }
        // decimal point position relative to the digit string: value = 0.digits * 10^exp10
        String digits = d.unscaledValue().abs().toString();
        int exp10 = digits.length() - d.scale(); // position of the decimal point after `exp10` digits
        String sign = d.signum() < 0 ? "-" : "";
        if (exp10 > 21 || exp10 < -5) {
            // exponential: d.ddde[-]x, no plus sign (as ClickHouse prints 1e21)
            int e = exp10 - 1;
            String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            return sign + mantissa + "e" + e;
        }
        if (exp10 <= 0) {
            return sign + "0." + "0".repeat(-exp10) + digits;
        }
        if (exp10 >= digits.length()) {
            return sign + digits + "0".repeat(exp10 - digits.length());
        }
        return sign + digits.substring(0, exp10) + "." + digits.substring(exp10);
    }

    /** Appends {@code s} as a single-quoted ClickHouse string literal (escaping {@code \} and {@code '}). */
    public static void appendQuoted(StringBuilder sb, String s) {
        sb.append('\'');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '\'' -> sb.append("\\'");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                case '\r' -> sb.append("\\r");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\0' -> sb.append("\\0");
                default -> sb.append(c);
            }
        }
        sb.append('\'');
    }

    /** Whether values of this column are quoted when nested in an Array/Tuple/Map text form. */
    static boolean quotedWhenNested(Column c) {
        Column base = c;
        while (true) {
            if (base instanceof NullableColumn n) {
                base = n.nested();
            } else if (base instanceof LowCardinalityColumn l) {
                base = l.dictionary();
            } else {
                break;
            }
        }
        return base instanceof StringColumn || base instanceof FixedStringColumn || base instanceof DateColumn
                || base instanceof DateTimeColumn || base instanceof DateTime64Column || base instanceof UuidColumn
                || base instanceof EnumColumn;
    }

    /** Appends row {@code row} of {@code c} as it appears nested inside a composite value. */
    static void appendNested(StringBuilder sb, Column c, int row) {
        if (c.isNull(row)) {
            sb.append("NULL");
        } else if (quotedWhenNested(c)) {
            appendQuoted(sb, c.getString(row));
        } else {
            sb.append(c.getString(row));
        }
    }
}
