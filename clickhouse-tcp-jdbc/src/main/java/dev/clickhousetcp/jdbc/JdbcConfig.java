package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.ClickHouseUrl;
import dev.clickhousetcp.client.Compression;
import dev.clickhousetcp.client.TlsConfig;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * A parsed JDBC URL with its properties: the native client's configuration plus the driver's own options.
 * Immutable.
 */
final class JdbcConfig {
    private static final System.Logger LOG = System.getLogger(JdbcConfig.class.getName());

    /** The URL prefixes this driver accepts, each followed by {@code //}; the ones ending in {@code s} mean TLS. */
    private static final String[] PREFIXES = {"jdbc:clickhouse:tcp:", "jdbc:ch:tcp:", "jdbc:clickhouse:tcps:",
            "jdbc:ch:tcps:"};

    final String url;
    final ClickHouseUrl parsed;
    final boolean tls;
    private final Map<DriverProperty, String> values;
    /** ClickHouse settings ({@code setting.} prefix removed). */
    final Map<String, String> settings;

    private JdbcConfig(String url, ClickHouseUrl parsed, boolean tls, Map<DriverProperty, String> values,
                       Map<String, String> settings) {
        this.url = url;
        this.parsed = parsed;
        this.tls = tls;
        this.values = values;
        this.settings = settings;
    }

    /** Whether {@code url} is one of this driver's forms ({@code jdbc:clickhouse:tcp://}, ...). */
    static boolean accepts(String url) {
        return prefixLength(url) > 0;
    }

    private static int prefixLength(String url) {
        if (url == null) {
            return -1;
        }
        String lower = url.trim().toLowerCase(Locale.ROOT);
        for (String p : PREFIXES) {
            if (lower.startsWith(p + "//")) {
                return p.length();
            }
        }
        return -1;
    }

    /**
     * Parses {@code url} with {@code info}.
     *
     * @throws SQLException 08001 for a malformed URL or property (the message never holds the password)
     */
    static JdbcConfig parse(String url, Properties info) throws SQLException {
        int prefix = prefixLength(url);
        if (prefix < 0) {
            throw new SQLException("not a clickhouse-tcp JDBC URL (jdbc:clickhouse:tcp://host:9000/db)", "08001");
        }
        String text = url.trim();
        boolean tls = text.substring(0, prefix).toLowerCase(Locale.ROOT).endsWith("tcps:");
        ClickHouseUrl parsed;
        try {
            parsed = ClickHouseUrl.parse(ClickHouseUrl.SCHEME + ":" + text.substring(prefix));
        } catch (IllegalArgumentException e) {
            throw new SQLException("malformed JDBC URL: " + e.getMessage(), "08001", e);
        }
        Map<DriverProperty, String> values = new EnumMap<>(DriverProperty.class);
        Map<String, String> settings = new LinkedHashMap<>();
        parsed.user().ifPresent(u -> values.put(DriverProperty.USER, u));
        parsed.password().ifPresent(p -> values.put(DriverProperty.PASSWORD, p));
        parsed.database().ifPresent(d -> values.put(DriverProperty.DATABASE, d));
        parsed.clientName().ifPresent(n -> values.put(DriverProperty.CLIENT_NAME, n));
        parsed.secure().ifPresent(s -> values.put(DriverProperty.SSL, s.toString()));
        for (Map.Entry<String, String> e : parsed.settings().entrySet()) {
            put(values, settings, e.getKey(), e.getValue());
        }
        if (info != null) {
            for (String name : info.stringPropertyNames()) {
                put(values, settings, name, info.getProperty(name));
            }
        }
        JdbcConfig c = new JdbcConfig(text, parsed, tls || Boolean.parseBoolean(values.get(DriverProperty.SSL)),
                values, settings);
        try {
            for (DriverProperty p : DriverProperty.values()) {
                if (values.containsKey(p)) {
                    p.choice(values.get(p));
                }
            }
            c.positiveInt(DriverProperty.INSERT_BLOCK_ROWS);
            c.positiveInt(DriverProperty.MAX_POOL_SIZE);
            c.intValue(DriverProperty.QUERY_TIMEOUT);
            c.longValue(DriverProperty.BUSY_BUFFER_BYTES);
        } catch (IllegalArgumentException e) {
            throw new SQLException(e.getMessage(), "08001", e);
        }
        return c;
    }

