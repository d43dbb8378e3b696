package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;

import java.util.ArrayList;
import java.util.List;

/**
 * A parsed ClickHouse type name: a family name and its parameters, e.g.
 * {@code Array(Nullable(String))}, {@code DateTime64(3, 'UTC')}, {@code Enum8('a' = 1, 'b' = 2)},
 * {@code Tuple(id UInt64, name String)}. Parsing follows the grammar of ClickHouse's
 * {@code ParserDataType}; immutable and thread-safe.
 *
 * @param name   the family name, e.g. {@code Array}
 * @param params the parameters in order (empty when none)
 */
public record TypeNode(String name, List<Param> params) {

    /** A type parameter. */
    public sealed interface Param permits TypeParam, NumberParam, StringParam, NamedTypeParam, EnumParam, RawParam {
    }

    /** A nested type, e.g. the {@code String} of {@code Array(String)}. */
    public record TypeParam(TypeNode type) implements Param {
    }

    /** A number literal, e.g. the {@code 3} of {@code DateTime64(3)}. */
    public record NumberParam(String text) implements Param {
        /**
         * The literal as an {@code int}.
         *
         * @return the parsed value
         * @throws NumberFormatException when the literal is not an integer within the {@code int} range
         */
        public int intValue() {
            return Integer.parseInt(text.trim());
        }
    }

    /** A quoted string literal, unescaped, e.g. the {@code UTC} of {@code DateTime('UTC')}. */
    public record StringParam(String value) implements Param {
    }

    /** A named element of a Tuple or Nested, e.g. {@code id UInt64}. */
    public record NamedTypeParam(String name, TypeNode type) implements Param {
    }

    /** An enum element {@code 'name' = value}. */
    public record EnumParam(String name, long value) implements Param {
    }

    /**
     * The whole parameter text of a family with its own parameter grammar, kept verbatim (trimmed):
     * {@code JSON(max_dynamic_paths=3, a.b UInt32, SKIP c, SKIP REGEXP 'x')},
     * {@code Dynamic(max_types=8)}, {@code Object('json')}. The type parses it itself.
     */
    public record RawParam(String text) implements Param {
    }

    /** Families whose parameters are kept as one {@link RawParam}. */
    static boolean hasRawParams(String family) {
        return family.equals("JSON") || family.equals("Dynamic") || family.equals("Object");
    }

    /**
     * Parses a type name within the default limits of {@link DecodeLimits#DEFAULT}.
     *
     * @param text a ClickHouse type name, e.g. {@code Map(String, Array(UInt8))}
     * @return the parsed name, not yet resolved to a {@link DataType}
     * @throws ClickHouseTypeException with the position of the first error, or when a limit is exceeded
     */
    public static TypeNode parse(String text) {
        return parse(text, DecodeLimits.DEFAULT);
    }

    /**
     * Parses a type name of at most {@link DecodeLimits#maxTypeNameBytes()} characters, nested at most
     * {@link DecodeLimits#maxTypeDepth()} deep, with at most {@link DecodeLimits#maxTypeElements()}
     * parameters in all. The limits are checked before and while parsing: a name over them fails
     * without building its nodes. Thread-safe (no shared state).
     *
     * @param text   a ClickHouse type name; {@code null} or blank is rejected
     * @param limits the limits whose {@code maxTypeNameBytes}, {@code maxTypeDepth} and
     *               {@code maxTypeElements} apply
     * @return the parsed name, not yet resolved to a {@link DataType}
     * @throws ClickHouseTypeException with the position of the first error, or when a limit is exceeded
     */
    public static TypeNode parse(String text, DecodeLimits limits) {
        if (text == null || text.isBlank()) {
            throw new ClickHouseTypeException("empty type name");
        }
        if (text.length() > limits.maxTypeNameBytes()) {
            throw new ClickHouseTypeException("type name of " + text.length() + " characters exceeds the limit "
                    + limits.maxTypeNameBytes() + ": " + abbreviate(text, 0));
        }
        Parser p = new Parser(text, limits.maxTypeDepth(), limits.maxTypeElements());
        TypeNode t = p.type();
        p.ws();
        if (p.pos != text.length()) {
            throw p.error("unexpected trailing text");
        }
        return t;
    }

