package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@code JSON} and {@code JSON(max_dynamic_types=N, max_dynamic_paths=M, path Type, ..., SKIP path,
 * SKIP REGEXP 're')}, per ClickHouse {@code SerializationObject}. The state prefix starts with a UInt64
 * serialization version:
 * <ul>
 * <li>V2 (2; the default a 26.7 server sends over TCP at revision 54473+) and V1 (0; V2 after an
 * extra VarUInt {@code max_dynamic_paths}): VarUInt number of dynamic paths and their names (sorted),
 * then the prefix of every typed path (sorted by path) and of every dynamic path (a {@code Dynamic}
 * prefix each); the data is every typed path's column, every dynamic path's Dynamic column, then the
 * shared data: {@code Array(Tuple(path String, value String))} where each value holds a binary-encoded
 * type and the value in binary form (paths beyond {@code max_dynamic_paths}).</li>
 * <li>STRING (1; sent when the query sets {@code output_format_native_write_json_as_string = 1}): each
 * row is its JSON text, as a length-prefixed string.</li>
 * <li>FLATTENED (3; sent with {@code output_format_native_use_flattened_dynamic_and_json_serialization
 * = 1}): the list of all non-typed paths, typed path prefixes, a FLATTENED Dynamic prefix per path;
 * data: typed path columns then a Dynamic column per path, no shared data.</li>
 * <li>V3 (4) is a MergeTree on-disk form the server does not send; it is rejected.</li>
 * </ul>
 * All readable forms give a {@link JsonColumn}. The default is V2, the object form: it keeps every
 * path's ClickHouse type (typed getters, {@code dynamicType} per value) and costs the server no
 * re-serialization; the text form is for callers that only want the JSON text.
 *
 * <p>Writer: sends the STRING form (version 1, one JSON text per row), which the server parses with
 * the column's own type (typed paths converted, SKIP rules applied) exactly as it parses JSON text in
 * an INSERT; no setting is needed. See {@link #newWriter()}. Immutable and thread-safe.
 */
public final class JsonType extends DataType {
    static final long VERSION_V1 = 0;
    static final long VERSION_STRING = 1;
    static final long VERSION_V2 = 2;
    static final long VERSION_FLATTENED = 3;
    static final long VERSION_V3 = 4;
    static final int DEFAULT_MAX_TYPES = 32;
    static final long DEFAULT_MAX_PATHS = 1024;
    private static final int MAX_PATHS = 1 << 20;
    private static final StringType TEXT = new StringType("String");

    private final Params params;
    private final String[] typedPaths;
    private final DataType[] typedTypes;
    private final DynamicType pathType;
    private final ZoneId serverZone;

    private JsonType(String name, Params params, ZoneId serverZone) {
        super(name);
        this.params = params;
        this.serverZone = serverZone;
        this.typedPaths = params.typedPathTypes().keySet().toArray(new String[0]);
        this.typedTypes = new DataType[typedPaths.length];
        for (int i = 0; i < typedPaths.length; i++) {
            typedTypes[i] = DataTypes.resolve(TypeNode.parse(params.typedPathTypes().get(typedPaths[i])), serverZone);
        }
        this.pathType = DynamicType.parse(TypeNode.parse(DynamicType.nameFor(params.maxTypes())), serverZone);
    }

    static JsonType parse(TypeNode n, ZoneId serverZone) {
        return new JsonType(n.toString(), Params.parse(n), serverZone);
    }

    /**
     * The parameters of a JSON type.
     *
     * @param maxTypes       {@code max_dynamic_types}
     * @param maxPaths       {@code max_dynamic_paths}
     * @param typedPathTypes typed paths (sorted) and their type names
     * @param skipPaths      {@code SKIP} paths
     * @param skipRegexps    {@code SKIP REGEXP} patterns
     */
    record Params(int maxTypes, long maxPaths, Map<String, String> typedPathTypes, List<String> skipPaths,
                  List<String> skipRegexps) {

        static Params parse(TypeNode n) {
            int maxTypes = DEFAULT_MAX_TYPES;
            long maxPaths = DEFAULT_MAX_PATHS;
            TreeMap<String, String> typed = new TreeMap<>(TypeNames.UTF8_ORDER);
            List<String> skips = new ArrayList<>();
            List<String> regexps = new ArrayList<>();
            String raw = n.params().isEmpty() ? "" : n.params().get(0) instanceof TypeNode.RawParam rp ? rp.text() : "";
            for (String item : splitTopLevel(raw)) {
                String it = item.trim();
                if (it.isEmpty()) {
                    continue;
                }
                String[] kv = it.split("\\s*=\\s*", 2);
                try {
                    if (kv.length == 2 && kv[0].equals("max_dynamic_types")) {
                        maxTypes = Integer.parseInt(kv[1]);
                        continue;
                    }
                    if (kv.length == 2 && kv[0].equals("max_dynamic_paths")) {
                        maxPaths = Long.parseLong(kv[1]);
                        continue;
                    }
                } catch (NumberFormatException e) {
                    throw new ClickHouseTypeException("invalid parameter '" + it + "' of " + n);
                }
                if (it.regionMatches(true, 0, "SKIP", 0, 4) && it.length() > 4 && Character.isWhitespace(it.charAt(4))) {
                    String rest = it.substring(5).trim();
                    if (rest.regionMatches(true, 0, "REGEXP", 0, 6) && rest.length() > 6
                            && Character.isWhitespace(rest.charAt(6))) {
                        regexps.add(unquote(rest.substring(7).trim(), n));
                    } else {
                        String[] p = path(rest, n);
                        skips.add(p[0]);
                    }
                    continue;
                }
                String[] p = path(it, n);
                if (p[1].isBlank()) {
                    throw new ClickHouseTypeException("typed path '" + p[0] + "' of " + n + " has no type");
                }
                typed.put(p[0], TypeNode.parse(p[1].trim()).toString());
            }
            return new Params(maxTypes, maxPaths, Collections.unmodifiableMap(typed), List.copyOf(skips),
                    List.copyOf(regexps));
        }

        /** Splits at commas outside parentheses, quotes and backticks. */
        private static List<String> splitTopLevel(String s) {
            List<String> out = new ArrayList<>();
            int level = 0;
            int start = 0;
            char quote = 0;
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (quote != 0) {
                    if (c == '\\') {
                        i++;
                    } else if (c == quote) {
                        quote = 0;
                    }
                } else if (c == '\'' || c == '`' || c == '"') {
                    quote = c;
                } else if (c == '(') {
                    level++;
                } else if (c == ')') {
                    level--;
                } else if (c == ',' && level == 0) {
                    out.add(s.substring(start, i));
                    start = i + 1;
                }
            }
            out.add(s.substring(start));
            return out;
        }

        /** A path (backticked or bare up to whitespace) and the text after it. */
        private static String[] path(String s, TypeNode n) {
            if (s.startsWith("`")) {
                StringBuilder sb = new StringBuilder();
                for (int i = 1; i < s.length(); i++) {
                    char c = s.charAt(i);
                    if (c == '\\' && i + 1 < s.length()) {
                        sb.append(s.charAt(++i));
                    } else if (c == '`') {
                        return new String[] {sb.toString(), s.substring(i + 1)};
                    } else {
                        sb.append(c);
                    }
                }
                throw new ClickHouseTypeException("unterminated path in " + n);
            }
            int i = 0;
            while (i < s.length() && !Character.isWhitespace(s.charAt(i))) {
                i++;
            }
            return new String[] {s.substring(0, i), s.substring(i)};
        }

        private static String unquote(String s, TypeNode n) {
            if (s.length() < 2 || s.charAt(0) != '\'' || s.charAt(s.length() - 1) != '\'') {
                throw new ClickHouseTypeException("SKIP REGEXP of " + n + " needs a quoted string");
            }
            StringBuilder sb = new StringBuilder();
            for (int i = 1; i < s.length() - 1; i++) {
                char c = s.charAt(i);
                if (c == '\\' && i + 1 < s.length() - 1) {
                    sb.append(s.charAt(++i));
                } else {
                    sb.append(c);
                }
            }
            return sb.toString();
        }
    }

    /** The name the server prints for a JSON type with these parameters ({@code DataTypeObject::doGetName}). */
    static String nameFor(int maxTypes, long maxPaths, List<String[]> typedPaths, List<String> skipPaths,
                          List<String> skipRegexps) {
        List<String> parts = new ArrayList<>();
        if (maxTypes != DEFAULT_MAX_TYPES) {
            parts.add("max_dynamic_types=" + maxTypes);
        }
        if (maxPaths != DEFAULT_MAX_PATHS) {
            parts.add("max_dynamic_paths=" + maxPaths);
        }
        List<String[]> typed = new ArrayList<>(typedPaths);
        typed.sort((a, b) -> TypeNames.compareUtf8(a[0], b[0]));
        for (String[] t : typed) {
            parts.add(TypeNames.backQuoteIfNeeded(t[0]) + " " + t[1]);
        }
        List<String> skips = new ArrayList<>(skipPaths);
        skips.sort(TypeNames.UTF8_ORDER);
        for (String s : skips) {
            parts.add("SKIP " + TypeNames.backQuoteIfNeeded(s));
        }
        for (String r : skipRegexps) {
            parts.add("SKIP REGEXP " + TypeNames.quote(r));
        }
        return parts.isEmpty() ? "JSON" : "JSON(" + String.join(", ", parts) + ")";
    }

    /**
     * Typed paths, sorted.
     *
     * @return the paths declared with a type ({@code a.b UInt32}), unmodifiable; empty when none
     */
    public List<String> typedPaths() {
        return List.of(typedPaths);
    }

    /**
     * The type of typed path {@code path}, or {@code null}.
     *
     * @param path a path as declared in the type, e.g. {@code a.b}
     * @return the path's declared type, or {@code null} when {@code path} is not a typed path
     */
    public DataType typedPathType(String path) {
        for (int i = 0; i < typedPaths.length; i++) {
            if (typedPaths[i].equals(path)) {
                return typedTypes[i];
            }
        }
        return null;
    }

    /**
     * {@code max_dynamic_paths}: how many paths are stored as separate Dynamic columns; the others go to
     * the shared data.
     *
     * @return the parameter, 1024 when not given
     */
    public long maxDynamicPaths() {
        return params.maxPaths();
    }

    /**
     * {@code max_dynamic_types}: the {@code max_types} of each dynamic path's Dynamic column.
     *
     * @return the parameter, 32 when not given
     */
    public int maxDynamicTypes() {
        return params.maxTypes();
    }

    /**
     * Prefix state of the object forms (V1, V2, FLATTENED): the dynamic paths, whether shared data follows
     * them, and the states of the typed paths and of each dynamic path's Dynamic (ClickHouse
     * {@code DeserializeBinaryBulkStateObject}).
     */
    private record ObjectState(String[] paths, boolean shared, DeserializationState[] typed,
                               DeserializationState[] dynamic) implements DeserializationState {
    }

    /** Prefix state of the STRING form: each row is JSON text. */
    private enum TextState implements DeserializationState {
        INSTANCE
    }

    @Override
    public DeserializationState readPrefix(BinaryReader in) throws IOException {
        long version = in.readInt64();
        if (version == VERSION_STRING) {
            return TextState.INSTANCE;
        }
        if (version == VERSION_V3) {
            throw new ClickHouseProtocolException("JSON serialization V3 is a MergeTree on-disk format; "
                    + "the native protocol does not carry it");
        }
        if (version != VERSION_V1 && version != VERSION_V2 && version != VERSION_FLATTENED) {
            throw new ClickHouseProtocolException("unknown JSON serialization version " + version);
        }
        if (version == VERSION_V1) {
            in.readVarUInt();
        }
        int n = in.readVarUIntBounded(MAX_PATHS, "JSON dynamic path count");
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            paths.add(in.readString());
        }
        DeserializationState[] typed = new DeserializationState[typedTypes.length];
        for (int i = 0; i < typed.length; i++) {
            typed[i] = typedTypes[i].readPrefix(in);
        }
        DeserializationState[] dynamic = new DeserializationState[n];
        for (int i = 0; i < n; i++) {
            dynamic[i] = pathType.readPrefix(in);
        }
        return new ObjectState(paths.toArray(new String[0]), version != VERSION_FLATTENED, typed, dynamic);
    }

    @Override
    public void writePrefix(BinaryWriter out) throws IOException {
        out.writeInt64(VERSION_STRING);
    }

    @Override
    public Column read(BinaryReader in, int rows, ReadContext ctx, DeserializationState state) throws IOException {
        if (state == TextState.INSTANCE) {
            return new JsonColumn(this, rows, (StringColumn) TEXT.read(in, rows, ctx, DeserializationState.NONE));
        }
        ObjectState s = ownState(this, state, ObjectState.class);
        if (s == null && rows > 0) {
            throw new ClickHouseProtocolException(name + " column data without its state prefix");
        }
        if (s != null && s.typed().length != typedTypes.length) {
            throw foreignState(this, state);
        }
        Column[] typed = new Column[typedTypes.length];
        for (int i = 0; i < typed.length; i++) {
            typed[i] = typedTypes[i].read(in, rows, ctx, s == null ? DeserializationState.NONE : s.typed()[i]);
        }
        if (s == null) { // zero rows without a prefix: the typed paths only
            return new JsonColumn(this, rows, typedPaths, typed, new String[0], new DynamicColumn[0], null, null, null);
        }
        DynamicColumn[] dynamic = new DynamicColumn[s.paths().length];
        for (int i = 0; i < dynamic.length; i++) {
            dynamic[i] = (DynamicColumn) pathType.read(in, rows, ctx, s.dynamic()[i]);
        }
        if (!s.shared()) {
            return new JsonColumn(this, rows, typedPaths, typed, s.paths(), dynamic, null, null, null);
        }
        int[] ends = ArrayType.readOffsets(in, rows, ctx, name + " shared data");
        int total = rows == 0 ? 0 : ends[rows - 1];
        StringColumn paths = (StringColumn) TEXT.read(in, total, ctx, DeserializationState.NONE);
        StringColumn values = (StringColumn) TEXT.read(in, total, ctx, DeserializationState.NONE);
        DynamicColumn sharedValues = DynamicType.decodeBinaryValues(pathType, values, serverZone, ctx,
                in.maxStringBytes());
        return new JsonColumn(this, rows, typedPaths, typed, s.paths(), dynamic, ends, paths, sharedValues);
    }

    /**
     * A writer taking, per row, JSON text ({@code String}/{@code CharSequence}, or UTF-8 {@code byte[]};
     * it must be one JSON object and is checked before anything is sent) or a tree of
     * {@code Map<String, ?>} written as JSON by {@link JsonText#appendJava} (so a value read with
     * {@link JsonColumn#getObject} inserts back as the same object). {@code appendDefault} is
     * {@code {}}; {@code null} is rejected. Sent in the STRING form (version 1).
     */
    @Override
    public ColumnWriter newWriter() {
        return new ForwardingWriter(this, new StringType.Writer(this)) {
            @Override
            public void append(Object value) {
                Object v = value instanceof Optional<?> o ? o.orElse(null) : value;
                String json;
                if (v instanceof CharSequence cs) {
                    json = cs.toString();
                } else if (v instanceof byte[] b) {
                    json = new String(b, StandardCharsets.UTF_8);
                } else if (v instanceof Map<?, ?>) {
                    StringBuilder sb = new StringBuilder();
                    JsonText.appendJava(sb, v, serverZone);
                    json = sb.toString();
                } else if (v == null) {
                    throw ColumnWriter.notNullable(name);
                } else {
                    throw ColumnWriter.cannotConvert(JsonType.this, v);
                }
                Object parsed;
                try {
                    parsed = JsonText.parse(json);
                } catch (IllegalArgumentException e) {
                    throw new ClickHouseTypeException("not a JSON object for type " + name + ": " + e.getMessage(), e);
                }
                if (!(parsed instanceof Map<?, ?>)) {
                    throw new ClickHouseTypeException("a value of type " + name + " must be a JSON object, got: "
                            + (json.length() > 100 ? json.substring(0, 100) + "..." : json));
                }
                delegate.append(json);
            }

            @Override
            public void appendDefault() {
                delegate.append("{}");
            }

            @Override
            public void writePrefix(BinaryWriter out) throws IOException {
                out.writeInt64(VERSION_STRING);
            }
        };
    }

    @Override
    RowBinaryColumns.Builder rowBinaryBuilder(int depth) {
        return new RowBinaryColumns.JsonB(this, depth);
    }

    @Override
    boolean acceptsValue(Object v, boolean strict, int depth) {
        return v instanceof Map<?, ?> || !strict && v instanceof CharSequence;
    }
}
