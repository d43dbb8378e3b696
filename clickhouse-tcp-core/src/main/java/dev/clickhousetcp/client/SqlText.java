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

    /** Statement keywords reported as {@code db.operation.name}; anything else is {@code OTHER}. */
    private static final String[] OPERATIONS = {"SELECT", "INSERT", "CREATE", "DROP", "ALTER", "TRUNCATE", "RENAME",
        "OPTIMIZE", "SHOW", "DESCRIBE", "EXISTS", "EXPLAIN", "SET", "USE", "SYSTEM", "KILL", "GRANT", "REVOKE", "CHECK",
        "DELETE", "UPDATE", "ATTACH", "DETACH", "EXCHANGE", "UNDROP", "BACKUP", "RESTORE", "WATCH", "MOVE"};

    /**
     * The statement's operation for observations: its first keyword, upper case, when it is one of a
     * fixed list (so the value set stays bounded); {@code WITH} counts as {@code SELECT}, {@code DESC}
     * as {@code DESCRIBE}; anything else is {@code OTHER}.
     */
    static String operationName(String sql) {
        int i = skipNoise(sql, 0);
        int end = i;
        while (end < sql.length() && Character.isLetter(sql.charAt(end))) {
            end++;
        }
        if (end == i) {
            return "OTHER";
        }
        if (sql.regionMatches(true, i, "WITH", 0, 4) && end - i == 4) {
            return "SELECT";
        }
        if (sql.regionMatches(true, i, "DESC", 0, 4) && end - i == 4) {
            return "DESCRIBE";
        }
        for (String k : OPERATIONS) {
            if (k.length() == end - i && sql.regionMatches(true, i, k, 0, k.length())) {
                return k;
            }
        }
        return "OTHER";
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
