package dev.clickhousetcp.mapping;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Column-to-property name matching: a property annotated with {@link ClickHouseColumn} matches
 * exactly the column it names; other properties match a column by exact name, else ignoring case,
 * else ignoring case and underscores ({@code user_id} = {@code userId} = {@code UserID}). The first
 * rule that finds a property decides; two properties found by the same rule are an error.
 */
final class Names {
    private Names() {
    }

    static String normalize(String s) {
        return s.replace("_", "").toLowerCase(Locale.ROOT);
    }

    /** The property {@code column} maps to among {@code props}, or {@code null}. */
    static Prop match(String column, List<Prop> props, String what) {
        List<Prop> found = new ArrayList<>();
        for (Prop p : props) {
            if (p.column != null && p.column.equals(column)) {
                found.add(p);
            }
        }
        if (found.isEmpty()) {
            for (int rule = 0; rule < 3 && found.isEmpty(); rule++) {
                for (Prop p : props) {
                    if (p.column != null) {
                        continue;
                    }
                    boolean ok = switch (rule) {
                        case 0 -> p.name.equals(column);
                        case 1 -> p.name.equalsIgnoreCase(column);
                        default -> normalize(p.name).equals(normalize(column));
                    };
                    if (ok) {
                        found.add(p);
                    }
                }
            }
        }
        if (found.size() > 1) {
            throw new MappingException("column '" + column + "' matches several " + what + ": " + found);
        }
        return found.isEmpty() ? null : found.get(0);
    }
}
