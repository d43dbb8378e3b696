package dev.clickhousetcp.client;

/** Minimal inspection of SQL text: the leading keyword, skipping white space and comments. */
final class SqlText {
    private SqlText() {
    }

    /** Whether the statement's first keyword is INSERT. */
    static boolean isInsert(String sql) {
        int i = skipNoise(sql, 0);
        return sql.regionMatches(true, i, "INSERT", 0, 6)
                && (i + 6 == sql.length() || !Character.isLetterOrDigit(sql.charAt(i + 6)));
    }

    /** Whether the statement's first keyword is USE. */
    static boolean isUse(String sql) {
        int i = skipNoise(sql, 0);
        return sql.regionMatches(true, i, "USE", 0, 3) && i + 3 < sql.length() && Character.isWhitespace(sql.charAt(i + 3));
    }

    /**
     * Whether the statement only reads: its first keyword is SELECT, WITH, SHOW, DESCRIBE, DESC,
     * EXISTS or EXPLAIN. Such a statement may be run again without changing anything.
     */
    static boolean isReadOnly(String sql) {
        int i = skipNoise(sql, 0);
        for (String k : READ_ONLY) {
            if (sql.regionMatches(true, i, k, 0, k.length())
                    && (i + k.length() == sql.length() || !Character.isLetterOrDigit(sql.charAt(i + k.length()))
                    && sql.charAt(i + k.length()) != '_')) {
                return true;
            }
        }
        return false;
    }

    private static final String[] READ_ONLY = {"SELECT", "WITH", "SHOW", "DESCRIBE", "DESC", "EXISTS", "EXPLAIN"};

    private static int skipNoise(String s, int i) {
        while (i < s.length()) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c) || c == '(') {
                i++;
            } else if (s.startsWith("--", i) || s.startsWith("#", i)) {
                int nl = s.indexOf('\n', i);
                i = nl < 0 ? s.length() : nl + 1;
            } else if (s.startsWith("/*", i)) {
                int end = s.indexOf("*/", i + 2);
                i = end < 0 ? s.length() : end + 2;
            } else {
                break;
            }
        }
        return i;
    }
}