    /**
     * The nested type of parameter {@code i}; throws when that parameter is not a type.
     *
     * @param i the 0-based parameter index
     * @return the type of a {@link TypeParam} or of a {@link NamedTypeParam}
     * @throws ClickHouseTypeException when the parameter is missing or is not a type
     */
    public TypeNode typeArg(int i) {
        Param p = param(i);
        if (p instanceof TypeParam tp) {
            return tp.type();
        }
        if (p instanceof NamedTypeParam np) {
            return np.type();
        }
        throw new ClickHouseTypeException(this + ": parameter " + (i + 1) + " must be a type");
    }

    /**
     * Parameter {@code i}; throws a clear exception when missing.
     *
     * @param i the 0-based parameter index, at least 0
     * @return the parameter
     * @throws ClickHouseTypeException when the type has no parameter {@code i}
     */
    public Param param(int i) {
        if (i >= params.size()) {
            throw new ClickHouseTypeException(this + ": missing parameter " + (i + 1));
        }
        return params.get(i);
    }

    @Override
    public String toString() {
        if (params.isEmpty()) {
            return name;
        }
        StringBuilder sb = new StringBuilder(name).append('(');
        for (int i = 0; i < params.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            Param p = params.get(i);
            if (p instanceof TypeParam tp) {
                sb.append(tp.type());
            } else if (p instanceof NumberParam np) {
                sb.append(np.text());
            } else if (p instanceof StringParam sp) {
                sb.append(quote(sp.value()));
            } else if (p instanceof NamedTypeParam np) {
                sb.append(TypeNames.backQuoteIfNeeded(np.name())).append(' ').append(np.type());
            } else if (p instanceof EnumParam ep) {
                sb.append(quote(ep.name())).append(" = ").append(ep.value());
            } else if (p instanceof RawParam rp) {
                sb.append(rp.text());
            }
        }
        return sb.append(')').toString();
    }

    /** At most 200 characters of {@code s} around {@code pos}, for error messages. */
    static String abbreviate(String s, int pos) {
        if (s.length() <= 200) {
            return "'" + s + "'";
        }
        int from = Math.max(0, Math.min(pos - 100, s.length() - 200));
        return (from > 0 ? "'..." : "'") + s.substring(from, from + 200) + (from + 200 < s.length() ? "...'" : "'")
                + " (" + s.length() + " characters)";
    }

