package dev.clickhousetcp.client;

import java.util.ArrayList;
import java.util.List;

/**
 * The value a statement's own text gives a setting: in a {@code SET name = value, ...} statement, or
 * in a {@code SETTINGS name = value, ...} clause outside parentheses (the clause of the statement
 * itself, not of a subquery). A small lexer skips white space, comments, string literals and quoted
 * identifiers, so a setting's name inside them is not taken for an assignment.
 */
final class SqlSettings {
    private SqlSettings() {
    }

    /** A setting's name as given to a builder: not null or blank (the server judges whether it exists). */
    static String checkedName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a setting needs a name, got " + (name == null ? "null" : "'" + name + "'"));
        }
        return name;
    }

    /** A setting's value as given to a builder, as the text sent: {@code String.valueOf}, never of {@code null}. */
    static String checkedValue(String name, Object value) {
        if (value == null) {
            throw new IllegalArgumentException("setting " + name + " needs a value, got null (leave it out to keep "
                    + "the server's or the connection's value)");
        }
        return String.valueOf(value);
    }

    /** A SET statement's assignment of a setting: its value, or {@code null} for {@code DEFAULT}. */
    record Assignment(String value) {
    }

    /**
     * The last assignment of {@code setting} by {@code sql} when it is a SET statement, else
     * {@code null}. A string literal gives its content, {@code DEFAULT} a {@code null} value, another
     * literal its text.
     */
    static Assignment set(String sql, String setting) {
        if (!sql.contains(setting)) {
            return null; // the common case, without lexing a possibly long statement
        }
        List<Token> ts = tokens(sql);
        if (ts.isEmpty() || !ts.get(0).isWord("SET")) {
            return null;
        }
        Assignment[] found = {null};
        assignments(ts, 1, setting, found);
        return found[0];
    }

    /**
     * The value the last top-level {@code SETTINGS} clause of {@code sql} gives {@code setting}
     * (a string literal's content, another literal's text), or {@code null} when none does.
     */
    static String clause(String sql, String setting) {
        if (!sql.contains(setting)) {
            return null;
        }
        List<Token> ts = tokens(sql);
        Assignment[] found = {null};
        int depth = 0;
        for (int i = 0; i < ts.size(); i++) {
            Token t = ts.get(i);
            if (t.isPunct('(') || t.isPunct('[') || t.isPunct('{')) {
                depth++;
            } else if (t.isPunct(')') || t.isPunct(']') || t.isPunct('}')) {
                depth = Math.max(0, depth - 1);
            } else if (depth == 0 && t.isWord("SETTINGS")) {
                i = assignments(ts, i + 1, setting, found) - 1;
            }
        }
        return found[0] == null ? null : found[0].value();
    }

    /** Reads {@code name = literal [, ...]} from {@code i}; returns the index after the list. */
    private static int assignments(List<Token> ts, int i, String setting, Assignment[] found) {
        while (i + 2 < ts.size() && ts.get(i).kind == Kind.WORD && ts.get(i + 1).isPunct('=')) {
            Token name = ts.get(i);
            Token value = ts.get(i + 2);
            if (value.kind == Kind.PUNCT) {
                return i;
            }
            if (name.text.equals(setting)) {
                found[0] = new Assignment(value.isWord("DEFAULT") ? null : value.text);
            }
            i += 3;
            if (i < ts.size() && ts.get(i).isPunct(',')) {
                i++;
            } else {
                break;
            }
        }
        return i;
    }

    enum Kind { WORD, STRING, OTHER, PUNCT }

    /** A token: a word (keyword or identifier, quoted ones unquoted), a string literal's content, a number, or one punctuation character. */
    record Token(Kind kind, String text) {
        boolean isWord(String w) {
            return kind == Kind.WORD && text.equalsIgnoreCase(w);
        }

        boolean isPunct(char c) {
            return kind == Kind.PUNCT && text.length() == 1 && text.charAt(0) == c;
        }
    }

    static List<Token> tokens(String s) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        int n = s.length();
        while (i < n) {
            int next = SqlText.skipSpaceAndComments(s, i); // white space and comments as the server's lexer skips them
            if (next > i) {
                i = next;
                continue;
            }
            char c = s.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                StringBuilder sb = new StringBuilder();
                i = quoted(s, i, c, sb);
                out.add(new Token(c == '\'' ? Kind.STRING : Kind.WORD, sb.toString()));
            } else if (Character.isLetter(c) || c == '_') {
                int start = i;
                while (i < n && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_')) {
                    i++;
                }
                out.add(new Token(Kind.WORD, s.substring(start, i)));
            } else if (Character.isDigit(c) || (c == '-' || c == '+' || c == '.') && i + 1 < n
                    && Character.isDigit(s.charAt(i + 1))) {
                int start = i++;
                while (i < n && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '.')) {
                    i++;
                }
                out.add(new Token(Kind.OTHER, s.substring(start, i)));
            } else {
                out.add(new Token(Kind.PUNCT, String.valueOf(c)));
                i++;
            }
        }
        return out;
    }

    /** Reads a quoted literal or identifier at {@code i} into {@code sb}; returns the index after it. */
    private static int quoted(String s, int i, char q, StringBuilder sb) {
        i++;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char e = s.charAt(i + 1);
                sb.append(switch (e) {
                    case 'n' -> '\n';
                    case 't' -> '\t';
                    case 'r' -> '\r';
                    case '0' -> '\0';
                    case 'b' -> '\b';
                    case 'f' -> '\f';
                    default -> e;
                });
                i += 2;
            } else if (c == q) {
                if (i + 1 < s.length() && s.charAt(i + 1) == q) {
                    sb.append(q); // a doubled quote stands for itself
                    i += 2;
                } else {
                    return i + 1;
                }
            } else {
                sb.append(c);
                i++;
            }
        }
        return i;
    }
}
