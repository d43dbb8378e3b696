package dev.clickhousetcp.data;

import java.math.BigDecimal;

/**
 * Renders values the way ClickHouse's text output does ({@code src/IO/WriteHelpers.h}): floats in
 * shortest round-trip form, strings quoted and escaped inside composite values.
 */
public final class TextFormat {
    private TextFormat() {
    }

    /**
     * Float64 text: shortest round-trip digits, {@code inf}, {@code -inf}, {@code nan}.
     *
     * @param v the value
     * @return the text, e.g. {@code 0.1}, {@code 1e21}, {@code -0}; exponent form only for magnitudes below 1e-6
     *         or from 1e21
     */
    public static String formatDouble(double v) {
        if (Double.isNaN(v)) {
            return "nan";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        return formatShortest(shortest(Double.toString(v), () -> new BigDecimal(v), Math.ulp(v) / Math.abs(v),
                x -> Double.parseDouble(x) == v), v == 0 && 1 / v < 0);
    }

    /**
     * Float32 text, from the float's own shortest digits.
     *
     * @param v the value
     * @return the text, e.g. {@code 0.1} for {@code 0.1f} (not the widened double's digits), {@code nan},
     *         {@code inf}, {@code -inf}
     */
    public static String formatFloat(float v) {
        if (Float.isNaN(v)) {
            return "nan";
        }
        if (Float.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        return formatShortest(shortest(Float.toString(v), () -> new BigDecimal(v), (double) Math.ulp(v) / Math.abs(v),
                x -> Float.parseFloat(x) == v), v == 0 && 1 / v < 0);
    }

    /**
     * The shortest decimal that reads back as the same value and, among those of that length, the one
     * nearest to the exact binary value (what ClickHouse's shortest-representation printer produces).
     * Java's text is the starting point: it always reads back, but it may have more digits than needed
     * (4.9E-324 where 5e-324 suffices) and on JDK 17 it is not always the nearest of its length
     * (Float 4.36025459e25 prints 4.3602545E25 where 4.3602546e25 is nearer). At each length n the
     * candidates are the two n-digit neighbours of Java's text; one can only read back when it lies
     * within about an ulp, which is checked on the digits first, so most lengths cost no parsing. When
     * both neighbours read back, the exact value decides (rounding Java's text instead would round
     * twice: 9.18355E-41 would give 9.1836e-41 where 9.18354961...e-41 prints 9.1835e-41). Both sides
     * matter: at a power of two the gap below is half the gap above (2^-96 as Float32 prints
     * 1.2621775e-29, not 1.2621774e-29).
     *
     * @param relUlp the value's ulp divided by its magnitude
     */
    private static String shortest(String javaText, java.util.function.Supplier<BigDecimal> exactValue, double relUlp,
                                   java.util.function.Predicate<String> roundTrips) {
        BigDecimal p = new BigDecimal(javaText).stripTrailingZeros();
        if (p.signum() == 0 || !(relUlp > 0) || Double.isInfinite(relUlp)) {
            return javaText;
        }
        String d = p.unscaledValue().abs().toString();
        int digits = d.length();
        for (int n = 1; n <= digits; n++) {
            // |neighbour - text| <= 1.5 ulp is necessary to read back; in units of 10^(e-n) for
            // text = 0.d1d2... x 10^e that is at most 2 * relUlp * 10^n
            double bound = 2 * relUlp * Math.pow(10, n);
            BigDecimal lo;
            BigDecimal hi;
            boolean loPossible;
            boolean hiPossible;
            if (n < digits) {
                int take = Math.min(digits - n, 6);
                double tail = Integer.parseInt(d, n, n + take, 10) / Math.pow(10, take); // within 1e-6 below the tail
                loPossible = tail <= bound;
                hiPossible = 1 - tail - 1e-6 <= bound;
                if (!loPossible && !hiPossible) {
                    continue;
                }
                lo = p.round(new java.math.MathContext(n, java.math.RoundingMode.DOWN));
                hi = p.round(new java.math.MathContext(n, java.math.RoundingMode.UP));
            } else {
                if (1 > bound) {
                    return p.toString(); // no other n-digit decimal is within reach
                }
                BigDecimal unit = p.ulp();
                BigDecimal mag = p.abs();
                lo = p.signum() < 0 ? mag.subtract(unit).negate() : mag.subtract(unit);
                hi = p.signum() < 0 ? mag.add(unit).negate() : mag.add(unit);
                loPossible = true;
                hiPossible = true;
            }
            boolean loOk = loPossible && lo.signum() != 0 && roundTrips.test(lo.toString());
            boolean hiOk = hiPossible && roundTrips.test(hi.toString());
            if (n == digits) {
                if (!loOk && !hiOk) {
                    return p.toString();
                }
                BigDecimal exact = exactValue.get();
                BigDecimal best = p;
                BigDecimal bestDist = exact.subtract(p).abs();
                for (BigDecimal c : loOk && hiOk ? new BigDecimal[] {lo, hi} : loOk ? new BigDecimal[] {lo}
                        : new BigDecimal[] {hi}) {
                    BigDecimal dist = exact.subtract(c).abs();
                    if (dist.compareTo(bestDist) < 0) {
                        best = c;
                        bestDist = dist;
                    }
                }
                return best.toString();
            }
            if (loOk && hiOk) {
                BigDecimal exact = exactValue.get();
                int cmp = exact.subtract(lo).abs().compareTo(hi.subtract(exact).abs());
                boolean loEven = (lo.unscaledValue().intValue() & 1) == 0;
                return (cmp < 0 || cmp == 0 && loEven ? lo : hi).toString();
            }
            if (loOk) {
                return lo.toString();
            }
            if (hiOk) {
                return hi.toString();
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

    /**
     * Appends {@code s} as a single-quoted ClickHouse string literal (escaping {@code \} and {@code '}, and
     * writing backspace, form feed, CR, LF, tab and NUL as {@code \b \f \r \n \t \0}).
     *
     * @param sb the builder to append to
     * @param s  the unquoted text
     */
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

    /**
     * Appends row {@code row} of {@code c} as it appears nested inside a composite value: the column family's
     * own nested text form ({@code AbstractColumn.appendNested}).
     */
    static void appendNested(StringBuilder sb, Column c, int row) {
        if (c instanceof AbstractColumn a) {
            a.appendNested(sb, row);
        } else if (c.isNull(row)) {
            sb.append("NULL");
        } else {
            sb.append(c.getString(row));
        }
    }
}