    static String quote(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    private static final class Parser {
        final String s;
        final int maxDepth;
        final int maxElements;
        int pos;
        int depth;
        int elements;

        Parser(String s, int maxDepth, int maxElements) {
            this.s = s;
            this.maxDepth = maxDepth;
            this.maxElements = maxElements;
        }

        ClickHouseTypeException error(String what) {
            return new ClickHouseTypeException("malformed type name " + abbreviate(s, pos) + ": " + what
                    + " at position " + pos);
        }

        void ws() {
            while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
                pos++;
            }
        }

        String ident() {
            ws();
            int start = pos;
            if (pos < s.length() && s.charAt(pos) == '`') {
                // back-quoted as ClickHouse's backQuote writes it: \` and \\ escaped (a doubled ` also reads as one)
                StringBuilder sb = new StringBuilder();
                pos++;
                while (true) {
                    if (pos >= s.length()) {
                        pos = start;
                        throw error("unterminated identifier");
                    }
                    char c = s.charAt(pos++);
                    if (c == '\\' && pos < s.length()) {
                        sb.append(s.charAt(pos++));
                    } else if (c == '`') {
                        if (closes('`', sb)) {
                            return sb.toString();
                        }
                    } else {
                        sb.append(c);
                    }
                }
            }
            while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || s.charAt(pos) == '_')) {
                pos++;
            }
            if (start == pos) {
                throw error("expected a type name");
            }
            return s.substring(start, pos);
        }

        TypeNode type() {
            if (++depth > maxDepth) {
                throw error("type nested deeper than " + maxDepth);
            }
            String name = ident();
            ws();
            // multi-word aliases such as "Double Precision" are not produced by the server; keep one word
            List<Param> params = new ArrayList<>();
            if (pos < s.length() && s.charAt(pos) == '(' && hasRawParams(name)) {
                String raw = raw();
                depth--;
                return new TypeNode(name, raw.isEmpty() ? List.of() : List.of(new RawParam(raw)));
            }
            if (pos < s.length() && s.charAt(pos) == '(') {
                pos++;
                ws();
                if (pos < s.length() && s.charAt(pos) == ')') {
                    pos++;
                } else {
                    while (true) {
                        if (++elements > maxElements) {
                            throw error("type name has more than " + maxElements + " parameters");
                        }
                        params.add(param());
                        ws();
                        if (pos >= s.length()) {
                            throw error("expected ',' or ')'");
                        }
                        char c = s.charAt(pos++);
                        if (c == ')') {
                            break;
                        }
                        if (c != ',') {
                            pos--;
                            throw error("expected ',' or ')'");
                        }
                    }
                }
            }
            depth--;
            return new TypeNode(name, List.copyOf(params));
        }

        Param param() {
            ws();
            if (pos >= s.length()) {
                throw error("expected a parameter");
            }
            char c = s.charAt(pos);
            if (c == '\'') {
                String str = string();
                ws();
                if (pos < s.length() && s.charAt(pos) == '=') {
                    pos++;
                    ws();
                    int start = pos;
                    if (pos < s.length() && (s.charAt(pos) == '-' || s.charAt(pos) == '+')) {
                        pos++;
                    }
                    while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
                        pos++;
                    }
                    try {
                        return new EnumParam(str, Long.parseLong(s.substring(start, pos)));
                    } catch (NumberFormatException e) {
                        throw error("expected an enum value");
                    }
                }
                return new StringParam(str);
            }
            if (Character.isDigit(c) || c == '-' || c == '+') {
                int start = pos++;
                while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || s.charAt(pos) == '.')) {
                    pos++;
                }
                return new NumberParam(s.substring(start, pos));
            }
            int save = pos;
            String first = ident();
            ws();
            if (pos < s.length() && s.charAt(pos) != ',' && s.charAt(pos) != ')' && s.charAt(pos) != '(') {
                // "name Type" (named tuple element / Nested field / JSON path hint)
                TypeNode t = type();
                return new NamedTypeParam(first, t);
            }
            pos = save;
            return new TypeParam(type());
        }

        /** The text between '(' at pos and its matching ')', skipping quoted strings and identifiers. */
        String raw() {
            int start = ++pos;
            int level = 0;
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (c == '\'' || c == '`' || c == '"') {
                    int end = pos + 1;
                    while (end < s.length() && s.charAt(end) != c) {
                        end += s.charAt(end) == '\\' ? 2 : 1;
                    }
                    if (end >= s.length()) {
                        throw error("unterminated quote");
                    }
                    pos = end + 1;
                    continue;
                }
                if (c == '(') {
                    level++;
                } else if (c == ')') {
                    if (level == 0) {
                        String text = s.substring(start, pos).trim();
                        pos++;
                        return text;
                    }
                    level--;
                }
                pos++;
            }
            throw error("expected ')'");
        }

        String string() {
            StringBuilder sb = new StringBuilder();
            pos++; // opening quote
            while (pos < s.length()) {
                char c = s.charAt(pos++);
                if (c == '\\' && pos < s.length()) {
                    char e = s.charAt(pos++);
                    switch (e) {
                        case 'n' -> sb.append('\n');
                        case 't' -> sb.append('\t');
                        case 'r' -> sb.append('\r');
                        case '0' -> sb.append('\0');
                        case 'b' -> sb.append('\b');
                        case 'f' -> sb.append('\f');
                        default -> sb.append(e);
                    }
                } else if (c == '\'') {
                    if (closes('\'', sb)) {
                        return sb.toString();
                    }
                } else {
                    sb.append(c);
                }
            }
            throw error("unterminated string literal");
        }

        /**
         * After the quote {@code q} that was just read: a doubled {@code q} stands for one, which is appended
         * (and {@code false} returned); a single one closes the quoted text ({@code true}).
         */
        private boolean closes(char q, StringBuilder sb) {
            if (pos < s.length() && s.charAt(pos) == q) {
                sb.append(q);
                pos++;
                return false;
            }
            return true;
        }
    }
}
