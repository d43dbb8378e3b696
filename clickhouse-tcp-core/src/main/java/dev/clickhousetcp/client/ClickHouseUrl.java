package dev.clickhousetcp.client;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A parsed connection URL of the native protocol, as {@link ClickHouseTcpClient.Builder#url(String)}
 * takes it:
 *
 * <pre>
 * clickhouse://[user[:password]@][host[:port][,host[:port]...]][/database][?name=value[&amp;name=value...]]
 * </pre>
 *
 * <ul>
 *   <li>hosts: names, IPv4 literals or bracketed IPv6 literals ({@code [::1]:9000}); several hosts are
 *       several endpoints; none means the builder's own (localhost). A host without a port gets the
 *       caller's default ({@value #DEFAULT_PORT}, or {@value #DEFAULT_SECURE_PORT} with TLS);</li>
 *   <li>user, password and database are percent-decoded ({@code %40} for {@code @}, {@code %2F} for
 *       {@code /}, {@code %3A} for {@code :} in the user);</li>
 *   <li>query parameters named {@value #SECURE} ({@code true}/{@code false}; alone it means true),
 *       {@value #COMPRESSION} ({@code none}, {@code lz4}, {@code zstd}), {@value #ZSTD_LEVEL}
 *       ({@code 1}..{@code 22}, with zstd) and {@value #CLIENT_NAME} are client options; every other
 *       parameter is a ClickHouse setting sent with every query ({@code max_threads=4}). Names and values
 *       are percent-decoded; a name may appear once.</li>
 * </ul>
 *
 * <p>A malformed URL fails with an {@link IllegalArgumentException} that says what is wrong and where,
 * but never contains the password (nor the whole URL). {@link #toString()} hides the password too.
 * Immutable and thread-safe.
 */
public final class ClickHouseUrl {
    /** The URL scheme. */
    public static final String SCHEME = "clickhouse";
    /** The native protocol's plain port, for hosts given without one. */
    public static final int DEFAULT_PORT = 9000;
    /** The native protocol's TLS port, for hosts given without one when TLS is on. */
    public static final int DEFAULT_SECURE_PORT = 9440;
    /** Client option: connect with TLS ({@code true}/{@code false}). */
    public static final String SECURE = "secure";
    /** Client option: network compression ({@code none}, {@code lz4}, {@code zstd}). */
    public static final String COMPRESSION = "compression";
    /** Client option: ZSTD level, 1..22 (with {@code compression=zstd}). */
    public static final String ZSTD_LEVEL = "zstd_level";
    /** Client option: the client name reported to the server. */
    public static final String CLIENT_NAME = "client_name";
    /** The query parameters that are client options rather than ClickHouse settings. */
    public static final Set<String> CLIENT_OPTIONS = Set.of(SECURE, COMPRESSION, ZSTD_LEVEL, CLIENT_NAME);

    private static final java.util.regex.Pattern SAFE_NAME = java.util.regex.Pattern.compile("[A-Za-z0-9_.\\-]*");

    private static final String ENCODE_HINT = " (percent-encode '@', ':', '/', '?', '#' and '%' in user and password, "
            + "e.g. %2F for '/')";

    private static final String SYNTAX = "clickhouse://[user[:password]@][host[:port][,host[:port]...]][/database]"
            + "[?name=value&...]";

    private final List<String> hosts;
    private final List<Integer> ports;
    private final String user;
    private final String password;
    private final String database;
    private final Boolean secure;
    private final Compression compression;
    private final String clientName;
    private final Map<String, String> settings;

    private ClickHouseUrl(List<String> hosts, List<Integer> ports, String user, String password, String database,
                          Boolean secure, Compression compression, String clientName, Map<String, String> settings) {
        this.hosts = List.copyOf(hosts);
        this.ports = Collections.unmodifiableList(new ArrayList<>(ports));
        this.user = user;
        this.password = password;
        this.database = database;
        this.secure = secure;
        this.compression = compression;
        this.clientName = clientName;
        this.settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings));
    }

    /**
     * Parses a URL.
     *
     * @param url the URL ({@code clickhouse://...}, scheme case-insensitive; surrounding whitespace ignored)
     * @return the parsed URL
     * @throws IllegalArgumentException when it is malformed; the message names the problem but never
     *                                  the password
     */
    public static ClickHouseUrl parse(String url) {
        if (url == null || url.isBlank()) {
            throw malformed("it is empty");
        }
        String text = url.trim();
        int schemeEnd = text.indexOf("://");
        if (schemeEnd < 0) {
            throw malformed("it does not start with " + SCHEME + "://");
        }
        String scheme = text.substring(0, schemeEnd);
        if (!scheme.equalsIgnoreCase(SCHEME)) {
            throw malformed("its scheme must be " + SCHEME + ", not '" + printable(scheme) + "'"
                    + (scheme.toLowerCase(Locale.ROOT).startsWith("http")
                    ? " (this client speaks the native TCP protocol, port 9000 or 9440, not HTTP)" : ""));
        }
        String rest = text.substring(schemeEnd + 3);
        if (rest.indexOf('#') >= 0) {
            throw malformed("it holds a '#'" + ENCODE_HINT);
        }
        // RFC 3986: the authority ends at the first '/' or '?'; its user info at the last '@' in it
        int authorityEnd = indexOfAny(rest, '/', '?');
        String authority = authorityEnd < 0 ? rest : rest.substring(0, authorityEnd);
        String userInfo = null;
        int at = authority.lastIndexOf('@');
        if (at >= 0) {
            userInfo = authority.substring(0, at);
            authority = authority.substring(at + 1);
        }
        String path = "";
        String query = null;
        if (authorityEnd >= 0) {
            String tail = rest.substring(authorityEnd);
            int q = tail.indexOf('?');
            path = q < 0 ? tail : tail.substring(0, q);
            query = q < 0 ? null : tail.substring(q + 1);
        }
        if (path.indexOf('@') >= 0 || (userInfo == null && query != null && beforeFirstEquals(query).indexOf('@') >= 0)) {
            throw malformed("an '@' follows a '/' or '?'" + ENCODE_HINT);
        }

        String user = null;
        String password = null;
        if (userInfo != null) {
            int colon = userInfo.indexOf(':');
            String rawUser = colon < 0 ? userInfo : userInfo.substring(0, colon);
            user = decode(rawUser, "the user");
            if (user.isEmpty()) {
                throw malformed("the user before '@' is empty");
            }
            if (colon >= 0) {
                password = decodeSecret(userInfo.substring(colon + 1));
            }
        }

        List<String> hosts = new ArrayList<>();
        List<Integer> ports = new ArrayList<>();
        if (!authority.isEmpty()) {
            String[] parts = authority.split(",", -1);
            for (int i = 0; i < parts.length; i++) {
                parseHost(parts[i].trim(), i + 1, parts.length, hosts, ports);
            }
        }

        String database = null;
        if (!path.isEmpty() && !path.equals("/")) {
            String db = path.substring(1);
            if (db.indexOf('/') >= 0) {
                throw malformed("the path must be a single database name, not several segments" + ENCODE_HINT);
            }
            database = decode(db, "the database");
        }

        Boolean secure = null;
        String compressionName = null;
        Integer zstdLevel = null;
        String clientName = null;
        Map<String, String> settings = new LinkedHashMap<>();
        if (query != null && !query.isEmpty()) {
            Set<String> seen = new java.util.HashSet<>();
            for (String pair : query.split("&", -1)) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String name = decode(eq < 0 ? pair : pair.substring(0, eq), "a parameter name").trim();
                if (!SAFE_NAME.matcher(name).matches()) {
                    throw malformed("a query parameter name holds characters other than letters, digits, '_', '.' "
                            + "and '-'" + ENCODE_HINT);
                }
                if (name.isEmpty()) {
                    throw malformed("a query parameter has no name");
                }
                if (!seen.add(name)) {
                    throw malformed("the query parameter '" + name + "' appears more than once");
                }
                if (eq < 0 && !name.equals(SECURE)) {
                    throw malformed("the query parameter '" + name + "' has no value (write " + name + "=value)");
                }
                String value = eq < 0 ? "true" : decode(pair.substring(eq + 1), "the value of '" + name + "'");
                switch (name) {
                    case SECURE -> secure = parseBoolean(name, value);
                    case COMPRESSION -> compressionName = value.trim().toLowerCase(Locale.ROOT);
                    case ZSTD_LEVEL -> zstdLevel = parseInt(name, value);
                    case CLIENT_NAME -> clientName = value;
                    default -> settings.put(name, value);
                }
            }
        }
        Compression compression = compression(compressionName, zstdLevel);
        return new ClickHouseUrl(hosts, ports, user, password, database, secure, compression, clientName, settings);
    }

    private static void parseHost(String part, int index, int count, List<String> hosts, List<Integer> ports) {
        String which = count == 1 ? "the host" : "host " + index + " of " + count;
        if (part.isEmpty()) {
            throw malformed(which + " is empty (look for a stray ',')");
        }
        String host;
        String port = null;
        if (part.startsWith("[")) {
            int end = part.indexOf(']');
            if (end < 0) {
                throw malformed(which + " '" + printable(part) + "' lacks the closing ']' of its IPv6 address");
            }
            host = part.substring(1, end);
            String after = part.substring(end + 1);
            if (!after.isEmpty()) {
                if (!after.startsWith(":")) {
                    throw malformed(which + " '" + printable(part) + "' has text after its IPv6 address");
                }
                port = after.substring(1);
            }
        } else {
            int colon = part.indexOf(':');
            if (colon >= 0 && part.indexOf(':', colon + 1) >= 0) {
                throw malformed(which + " '" + printable(part) + "' holds several ':'; write IPv6 addresses in "
                        + "brackets, e.g. [::1]:9000");
            }
            host = colon < 0 ? part : part.substring(0, colon);
            port = colon < 0 ? null : part.substring(colon + 1);
        }
        if (host.isEmpty()) {
            throw malformed(which + " '" + printable(part) + "' has no host name");
        }
        Integer p = null;
        if (port != null) {
            try {
                p = Integer.parseInt(port);
            } catch (NumberFormatException e) {
                p = -1;
            }
            if (p < 1 || p > 65535) {
                throw malformed("the port " + (port.chars().allMatch(Character::isDigit) && port.length() <= 10
                        ? "'" + port + "' " : "") + "of " + which + " must be a number from 1 to 65535"
                        + (p < 0 ? ENCODE_HINT : ""));
            }
        }
        hosts.add(host);
        ports.add(p);
    }

    private static Compression compression(String name, Integer zstdLevel) {
        if (name == null) {
            if (zstdLevel != null) {
                throw malformed(ZSTD_LEVEL + " needs " + COMPRESSION + "=zstd");
            }
            return null;
        }
        switch (name) {
            case "none" -> {
                return requireNoLevel(Compression.NONE, zstdLevel);
            }
            case "lz4" -> {
                return requireNoLevel(Compression.LZ4, zstdLevel);
            }
            case "zstd" -> {
                if (zstdLevel == null) {
                    return Compression.ZSTD;
                }
                if (zstdLevel < 1 || zstdLevel > 22) {
                    throw malformed(ZSTD_LEVEL + " must be from 1 to 22, not " + zstdLevel);
                }
                return Compression.zstd(zstdLevel);
            }
            default -> throw malformed(COMPRESSION + " must be none, lz4 or zstd, not '" + printable(name) + "'");
        }
    }

    private static Compression requireNoLevel(Compression compression, Integer zstdLevel) {
        if (zstdLevel != null) {
            throw malformed(ZSTD_LEVEL + " needs " + COMPRESSION + "=zstd");
        }
        return compression;
    }

    private static boolean parseBoolean(String name, String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true", "1", "yes" -> true;
            case "false", "0", "no" -> false;
            default -> throw malformed("the query parameter '" + name + "' must be true or false, not '"
                    + printable(value) + "'");
        };
    }

    private static int parseInt(String name, String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw malformed("the query parameter '" + name + "' must be a number, not '" + printable(value) + "'");
        }
    }

    private static String beforeFirstEquals(String s) {
        int eq = s.indexOf('=');
        return eq < 0 ? s : s.substring(0, eq);
    }

    private static int indexOfAny(String s, char a, char b) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == a || c == b) {
                return i;
            }
        }
        return -1;
    }

    /** Percent-decodes (UTF-8); {@code +} stays a plus sign. */
    private static String decode(String s, String what) {
        String decoded = percentDecode(s);
        if (decoded == null) {
            throw malformed(what + " '" + printable(s) + "' holds a '%' that is not followed by two hex digits");
        }
        return decoded;
    }

    private static String decodeSecret(String s) {
        String decoded = percentDecode(s);
        if (decoded == null) {
            throw malformed("the password holds a '%' that is not followed by two hex digits (write %25 for '%')");
        }
        return decoded;
    }

    private static String percentDecode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= s.length()) {
                    return null;
                }
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return null;
                }
                out.write(hi << 4 | lo);
                i += 2;
            } else {
                byte[] bytes = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
                    bytes = s.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
                    i++;
                }
                out.writeBytes(bytes);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Text of a non-secret part for an error message, shortened. */
    private static String printable(String s) {
        return s.length() <= 64 ? s : s.substring(0, 61) + "...";
    }

    private static IllegalArgumentException malformed(String why) {
        return new IllegalArgumentException("malformed ClickHouse URL: " + why + "; expected " + SYNTAX);
    }

    /**
     * The hosts in order, each with its own port or else {@code defaultPort}; empty when the URL names none.
     *
     * @param defaultPort the port of hosts given without one ({@link #DEFAULT_PORT} or {@link #DEFAULT_SECURE_PORT})
     * @return the endpoints, unmodifiable
     * @throws IllegalArgumentException when {@code defaultPort} is needed and not 1 to 65535
     */
    public List<Endpoint> endpoints(int defaultPort) {
        List<Endpoint> result = new ArrayList<>(hosts.size());
        for (int i = 0; i < hosts.size(); i++) {
            Integer port = ports.get(i);
            result.add(new Endpoint(hosts.get(i), port != null ? port : defaultPort));
        }
        return List.copyOf(result);
    }

    /**
     * The host names in order (without ports); empty when the URL names none.
     *
     * @return the hosts, IPv6 literals without their brackets; unmodifiable
     */
    public List<String> hosts() {
        return hosts;
    }

    /**
     * The user before {@code @}.
     *
     * @return the percent-decoded user, never empty; empty {@code Optional} when the URL has no {@code @}
     */
    public Optional<String> user() {
        return Optional.ofNullable(user);
    }

    /**
     * The password after {@code user:}; never shown by {@link #toString()}.
     *
     * @return the percent-decoded password (possibly an empty string for {@code user:@});
     *         empty {@code Optional} when the user info has no {@code :}
     */
    public Optional<String> password() {
        return Optional.ofNullable(password);
    }

    /**
     * The database of the path.
     *
     * @return the percent-decoded database name; empty {@code Optional} when the path is empty or {@code /}
     */
    public Optional<String> database() {
        return Optional.ofNullable(database);
    }

    /**
     * The {@value #SECURE} option.
     *
     * @return whether TLS was asked for ({@code true}, {@code 1}, {@code yes} or the bare name; {@code false},
     *         {@code 0}, {@code no}); empty {@code Optional} when the option is absent
     */
    public Optional<Boolean> secure() {
        return Optional.ofNullable(secure);
    }

    /**
     * The {@value #COMPRESSION} option with its {@value #ZSTD_LEVEL}.
     *
     * @return the compression; empty {@code Optional} when the option is absent
     */
    public Optional<Compression> compression() {
        return Optional.ofNullable(compression);
    }

    /**
     * The {@value #CLIENT_NAME} option.
     *
     * @return the percent-decoded client name; empty {@code Optional} when the option is absent
     */
    public Optional<String> clientName() {
        return Optional.ofNullable(clientName);
    }

    /**
     * The ClickHouse settings: every query parameter that is not a client option, in URL order.
     *
     * @return setting name to percent-decoded value; unmodifiable
     */
    public Map<String, String> settings() {
        return settings;
    }

    /** Whether a query parameter's value is a secret, never printed: its name holds "password" or "secret". */
    private static boolean isSecret(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return n.contains("password") || n.contains("secret");
    }

    /**
     * The URL in normalized form with the password, and the value of every query parameter whose name holds
     * {@code password} or {@code secret} (any case), replaced by {@code ***}.
     */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder(SCHEME).append("://");
        if (user != null) {
            b.append(user);
            if (password != null) {
                b.append(":***");
            }
            b.append('@');
        }
        for (int i = 0; i < hosts.size(); i++) {
            if (i > 0) {
                b.append(',');
            }
            String host = hosts.get(i);
            b.append(host.indexOf(':') >= 0 ? "[" + host + "]" : host);
            if (ports.get(i) != null) {
                b.append(':').append(ports.get(i));
            }
        }
        if (database != null) {
            b.append('/').append(database);
        }
        List<String> params = new ArrayList<>();
        if (secure != null) {
            params.add(SECURE + "=" + secure);
        }
        if (compression != null) {
            params.add(COMPRESSION + "=" + (compression.method() == null ? "none"
                    : compression.method().name().toLowerCase(Locale.ROOT)));
            if (compression.level() > 1) {
                params.add(ZSTD_LEVEL + "=" + compression.level());
            }
        }
        if (clientName != null) {
            params.add(CLIENT_NAME + "=" + clientName);
        }
        settings.forEach((k, v) -> params.add(k + "=" + (isSecret(k) ? "***" : v)));
        if (!params.isEmpty()) {
            b.append('?').append(String.join("&", params));
        }
        return b.toString();
    }
}
