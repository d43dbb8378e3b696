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
        return "USE".equals(sessionStatement(sql));
    }

    /**
     * The kind of a statement that changes the state of the server session of the connection running it,
     * or {@code null} for any other statement. Over the native protocol ClickHouse keeps one session per
     * TCP connection (src/Server/TCPHandler.cpp), and these statements change it for the statements that
     * follow on that connection: {@code USE} (the current database), {@code SET} (settings, query
     * parameters), {@code SET ROLE} (the current roles), {@code SET TRANSACTION SNAPSHOT} and
     * {@code BEGIN TRANSACTION} or {@code START TRANSACTION} (a transaction), {@code CREATE [OR REPLACE] TEMPORARY TABLE} and
     * {@code REPLACE TEMPORARY TABLE} (a table of the session), {@code EXECUTE AS user} without a statement
     * after it (the user of the session's later statements). {@code SET DEFAULT ROLE ... TO user} is not
     * among them: it changes users' stored default roles, not the session (ClickHouse's
     * InterpreterSetRoleQuery). Keywords are matched case-insensitively, with white space and comments
     * before and between them as ClickHouse's lexer skips them ({@link #skip}; it needs no space between a
     * keyword and a quoted name or a comment, as in {@code USE`db`}).
     *
     * @return {@code USE}, {@code SET}, {@code SET ROLE}, {@code SET TRANSACTION SNAPSHOT},
     *         {@code CREATE TEMPORARY TABLE}, {@code BEGIN TRANSACTION}, {@code EXECUTE AS}, or {@code null}
     */
    static String sessionStatement(String sql) {
        int i = skipNoise(sql, 0);
        int end = wordEnd(sql, i);
        if (isWord(sql, i, end, "USE")) {
            return "USE";
        }
        if (isWord(sql, i, end, "BEGIN")) {
            return "BEGIN TRANSACTION";
        }
        if (isWord(sql, i, end, "START")) {
            int j = skipSpaceAndComments(sql, end);
            return isWord(sql, j, wordEnd(sql, j), "TRANSACTION") ? "BEGIN TRANSACTION" : null;
        }
        if (isWord(sql, i, end, "SET")) {
            int j = skipSpaceAndComments(sql, end);
            int jEnd = wordEnd(sql, j);
            if (isWord(sql, j, jEnd, "ROLE")) {
                return "SET ROLE";
            }
            if (isWord(sql, j, jEnd, "TRANSACTION")) {
                return "SET TRANSACTION SNAPSHOT";
            }
            if (isWord(sql, j, jEnd, "DEFAULT")) {
                int k = skipSpaceAndComments(sql, jEnd);
                if (isWord(sql, k, wordEnd(sql, k), "ROLE")) {
                    return null;
                }
            }
            return "SET";
        }
        if (isWord(sql, i, end, "EXECUTE")) {
            return executeAsAlone(sql, end) ? "EXECUTE AS" : null;
        }
        boolean create = isWord(sql, i, end, "CREATE");
        if (create || isWord(sql, i, end, "REPLACE")) {
            int j = skipSpaceAndComments(sql, end);
            int jEnd = wordEnd(sql, j);
            if (create && isWord(sql, j, jEnd, "OR")) {
                int k = skipSpaceAndComments(sql, jEnd);
                int kEnd = wordEnd(sql, k);
                if (!isWord(sql, k, kEnd, "REPLACE")) {
                    return null;
                }
                j = skipSpaceAndComments(sql, kEnd);
                jEnd = wordEnd(sql, j);
            }
            if (isWord(sql, j, jEnd, "TEMPORARY")) {
                return "CREATE TEMPORARY TABLE";
            }
        }
        return null;
    }

    /**
     * Whether {@code EXECUTE} (ending at {@code i}) is followed by {@code AS user} and nothing else: without a
     * statement of its own, ClickHouse runs the session's later statements as that user.
     */
    private static boolean executeAsAlone(String sql, int i) {
        int j = skipSpaceAndComments(sql, i);
        int jEnd = wordEnd(sql, j);
        if (!isWord(sql, j, jEnd, "AS")) {
            return false;
        }
        int k = skipSpaceAndComments(sql, jEnd);
        boolean quoted = k < sql.length() && (sql.charAt(k) == '`' || sql.charAt(k) == '"');
        int kEnd = quoted ? quotedEnd(sql, k) : wordEnd(sql, k);
        if (kEnd == k) {
            return false;
        }
        int rest = skipSpaceAndComments(sql, kEnd);
        return rest == sql.length() || sql.charAt(rest) == ';';
    }

    /** The end of the quoted name at {@code i} (a backslash escapes, a doubled quote stands for itself). */
    private static int quotedEnd(String s, int i) {
        char q = s.charAt(i);
        int j = i + 1;
        while (j < s.length()) {
            char c = s.charAt(j);
            if (c == '\\') {
                j += 2;
            } else if (c == q) {
                if (j + 1 < s.length() && s.charAt(j + 1) == q) {
                    j += 2;
                } else {
                    return j + 1;
                }
            } else {
                j++;
            }
        }
        return s.length();
    }

    /** The end of the bare word at {@code i} (ClickHouse's word characters: letters, digits, {@code _}, {@code $}). */
    private static int wordEnd(String s, int i) {
        if (i >= s.length() || !(Character.isLetter(s.charAt(i)) || s.charAt(i) == '_')) {
            return i;
        }
        int j = i + 1;
        while (j < s.length() && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '_' || s.charAt(j) == '$')) {
            j++;
        }
        return j;
    }

    /** Whether the word from {@code start} to {@code end} is {@code keyword}, ignoring case. */
    private static boolean isWord(String s, int start, int end, String keyword) {
        return end - start == keyword.length() && s.regionMatches(true, start, keyword, 0, keyword.length());
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

    /** Skips white space, comments and opening parentheses before a statement's first keyword. */
    private static int skipNoise(String s, int i) {
        return skip(s, i, true);
    }

    /** Skips white space and comments between two keywords (also {@link SqlSettings#tokens}' one rule for them). */
    static int skipSpaceAndComments(String s, int i) {
        return skip(s, i, false);
    }

    /**
     * Skips, from {@code i}, what ClickHouse's lexer (src/Parsers/Lexer.cpp) reads as white space or a comment:
     * ASCII white space, the Unicode white space it skips (no-break spaces, the byte order mark, zero-width
     * spaces, ...; {@link #isSpace}), {@code --}, {@code //} and {@code #} comments to the end of the line, and
     * block comments, which nest ({@code /* a /* b *\/ c *\/} is one comment to 26.7; 18.16 ends it at the first
     * {@code *\/} and then fails on the rest, so reading it nested lets through nothing either server runs).
     * With {@code parentheses}, opening parentheses too.
     */
    private static int skip(String s, int i, boolean parentheses) {
        while (i < s.length()) {
            char c = s.charAt(i);
            if (isSpace(c) || parentheses && c == '(') {
                i++;
            } else if (s.startsWith("--", i) || s.startsWith("//", i) || c == '#') {
                int nl = s.indexOf('\n', i);
                i = nl < 0 ? s.length() : nl + 1;
            } else if (s.startsWith("/*", i)) {
                i = blockCommentEnd(s, i);
            } else {
                break;
            }
        }
        return i;
    }

    /** The end of the block comment opening at {@code i}, counting the comments nested in it. */
    private static int blockCommentEnd(String s, int i) {
        int depth = 0;
        while (i < s.length()) {
            if (s.startsWith("/*", i)) {
                depth++;
                i += 2;
            } else if (s.startsWith("*/", i)) {
                i += 2;
                if (--depth == 0) {
                    return i;
                }
            } else {
                i++;
            }
        }
        return s.length();
    }

    /**
     * Whether ClickHouse's lexer skips {@code c} as white space: ASCII space, tab, line feed, carriage
     * return, form feed and vertical tab, and the Unicode white space it skips in UTF-8 text (26.7: U+0085,
     * U+00A0, U+180E, U+2000 to U+200D, U+2028, U+2029, U+202F, U+205F, U+2060, U+3000, U+FEFF; 18.16 skips
     * none of these and refuses the statement). Not {@link Character#isWhitespace}: that leaves out the
     * no-break spaces and the byte order mark, and takes in separators ClickHouse refuses.
     */
    private static boolean isSpace(char c) {
        return c == ' ' || c >= '\t' && c <= '\r'
                || c >= '\u2000' && c <= '\u200d'
                || c == '\u0085' || c == '\u00a0' || c == '\u180e' || c == '\u2028' || c == '\u2029'
                || c == '\u202f' || c == '\u205f' || c == '\u2060' || c == '\u3000' || c == '\ufeff';
    }
}