    private static void put(Map<DriverProperty, String> values, Map<String, String> settings, String key,
                            String value) {
        if (key.startsWith(DriverProperty.SETTING_PREFIX)) {
            settings.put(key.substring(DriverProperty.SETTING_PREFIX.length()), value);
            return;
        }
        DriverProperty p = DriverProperty.of(key);
        if (p == null && key.equalsIgnoreCase(ClickHouseUrl.SECURE)) {
            p = DriverProperty.SSL;
        }
        if (p == null) {
            // tools pass keys of other drivers (session_id, use_time_zone...): ignored, not fatal
            LOG.log(System.Logger.Level.DEBUG, "ignoring unknown JDBC property {0}", key);
            return;
        }
        values.put(p, value);
    }

    String get(DriverProperty p) {
        return values.getOrDefault(p, p.defaultValue);
    }

    String choice(DriverProperty p) {
        return p.choice(get(p));
    }

    int intValue(DriverProperty p) {
        long n = longValue(p);
        if (n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("property " + p.key + " must be at most " + Integer.MAX_VALUE);
        }
        return (int) n;
    }

    /** A property that counts something there must be at least one of (rows of a block, connections of a pool). */
    int positiveInt(DriverProperty p) {
        int n = intValue(p);
        if (n < 1) {
            throw new IllegalArgumentException("property " + p.key + " must be at least 1, not " + n);
        }
        return n;
    }

    long longValue(DriverProperty p) {
        String v = get(p).trim();
        try {
            long n = Long.parseLong(v);
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("property " + p.key + " must be a non-negative integer, not '" + v + "'");
        }
    }

    /** The effective value of every property, the password left out. */
    Map<DriverProperty, String> effective() {
        Map<DriverProperty, String> m = new EnumMap<>(DriverProperty.class);
        for (DriverProperty p : DriverProperty.values()) {
            m.put(p, p == DriverProperty.PASSWORD ? null : get(p));
        }
        return m;
    }

    /**
     * A native client builder for this configuration, with a pool of {@code maxPoolSize} connections.
     *
     * @throws SQLException 08001 when a property has a value the client refuses
     */
    ClickHouseTcpClient.Builder clientBuilder(int maxPoolSize) throws SQLException {
        try {
            ClickHouseTcpClient.Builder b = ClickHouseTcpClient.builder();
            if (tls) {
                TlsConfig.Builder t = TlsConfig.builder();
                String root = get(DriverProperty.SSL_ROOT_CERT);
                if (!root.isBlank()) {
                    t.trustedCertificates(Path.of(root));
                }
                b.tls(t.build());
            }
            int defaultPort = tls ? ClickHouseUrl.DEFAULT_SECURE_PORT : ClickHouseUrl.DEFAULT_PORT;
            java.util.List<String> endpoints = parsed.endpoints(defaultPort).stream()
                    .map(e -> e.host().contains(":") ? "[" + e.host() + "]:" + e.port() : e.host() + ":" + e.port())
                    .toList();
            if (endpoints.size() == 1) {
                b.host(parsed.endpoints(defaultPort).get(0).host()).port(parsed.endpoints(defaultPort).get(0).port());
            } else if (!endpoints.isEmpty()) {
                b.endpoints(endpoints);
            } else {
                b.port(defaultPort);
            }
            b.user(get(DriverProperty.USER));
            b.password(get(DriverProperty.PASSWORD));
            b.database(get(DriverProperty.DATABASE));
            b.clientName(get(DriverProperty.CLIENT_NAME));
            b.compression(parsed.compression().orElse(compression(choice(DriverProperty.COMPRESSION))));
            b.connectTimeout(Duration.ofMillis(Math.max(1, intValue(DriverProperty.CONNECT_TIMEOUT))));
            int socket = intValue(DriverProperty.SOCKET_TIMEOUT);
            if (socket > 0) {
                b.socketTimeout(Duration.ofMillis(socket));
            }
            b.settings(settings);
            b.maxPoolSize(Math.max(1, maxPoolSize));
            b.insertBlockRows(positiveInt(DriverProperty.INSERT_BLOCK_ROWS));
            return b;
        } catch (RuntimeException e) {
            throw new SQLException("invalid connection configuration: " + e.getMessage(), "08001", e);
        }
    }

    private static Compression compression(String name) {
        return switch (name) {
            case "none" -> Compression.NONE;
            case "zstd" -> Compression.ZSTD;
            default -> Compression.LZ4;
        };
    }

    /** The URL with the password replaced by {@code ***}. */
    String safeUrl() {
        String core = parsed.toString();
        String rest = core.substring(core.indexOf("://") + 3);
        return (tls ? "jdbc:clickhouse:tcps://" : "jdbc:clickhouse:tcp://") + rest;
    }

    /** The user the connection logs in as. */
    String user() {
        return get(DriverProperty.USER);
    }
}
