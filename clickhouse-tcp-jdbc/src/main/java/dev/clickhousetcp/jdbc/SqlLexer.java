package dev.clickhousetcp.jdbc;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A lexer over SQL text that knows only what hides code: single-quoted strings ({@code ''} and
 * {@code \'} escapes), double-quoted and backquoted identifiers, {@code --} and {@code #} line comments,
 * {@code /* *}{@code /} block comments (nested, as ClickHouse's own lexer nests them) and
 * {@code $$...$$} / {@code $tag$...$tag$} heredoc strings (per ClickHouse {@code src/Parsers/Lexer.cpp}).
 * It never fails: unterminated constructs run to the end of the text, and anything else is sent as
 * written. Stateless and thread-safe.
 */
final class SqlLexer {
    private SqlLexer() {
    }

    /**
     * The end of the literal, identifier or comment starting at {@code i}, or {@code i} when code starts there.
     */
    static int skip(String s, int i) {
        int n = s.length();
        char c = s.charAt(i);
        switch (c) {
            case '\'', '"', '`' -> {
                int j = i + 1;
                while (j < n) {
                    char d = s.charAt(j);
                    if (d == '\\') {
                        j += 2;
                    } else if (d == c) {
                        if (j + 1 < n && s.charAt(j + 1) == c) {
                            j += 2;
                        } else {
                            return j + 1;
                        }
                    } else {
                        j++;
                    }
                }
                return n;
            }
            case '-' -> {
                if (i + 1 < n && s.charAt(i + 1) == '-') {
                    return lineEnd(s, i);
                }
                return i;
            }
            case '#' -> {
                return lineEnd(s, i);
            }
            case '/' -> {
                if (i + 1 < n && s.charAt(i + 1) == '*') {
                    int depth = 1;
                    int j = i + 2;
                    while (j < n && depth > 0) {
                        if (s.startsWith("/*", j)) {
                            depth++;
                            j += 2;
                        } else if (s.startsWith("*/", j)) {
                            depth--;
                            j += 2;
                        } else {
                            j++;
                        }
                    }
                    return j;
                }
                return i;
            }
            case '$' -> {
                int j = i + 1;
                while (j < n && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '_')) {
                    j++;
                }
                if (j < n && s.charAt(j) == '$' && (j == i + 1 || !Character.isDigit(s.charAt(i + 1)))) {
                    String tag = s.substring(i, j + 1);
                    int end = s.indexOf(tag, j + 1);
                    return end < 0 ? n : end + tag.length();
                }
                return i;
            }
            default -> {
                return i;
            }
        }
    }

    private static int lineEnd(String s, int i) {
        int j = i;
        while (j < s.length() && s.charAt(j) != '\n' && s.charAt(j) != '\r') {
            j++;
        }
        return j;
    }

    /**
     * The positions of the {@code ?} placeholders outside literals, identifiers and comments.
     *
     * @param sql the statement text
     * @return the character offsets, in order
     */
    static int[] placeholders(String sql) {
        List<Integer> found = new ArrayList<>();
        int i = 0;
        while (i < sql.length()) {
            int j = skip(sql, i);
            if (j != i) {
                i = j;
                continue;
            }
            if (sql.charAt(i) == '?') {
                found.add(i);
            }
            i++;
        }
        int[] out = new int[found.size()];
        for (int k = 0; k < out.length; k++) {
            out[k] = found.get(k);
        }
        return out;
    }

    /**
     * The statements of a text split at the {@code ;} outside literals and comments; empty statements (only
     * whitespace and comments) are left out, so {@code "SELECT 1;"} is one statement.
     *
     * @param sql the text
     * @return the statements, without their {@code ;}
     */
    static List<String> split(String sql) {
        List<String> out = new ArrayList<>();
        int start = 0;
        int i = 0;
        while (i < sql.length()) {
            int j = skip(sql, i);
            if (j != i) {
                i = j;
                continue;
            }
            if (sql.charAt(i) == ';') {
                addStatement(out, sql.substring(start, i));
                start = i + 1;
            }
            i++;
        }
        addStatement(out, sql.substring(start));
        return out;
    }

    private static void addStatement(List<String> out, String text) {
        if (!onlyCommentsAndBlanks(text)) {
            out.add(text);
        }
    }

    private static boolean onlyCommentsAndBlanks(String s) {
        return codeStart(s, 0) >= s.length();
    }

    /** The first offset at or after {@code i} that is neither whitespace nor a comment. */
    static int codeStart(String s, int i) {
        while (i < s.length()) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            if (c == '-' || c == '#' || c == '/') {
                int j = skip(s, i);
                if (j != i) {
                    i = j;
                    continue;
                }
            }
            break;
        }
        return i;
    }

    /**
     * The first keyword of a statement in upper case, skipping comments, blanks and opening parentheses;
     * empty when the statement does not start with a word.
     */
    static String firstWord(String sql) {
        int i = codeStart(sql, 0);
        while (i < sql.length() && sql.charAt(i) == '(') {
            i = codeStart(sql, i + 1);
        }
        int j = i;
        while (j < sql.length() && Character.isLetter(sql.charAt(j))) {
            j++;
        }
        return sql.substring(i, j).toUpperCase(Locale.ROOT);
    }

    /**
     * Rewrites the JDBC escapes {@code {d '...'}}, {@code {t '...'}}, {@code {ts '...'}}, {@code {fn ...}},
     * {@code {oj ...}} and {@code {escape '...'}} found outside literals, identifiers and comments. Braces that
     * are not such escapes ({@code {name:Type}} query parameters, map literals) stay as written.
     *
     * @param sql the statement text
     * @return the rewritten text ({@code sql} itself when it has no escape)
     */
    static String processEscapes(String sql) {
        if (sql.indexOf('{') < 0) {
            return sql;
        }
        StringBuilder out = new StringBuilder(sql.length());
        rewrite(sql, 0, sql.length(), out);
        return out.toString();
    }

    /** Appends {@code s[from, to)} rewritten to {@code out}. */
    private static void rewrite(String s, int from, int to, StringBuilder out) {
        int i = from;
        while (i < to) {
            int j = Math.min(skip(s, i), to);
            if (j != i) {
                out.append(s, i, j);
                i = j;
                continue;
            }
            char c = s.charAt(i);
            if (c == '{') {
                int k = codeStart(s, i + 1);
                int w = k;
                while (w < to && Character.isLetter(s.charAt(w))) {
                    w++;
                }
                String word = s.substring(k, w).toLowerCase(Locale.ROOT);
                boolean escape = w < to && (Character.isWhitespace(s.charAt(w)) || s.charAt(w) == '\'')
                        && switch (word) {
                            case "d", "t", "ts", "fn", "oj", "escape" -> true;
                            default -> false;
                        };
                if (escape) {
                    int close = matchingBrace(s, i, to);
                    if (close > 0) {
                        String body = s.substring(w, close).trim();
                        switch (word) {
                            case "d" -> out.append("toDate(").append(body).append(')');
                            case "t" -> out.append(body);
                            case "ts" -> out.append("toDateTime64(").append(body).append(", 9)");
                            case "escape" -> out.append("ESCAPE ").append(body);
                            default -> rewrite(body, 0, body.length(), out); // fn, oj: the body itself
                        }
                        i = close + 1;
                        continue;
                    }
                }
            }
            out.append(c);
            i++;
        }
    }

    /** The offset of the {@code }} closing the brace at {@code open}, or -1. */
    private static int matchingBrace(String s, int open, int to) {
        int depth = 0;
        int i = open;
        while (i < to) {
            int j = skip(s, i);
            if (j != i) {
                i = j;
                continue;
            }
            char c = s.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return i;
            }
            i++;
        }
        return -1;
    }
}
