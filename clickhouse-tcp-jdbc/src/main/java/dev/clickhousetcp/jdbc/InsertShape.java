package dev.clickhousetcp.jdbc;

import java.util.Locale;

/**
 * Recognizes {@code INSERT INTO t [(columns)] VALUES (?, ?, ...)}: one VALUES group of bare placeholders
 * and nothing after it but a {@code ;}, blanks or comments. Such statements run as native inserts: the
 * statement up to {@code VALUES} is sent, the rows follow as Data blocks typed from the server's insert header.
 *
 * @param insertSql  the statement without its VALUES group (ending in {@code VALUES})
 * @param parameters the number of placeholders (one per column)
 */
record InsertShape(String insertSql, int parameters) {

    /** The shape of {@code sql}, or {@code null} when it is not a plain placeholder INSERT. */
    static InsertShape of(String sql) {
        if (!SqlLexer.firstWord(sql).equals("INSERT")) {
            return null;
        }
        int values = valuesKeyword(sql);
        if (values < 0) {
            return null;
        }
        int valuesEnd = values + 6;
        String head = sql.substring(0, valuesEnd);
        if (head.toUpperCase(Locale.ROOT).contains(" SELECT ") || head.toUpperCase(Locale.ROOT).contains(" FORMAT ")) {
            return null;
        }
        int k = SqlLexer.codeStart(sql, valuesEnd);
        if (k >= sql.length() || sql.charAt(k) != '(') {
            return null;
        }
        int count = 0;
        k = SqlLexer.codeStart(sql, k + 1);
        while (true) {
            if (k >= sql.length() || sql.charAt(k) != '?') {
                return null;
            }
            count++;
            k = SqlLexer.codeStart(sql, k + 1);
            if (k < sql.length() && sql.charAt(k) == ',') {
                k = SqlLexer.codeStart(sql, k + 1);
                continue;
            }
            if (k < sql.length() && sql.charAt(k) == ')') {
                break;
            }
            return null;
        }
        k = SqlLexer.codeStart(sql, k + 1);
        while (k < sql.length() && sql.charAt(k) == ';') {
            k = SqlLexer.codeStart(sql, k + 1);
        }
        return k >= sql.length() ? new InsertShape(head, count) : null;
    }

    /**
     * The offset of the first {@code VALUES} keyword outside literals, identifiers and comments, or -1 (also when a
     * {@code ?} comes before it, as in {@code INSERT ... SELECT ... WHERE x = ?}).
     */
    static int valuesKeyword(String sql) {
        int i = 0;
        while (i < sql.length()) {
            int j = SqlLexer.skip(sql, i);
            if (j != i) {
                i = j;
                continue;
            }
            char c = sql.charAt(i);
            if (c == '?') {
                return -1;
            }
            if (identifierPart(c)) {
                int end = i;
                while (end < sql.length() && identifierPart(sql.charAt(end))) {
                    end++;
                }
                if (end - i == 6 && sql.regionMatches(true, i, "VALUES", 0, 6)) {
                    return i;
                }
                i = end;
                continue;
            }
            i++;
        }
        return -1;
    }

    static boolean identifierPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }
}
