package dev.clickhousetcp.observe;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Hides the secrets of SQL text before the client records or reports it (observation key values and
 * spans, exception messages, logs), the way ClickHouse hides them in its own logs ({@code system.query_log},
 * the server log): each secret becomes {@code '[HIDDEN]'}, every other character stays as written.
 *
 * <p>What is hidden follows ClickHouse's rules ({@code src/Parsers/FunctionSecretArgumentsFinder.h}, the
 * formatting of authentication data and named collections), applied over a lexer that knows string literals
 * (with {@code \} and {@code ''} escapes), quoted identifiers, heredocs ({@code $tag$...$tag$}) and comments
 * ({@code --}, {@code #}, nested {@code /* *}{@code /}), and never fails. Where the text does not say enough
 * to decide, more is hidden, never less:
 * <ul>
 *   <li>every string literal after {@code IDENTIFIED} in {@code CREATE/ALTER USER} (passwords, hashes,
 *       salts, keys);</li>
 *   <li>every value of {@code CREATE/ALTER NAMED COLLECTION};</li>
 *   <li>the credentials of table functions and of table and database engines, by argument position:
 *       {@code mysql}, {@code postgresql}, {@code MaterializedPostgreSQL}, {@code mongodb} (every argument
 *       from the fifth on, the fourth for a database engine, that is more than a number or a name),
 *       {@code remote}, {@code remoteSecure} (from the fourth: the user or the password),
 *       {@code ExternalDistributed} (from the sixth), {@code Redis} (from the third), the S3 family ({@code s3}, {@code s3Cluster},
 *       {@code gcs}, {@code cosn}, {@code oss}, {@code deltaLake}, {@code hudi}, {@code iceberg*},
 *       {@code S3Queue}, {@code DataLakeCatalog}, {@code BACKUP ... TO S3(...)}: the secret key and a session
 *       token), the Azure family ({@code azureBlobStorage*}, {@code AzureQueue}, {@code icebergAzure*}: the
 *       account key);</li>
 *   <li>all arguments after the mode of {@code encrypt}, {@code decrypt}, {@code tryDecrypt},
 *       {@code aes_encrypt_mysql}, {@code aes_decrypt_mysql} (as the server writes {@code encrypt('mode', '[HIDDEN]')});</li>
 *   <li>the values of {@code headers(...)} (S3 and URL);</li>
 *   <li>a literal after a name that speaks of a secret, with or without {@code =} ({@code PASSWORD 'x'} of a
 *       dictionary source, {@code secret_access_key = 'x'}, {@code kafka_sasl_password = 'x'}, any name
 *       containing {@code password}, {@code passwd}, {@code secret}, {@code token}, {@code credential} or
 *       ending in {@code key});</li>
 *   <li>inside any literal: the password of a URL ({@code scheme://user:[HIDDEN]@host}), {@code AccountKey=},
 *       {@code SharedAccessSignature=}, {@code PWD=} and {@code Password=} of connection strings.</li>
 * </ul>
 * Should the masking itself fail, the whole text but its first word is hidden.
 *
 * <p>Stateless and thread-safe; time and memory linear in the text's length.
 */
public final class QueryMasking {

    /** What a hidden value becomes, as ClickHouse writes it. */
    public static final String HIDDEN = "'[HIDDEN]'";

    /** Table functions and engines with a password at the fifth argument (the fourth for database engines). */
    private static final Set<String> USER_PASSWORD = Set.of("mysql", "postgresql", "materializedpostgresql", "mongodb");
    private static final Set<String> S3_FAMILY = Set.of("s3", "gcs", "cosn", "oss", "deltalake", "hudi", "iceberg",
            "icebergs3", "s3queue", "datalakecatalog", "deltalakes3", "icebergs3queue");
    private static final Set<String> S3_CLUSTER_FAMILY = Set.of("s3cluster", "icebergs3cluster", "icebergcluster",
            "deltalakecluster", "hudicluster", "deltalakes3cluster");
    private static final Set<String> AZURE_FAMILY = Set.of("azureblobstorage", "azurequeue", "icebergazure",
            "deltalakeazure");
    private static final Set<String> AZURE_CLUSTER_FAMILY = Set.of("azureblobstoragecluster", "icebergazurecluster",
            "deltalakeazurecluster");
    private static final Set<String> ENCRYPTION = Set.of("encrypt", "decrypt", "trydecrypt", "aes_encrypt_mysql",
            "aes_decrypt_mysql");

    /** Every function and engine name above, and {@code headers}. */
    private static final Set<String> WITH_SECRETS = union(USER_PASSWORD, S3_FAMILY, S3_CLUSTER_FAMILY, AZURE_FAMILY,
            AZURE_CLUSTER_FAMILY, ENCRYPTION, Set.of("headers", "remote", "remotesecure", "externaldistributed", "redis"));

    /** The formats of ClickHouse 26.7 ({@code SELECT name FROM system.formats}), lower case, and {@code auto}. */
    private static final Set<String> FORMATS = new HashSet<>(Arrays.asList(("auto Arrow ArrowStream Avro AvroConfluent "
            + "BSONEachRow Buffers CSV CSVWithNames CSVWithNamesAndTypes CustomSeparated CustomSeparatedIgnoreSpaces "
            + "CustomSeparatedIgnoreSpacesWithNames CustomSeparatedIgnoreSpacesWithNamesAndTypes CustomSeparatedWithNames "
            + "CustomSeparatedWithNamesAndTypes DWARF Form GeoJSON Hash JSON JSONAsObject JSONAsString JSONColumns "
            + "JSONColumnsWithMetadata JSONCompact JSONCompactColumns JSONCompactEachRow JSONCompactEachRowWithNames "
            + "JSONCompactEachRowWithNamesAndTypes JSONCompactEachRowWithProgress JSONCompactStrings "
            + "JSONCompactStringsEachRow JSONCompactStringsEachRowWithNames JSONCompactStringsEachRowWithNamesAndTypes "
            + "JSONCompactStringsEachRowWithProgress JSONEachRow JSONEachRowWithProgress JSONL JSONLines "
            + "JSONObjectEachRow JSONStrings JSONStringsEachRow JSONStringsEachRowWithProgress LineAsString "
            + "LineAsStringWithNames LineAsStringWithNamesAndTypes MD Markdown MsgPack MySQLDump MySQLWire NDJSON Native "
            + "Npy Null ODBCDriver2 ORC One PNG Parquet ParquetMetadata PostgreSQLWire Pretty PrettyCompact "
            + "PrettyCompactMonoBlock PrettyCompactNoEscapes PrettyCompactNoEscapesMonoBlock PrettyJSONEachRow "
            + "PrettyJSONLines PrettyMonoBlock PrettyNDJSON PrettyNoEscapes PrettyNoEscapesMonoBlock PrettySpace "
            + "PrettySpaceMonoBlock PrettySpaceNoEscapes PrettySpaceNoEscapesMonoBlock Prometheus Protobuf ProtobufList "
            + "ProtobufSingle Raw RawBLOB RawWithNames RawWithNamesAndTypes Regexp RowBinary RowBinaryWithDefaults "
            + "RowBinaryWithNames RowBinaryWithNamesAndTypes RowBinaryWithNamesAndTypesAndDefaults SQLInsert TSKV TSV "
            + "TSVRaw TSVRawWithNames TSVRawWithNamesAndTypes TSVWithNames TSVWithNamesAndTypes TabSeparated "
            + "TabSeparatedRaw TabSeparatedRawWithNames TabSeparatedRawWithNamesAndTypes TabSeparatedWithNames "
            + "TabSeparatedWithNamesAndTypes Template TemplateIgnoreSpaces Values Vertical XML")
            .toLowerCase(Locale.ROOT).split(" ")));

    /** Secrets inside a literal: a URL's password, connection-string keys. Group 1 is kept, group 2 hidden. */
    private static final Pattern URL_PASSWORD = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*://[^/@:\\s'\"]*:)([^@/\\s'\"]*)@");
    private static final Pattern CONNECTION_STRING_SECRET = Pattern.compile(
            "(?i)((?:AccountKey|SharedAccessSignature|PWD|Password)\\s*=)([^;'\"]*)");

    private QueryMasking() {
    }

    @SafeVarargs
    private static Set<String> union(Set<String>... sets) {
        Set<String> all = new HashSet<>();
        for (Set<String> set : sets) {
            all.addAll(set);
        }
        return Set.copyOf(all);
    }

    /**
     * The text with its secrets hidden.
     *
     * @param sql SQL text, possibly several statements, possibly malformed; {@code null} gives {@code null}
     * @return {@code sql} with each secret replaced by {@link #HIDDEN}; the same instance when it holds none
     */
    public static String mask(String sql) {
        if (sql == null || sql.isEmpty()) {
            return sql;
        }
        try {
            return new Masker(sql).run();
        } catch (RuntimeException | StackOverflowError e) {
            // never fail, never leak: keep only the first word
            int end = 0;
            while (end < sql.length() && end < 32 && Character.isLetter(sql.charAt(end))) {
                end++;
            }
            return sql.substring(0, end) + " " + HIDDEN;
        }
    }

    /** Token kinds. */
    private enum Kind { WORD, NUMBER, STRING, QUOTED_ID, PARAM, OPEN, CLOSE, COMMA, EQUALS, SEMICOLON, OTHER }

    private record Token(Kind kind, int start, int end) {
    }

    /** One masking run over one text. */
    private static final class Masker {
        private final String s;
        private final List<Token> tokens = new ArrayList<>();
        /** For an opening bracket token, the index of its closing one (or the token count when unclosed). */
        private int[] match;
        /** For each token, whether its statement creates or attaches a database (its engine has a database signature). */
        private boolean[] databaseStatement;
        /** Character ranges to hide, as [start, end) pairs. */
        private final List<int[]> hidden = new ArrayList<>();
        /** Literal tokens replaced by a partly hidden text (a URL password, a connection-string key). */
        private final List<Object[]> rewritten = new ArrayList<>();

        Masker(String s) {
            this.s = s;
        }

        String run() {
            lex();
            matchBrackets();
            databaseStatement = new boolean[tokens.size()];
            int statementStart = 0;
            for (int i = 0; i <= tokens.size(); i++) {
                if (i == tokens.size() || tokens.get(i).kind == Kind.SEMICOLON) {
                    statement(statementStart, i);
                    statementStart = i + 1;
                }
            }
            for (int i = 0; i < tokens.size(); i++) {
                Token t = tokens.get(i);
                if (t.kind == Kind.WORD && i + 1 < tokens.size() && tokens.get(i + 1).kind == Kind.OPEN
                        && s.charAt(tokens.get(i + 1).start) == '(') {
                    function(i);
                } else if (t.kind == Kind.WORD) {
                    int v = i + 1 < tokens.size() && tokens.get(i + 1).kind == Kind.EQUALS ? i + 2 : i + 1;
                    if (v < tokens.size() && tokens.get(v).kind == Kind.STRING && secretName(text(t))) {
                        hide(v, v + 1);
                    }
                } else if (t.kind == Kind.STRING) {
                    literal(t);
                }
            }
            return render();
        }

        // ---- statements ----

        private void statement(int from, int to) {
            int i = from;
            if ((word(i, "CREATE") || word(i, "ATTACH")) && (word(i + 1, "DATABASE")
                    || word(i + 1, "OR") && word(i + 2, "REPLACE") && word(i + 3, "DATABASE"))) {
                Arrays.fill(databaseStatement, from, to, true);
            }
            if (i < to && word(i, "CREATE") || i < to && word(i, "ALTER")) {
                int j = i + 1;
                if (word(j, "OR") && word(j + 1, "REPLACE")) {
                    j += 2;
                }
                if (word(j, "NAMED") && word(j + 1, "COLLECTION")) {
                    namedCollection(j + 2, to);
                    return;
                }
            }
            for (int k = from; k < to; k++) {
                if (word(k, "IDENTIFIED")) {
                    for (int m = k + 1; m < to; m++) {
                        if (tokens.get(m).kind == Kind.STRING) {
                            hide(m, m + 1);
                        }
                    }
                    return;
                }
            }
        }

        /** Every literal and every value after {@code =} of a named collection statement. */
        private void namedCollection(int from, int to) {
            for (int k = from; k < to; k++) {
                Token t = tokens.get(k);
                if (t.kind == Kind.STRING) {
                    hide(k, k + 1);
                } else if (t.kind == Kind.EQUALS && k + 1 < to) {
                    int v = k + 1;
                    if (tokens.get(v).kind == Kind.OTHER && v + 1 < to) {
                        v++; // a sign
                    }
                    hide(k + 1, v + 1);
                }
            }
        }

        // ---- functions and engines ----

        private void function(int nameIndex) {
            String name = text(tokens.get(nameIndex)).toLowerCase(Locale.ROOT);
            if (!WITH_SECRETS.contains(name)) {
                return;
            }
            List<int[]> args = arguments(nameIndex + 1);
            if (name.equals("headers")) {
                for (int[] a : args) {
                    if (named(a)) {
                        hide(a[0] + 2, a[1]);
                    } else {
                        hide(a[0], a[1]);
                    }
                }
            } else if (USER_PASSWORD.contains(name)) {
                hideFrom(args, databaseStatement[nameIndex] ? 3 : 4);
            } else if (name.equals("remote") || name.equals("remotesecure")) {
                hideFrom(args, 3); // the password follows 'db', 'table', 'user' or db.table, 'user'
            } else if (name.equals("externaldistributed")) {
                hideFrom(args, 5);
            } else if (name.equals("redis")) {
                hideFrom(args, 2);
            } else if (S3_FAMILY.contains(name)) {
                s3(args, 0);
            } else if (S3_CLUSTER_FAMILY.contains(name)) {
                s3(args, 1);
            } else if (AZURE_FAMILY.contains(name)) {
                azure(args, 0);
            } else if (AZURE_CLUSTER_FAMILY.contains(name)) {
                azure(args, 1);
            } else if (ENCRYPTION.contains(name) && args.size() > 1) {
                hide(args.get(1)[0], args.get(args.size() - 1)[1]);
            }
        }

        /** Hides the arguments from {@code first} on that are more than a number or a name; named ones by value. */
        private void hideFrom(List<int[]> args, int first) {
            for (int k = first; k < args.size(); k++) {
                int[] a = args.get(k);
                if (named(a)) {
                    hide(a[0] + 2, a[1]);
                } else if (!(a[1] - a[0] == 1 && (tokens.get(a[0]).kind == Kind.NUMBER
                        || tokens.get(a[0]).kind == Kind.WORD || tokens.get(a[0]).kind == Kind.PARAM))) {
                    hide(a[0], a[1]);
                }
            }
        }

        /** {@code s3('url', 'key_id', 'secret' [, 'session_token'] [, 'format', ...])} with the url at {@code url}. */
        private void s3(List<int[]> args, int url) {
            int count = positional(args);
            if (count <= url || isName(args.get(url))) {
                return; // a named collection: its named secrets are hidden by name
            }
            String second = count > url + 1 ? value(args.get(url + 1)) : null;
            if (second != null && second.equalsIgnoreCase("NOSIGN")) {
                return;
            }
            if (second != null && FORMATS.contains(second.toLowerCase(Locale.ROOT)) && count <= url + 4) {
                return; // s3('url', 'format', 'structure' [, 'compression'])
            }
            if (count > url + 2) {
                hide(args.get(url + 2)[0], args.get(url + 2)[1]);
            }
            if (count > url + 3) {
                String fourth = value(args.get(url + 3));
                if (fourth == null || !FORMATS.contains(fourth.toLowerCase(Locale.ROOT))) {
                    hide(args.get(url + 3)[0], args.get(url + 3)[1]); // a session token
                }
            }
        }

        /** {@code azureBlobStorage(conn, container, path, [account_name, account_key,] ...)} with conn at {@code url}. */
        private void azure(List<int[]> args, int url) {
            int count = positional(args);
            if (count <= url || isName(args.get(url))) {
                return;
            }
            String fourth = count > url + 3 ? value(args.get(url + 3)) : null;
            if (fourth != null && FORMATS.contains(fourth.toLowerCase(Locale.ROOT)) && count <= url + 7) {
                return;
            }
            if (count > url + 4) {
                hide(args.get(url + 4)[0], args.get(url + 4)[1]);
            }
        }

        /** The arguments before the trailing {@code headers(...)} and {@code extra_credentials(...)}. */
        private int positional(List<int[]> args) {
            int count = args.size();
            while (count > 0) {
                int[] a = args.get(count - 1);
                Token first = tokens.get(a[0]);
                if (first.kind == Kind.WORD && a[1] - a[0] >= 2 && tokens.get(a[0] + 1).kind == Kind.OPEN
                        && (text(first).equalsIgnoreCase("headers") || text(first).equalsIgnoreCase("extra_credentials"))) {
                    count--;
                } else {
                    break;
                }
            }
            return count;
        }

        /** The argument's text when it is one literal or one name (the literal unquoted, escapes kept), else null. */
        private String value(int[] a) {
            if (a[1] - a[0] != 1) {
                return null;
            }
            Token t = tokens.get(a[0]);
            if (t.kind == Kind.STRING && t.end - t.start >= 2) {
                return s.substring(t.start + 1, t.end - 1);
            }
            return t.kind == Kind.WORD ? text(t) : null;
        }

        private boolean isName(int[] a) {
            return a[1] - a[0] == 1 && (tokens.get(a[0]).kind == Kind.WORD || tokens.get(a[0]).kind == Kind.QUOTED_ID);
        }

        private boolean named(int[] a) {
            return a[1] - a[0] >= 2 && tokens.get(a[0] + 1).kind == Kind.EQUALS;
        }

        /** The arguments of the call whose opening parenthesis is token {@code open}, as token ranges. */
        private List<int[]> arguments(int open) {
            List<int[]> args = new ArrayList<>();
            int close = match[open];
            int start = open + 1;
            int k = start;
            while (k < close) {
                Token t = tokens.get(k);
                if (t.kind == Kind.OPEN) {
                    k = match[k] + 1;
                    continue;
                }
                if (t.kind == Kind.COMMA) {
                    if (k > start) {
                        args.add(new int[] {start, k});
                    }
                    start = k + 1;
                }
                k++;
            }
            if (close > start) {
                args.add(new int[] {start, Math.min(close, tokens.size())});
            }
            return args;
        }

        // ---- names and literals ----

        private static boolean secretName(String word) {
            String w = word.toLowerCase(Locale.ROOT);
            return w.contains("password") || w.contains("passwd") || w.contains("secret") || w.contains("token")
                    || w.contains("credential") || w.endsWith("key") && !w.equals("key") && !w.endsWith("_by_key")
                    && !w.equals("primary_key") && !w.equals("sorting_key") && !w.equals("sharding_key");
        }

        /** A literal holding a URL password or connection-string key is rewritten with it hidden. */
        private void literal(Token t) {
            if (!contains(t, '=') && !contains(t, '@')) {
                return; // neither a connection string nor a URL with a password
            }
            String raw = s.substring(t.start, t.end);
            String out = URL_PASSWORD.matcher(raw).replaceAll("$1[HIDDEN]@");
            Matcher m = CONNECTION_STRING_SECRET.matcher(out);
            out = m.replaceAll("$1[HIDDEN]");
            if (!out.equals(raw)) {
                rewritten.add(new Object[] {t.start, t.end, out});
            }
        }

        private boolean contains(Token t, char c) {
            for (int k = t.start; k < t.end; k++) {
                if (s.charAt(k) == c) {
                    return true;
                }
            }
            return false;
        }

        private void hide(int fromToken, int toToken) {
            if (fromToken >= toToken || fromToken >= tokens.size()) {
                return;
            }
            hidden.add(new int[] {tokens.get(fromToken).start, tokens.get(Math.min(toToken, tokens.size()) - 1).end});
        }

        private boolean word(int i, String w) {
            return i < tokens.size() && tokens.get(i).kind == Kind.WORD && text(tokens.get(i)).equalsIgnoreCase(w);
        }

        private String text(Token t) {
            return s.substring(t.start, t.end);
        }

        // ---- output ----

        private String render() {
            if (hidden.isEmpty() && rewritten.isEmpty()) {
                return s;
            }
            hidden.sort((a, b) -> Integer.compare(a[0], b[0]));
            List<int[]> merged = new ArrayList<>();
            for (int[] h : hidden) {
                int[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
                if (last != null && h[0] <= last[1]) {
                    last[1] = Math.max(last[1], h[1]);
                } else {
                    merged.add(new int[] {h[0], h[1]});
                }
            }
            StringBuilder out = new StringBuilder(s.length());
            int pos = 0;
            int r = 0;
            rewritten.sort((a, b) -> Integer.compare((int) a[0], (int) b[0]));
            for (int[] h : merged) {
                pos = copy(out, pos, h[0], r);
                r = skipRewritten(r, h[1]);
                out.append(HIDDEN);
                pos = h[1];
            }
            copy(out, pos, s.length(), r);
            return out.toString();
        }

        /** Copies [from, to) to {@code out}, with the rewritten literals in it. */
        private int copy(StringBuilder out, int from, int to, int r) {
            int pos = from;
            for (int k = r; k < rewritten.size(); k++) {
                Object[] w = rewritten.get(k);
                int start = (int) w[0];
                int end = (int) w[1];
                if (start < pos) {
                    continue;
                }
                if (end > to) {
                    break;
                }
                out.append(s, pos, start).append((String) w[2]);
                pos = end;
            }
            out.append(s, pos, to);
            return to;
        }

        private int skipRewritten(int r, int upTo) {
            while (r < rewritten.size() && (int) rewritten.get(r)[0] < upTo) {
                r++;
            }
            return r;
        }

        // ---- lexer ----

        private void lex() {
            int n = s.length();
            int i = 0;
            while (i < n) {
                char c = s.charAt(i);
                if (Character.isWhitespace(c)) {
                    i++;
                } else if (c == '-' && i + 1 < n && s.charAt(i + 1) == '-' || c == '#' && (i + 1 == n
                        || s.charAt(i + 1) == ' ' || s.charAt(i + 1) == '!')) {
                    while (i < n && s.charAt(i) != '\n') {
                        i++;
                    }
                } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
                    i = blockComment(i);
                } else if (c == '\'') {
                    i = add(Kind.STRING, i, quoted(i, '\''));
                } else if (c == '"' || c == '`') {
                    i = add(Kind.QUOTED_ID, i, quoted(i, c));
                } else if (c == '$' && heredocEnd(i) > 0) {
                    i = add(Kind.STRING, i, heredocEnd(i));
                } else if (c == '{' && paramEnd(i) > 0) {
                    i = add(Kind.PARAM, i, paramEnd(i));
                } else if (Character.isLetter(c) || c == '_') {
                    int j = i + 1;
                    while (j < n && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '_' || s.charAt(j) == '$')) {
                        j++;
                    }
                    i = add(Kind.WORD, i, j);
                } else if (Character.isDigit(c)) {
                    int j = i + 1;
                    while (j < n && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '.' || s.charAt(j) == '_')) {
                        j++;
                    }
                    i = add(Kind.NUMBER, i, j);
                } else {
                    Kind k = switch (c) {
                        case '(', '[', '{' -> Kind.OPEN;
                        case ')', ']', '}' -> Kind.CLOSE;
                        case ',' -> Kind.COMMA;
                        case '=' -> Kind.EQUALS;
                        case ';' -> Kind.SEMICOLON;
                        default -> Kind.OTHER;
                    };
                    if (c == '=' && i + 1 < n && s.charAt(i + 1) == '=') {
                        i = add(Kind.OTHER, i, i + 2);
                    } else {
                        i = add(k, i, i + 1);
                    }
                }
            }
        }

        private int add(Kind kind, int start, int end) {
            tokens.add(new Token(kind, start, end));
            return end;
        }

        /** The end of the (nested) block comment at {@code i}; unclosed: the text's end. */
        private int blockComment(int i) {
            int n = s.length();
            int depth = 0;
            int j = i;
            while (j < n) {
                if (s.startsWith("/*", j)) {
                    depth++;
                    j += 2;
                } else if (s.startsWith("*/", j)) {
                    depth--;
                    j += 2;
                    if (depth == 0) {
                        return j;
                    }
                } else {
                    j++;
                }
            }
            return n;
        }

        /** The end of the quoted text starting at {@code i}: {@code \} escapes, a doubled quote is one; unclosed: the text's end. */
        private int quoted(int i, char q) {
            int n = s.length();
            int j = i + 1;
            while (j < n) {
                char c = s.charAt(j);
                if (c == '\\') {
                    j += 2;
                } else if (c == q) {
                    if (j + 1 < n && s.charAt(j + 1) == q) {
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

        /** The end of a heredoc {@code $tag$...$tag$} at {@code i} (the text's end when unclosed), or -1 when none starts there. */
        private int heredocEnd(int i) {
            int j = i + 1;
            while (j < s.length() && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '_')) {
                j++;
            }
            if (j >= s.length() || s.charAt(j) != '$') {
                return -1;
            }
            String tag = s.substring(i, j + 1);
            int close = s.indexOf(tag, j + 1);
            return close < 0 ? s.length() : close + tag.length();
        }

        /** The end of a query parameter {@code {name:Type}} at {@code i}, or -1. */
        private int paramEnd(int i) {
            int j = i + 1;
            while (j < s.length() && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '_')) {
                j++;
            }
            if (j == i + 1 || j >= s.length() || s.charAt(j) != ':') {
                return -1;
            }
            int limit = Math.min(s.length(), j + 256); // a type name is short: keeps the lexer linear
            for (int k = j + 1; k < limit; k++) {
                char c = s.charAt(k);
                if (c == '}') {
                    return k + 1;
                }
                if (c == '\n' || c == '{' || c == '\'') {
                    return -1;
                }
            }
            return -1;
        }

        /** Pairs brackets with a stack; an unclosed one is matched with the end, a stray closing one is ignored. */
        private void matchBrackets() {
            int n = tokens.size();
            match = new int[n];
            Arrays.fill(match, -1);
            int[] stack = new int[n];
            int top = 0;
            for (int k = 0; k < n; k++) {
                Kind kind = tokens.get(k).kind;
                if (kind == Kind.OPEN) {
                    stack[top++] = k;
                } else if (kind == Kind.CLOSE && top > 0) {
                    match[stack[--top]] = k;
                }
            }
            while (top > 0) {
                match[stack[--top]] = n;
            }
        }
    }
}
