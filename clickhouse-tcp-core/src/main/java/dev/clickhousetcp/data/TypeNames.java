package dev.clickhousetcp.data;

import java.util.Comparator;

/** Helpers for type names as ClickHouse spells them ({@code IDataType::getName}). */
final class TypeNames {
    /**
     * The order ClickHouse sorts names in ({@code std::string} byte order of UTF-8), used for Variant
     * discriminators, Dynamic's internal variants and JSON paths. Code point order equals UTF-8 byte order.
     */
    static final Comparator<String> UTF8_ORDER = TypeNames::compareUtf8;

    private TypeNames() {
    }

    static int compareUtf8(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    /** The family of a type name: {@code Array} for {@code Array(String)}. */
    static String family(String typeName) {
        int p = typeName.indexOf('(');
        return (p < 0 ? typeName : typeName.substring(0, p)).trim();
    }

    /** A name as ClickHouse's {@code backQuoteIfNeed} prints it: bare when a plain identifier, else in backticks. */
    static String backQuoteIfNeeded(String name) {
        boolean plain = !name.isEmpty() && !Character.isDigit(name.charAt(0));
        for (int i = 0; plain && i < name.length(); i++) {
            char c = name.charAt(i);
            plain = c < 128 && (Character.isLetterOrDigit(c) || c == '_');
        }
        if (plain) {
            return name;
        }
        StringBuilder sb = new StringBuilder("`");
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '`' || c == '\\') {
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.append('`').toString();
    }

    /** A single-quoted string literal as ClickHouse prints it in type names ({@code quoteString}). */
    static String quote(String s) {
        return TypeNode.quote(s);
    }
}
