package dev.clickhousetcp.client;

import dev.clickhousetcp.data.DecodeLimits;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Immutable settings for opening native connections. Build with {@link #builder()}. Thread-safe.
 * {@link #toString()} never shows the password.
 */
public final class ConnectionConfig {
    private final String host;
    private final int port;
    private final String database;
    private final String user;
    private final String password;
    private final String clientName;
    private final Duration connectTimeout;
    private final Duration handshakeTimeout;
    private final Duration socketTimeout;
    private final Map<String, String> settings;
    private final DecodeLimits limits;
    private final int bufferSize;
    private final long blockBufferPoolSize;
    private final TlsConfig tls;
    private final Compression compression;
    private final boolean preferChunked;

    private ConnectionConfig(Builder b) {
        this.tls = b.tls;
        this.compression = b.compression;
        this.preferChunked = b.preferChunked;
        this.host = Objects.requireNonNull(b.host, "host");
        this.port = b.port;
        this.database = b.database;
        this.user = b.user;
        this.password = b.password;
        this.clientName = b.clientName;
        this.connectTimeout = b.connectTimeout;
        this.handshakeTimeout = b.handshakeTimeout;
        this.socketTimeout = b.socketTimeout;
        this.settings = Collections.unmodifiableMap(new LinkedHashMap<>(b.settings));
        this.limits = b.limits;
        this.bufferSize = b.bufferSize;
        this.blockBufferPoolSize = b.blockBufferPoolSize;
        if (port <= 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 1..65535: " + port);
        }
    }

    /**
     * A builder with the defaults: {@code localhost:9000}, database and user {@code default}, empty
     * password, plain TCP, LZ4 compression.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder pre-filled with this configuration.
     *
     * @return a new builder holding every setting of this configuration, password included
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.host = host;
        b.port = port;
        b.database = database;
        b.user = user;
        b.password = password;
        b.clientName = clientName;
        b.connectTimeout = connectTimeout;
        b.handshakeTimeout = handshakeTimeout;
        b.socketTimeout = socketTimeout;
        b.settings.putAll(settings);
        b.limits = limits;
        b.bufferSize = bufferSize;
        b.blockBufferPoolSize = blockBufferPoolSize;
        b.tls = tls;
        b.compression = compression;
        b.preferChunked = preferChunked;
        return b;
    }

    /**
     * The server's host name or address.
     *
     * @return the host, never {@code null}
     */
    public String host() {
        return host;
    }

    /**
     * The server's native protocol port.
     *
     * @return the port, 1 to 65535 (ClickHouse's defaults: 9000 plain, 9440 with TLS)
     */
    public int port() {
        return port;
    }

    /**
     * The default database sent in the client Hello; queries without {@link QueryOptions#database()} run in it.
     *
     * @return the database name, or an empty string for the user's default database on the server
     */
    public String database() {
        return database;
    }

    /**
     * The user the connections authenticate as.
     *
     * @return the user name (default {@code default})
     */
    public String user() {
        return user;
    }

    String password() {
        return password;
    }

    /**
     * Whether a (non-empty) password is configured; the password itself is never exposed.
     *
     * @return {@code true} when the password is not empty
     */
    public boolean hasPassword() {
        return !password.isEmpty();
    }

    /**
     * The client name sent in the Hello and in every query's ClientInfo (visible in
     * {@code system.query_log.client_name}).
     *
     * @return the client name (default {@code clickhouse-tcp})
     */
    public String clientName() {
        return clientName;
    }

    /**
     * Time allowed to establish the TCP connection.
     *
     * @return the connect timeout, positive (default 10 s)
     */
    public Duration connectTimeout() {
        return connectTimeout;
    }

    /**
     * Time allowed, once TCP is connected, for the TLS handshake (if any) and the Hello exchange.
     *
     * @return the handshake timeout, positive (default 30 s)
     */
    public Duration handshakeTimeout() {
        return handshakeTimeout;
    }

    /**
     * Longest silence allowed while waiting for the next bytes of a response.
     *
     * @return the socket timeout, positive (default 300 s)
     */
    public Duration socketTimeout() {
        return socketTimeout;
    }

    /**
     * Settings sent with every query (per-query settings override them).
     *
     * @return setting name to value as text, in insertion order; unmodifiable
     */
    public Map<String, String> settings() {
        return settings;
    }

    /**
     * Upper bounds for sizes read from the wire (rows per block, string and column bytes...), checked
     * before memory is allocated for them.
     *
     * @return the decode limits (default {@link DecodeLimits#DEFAULT})
     */
    public DecodeLimits limits() {
        return limits;
    }

    /**
     * Size of the socket read and write buffers.
     *
     * @return the buffer size in bytes, at least 1024 (default 64 KiB)
     */
    public int bufferSize() {
        return bufferSize;
    }

    /**
     * Most bytes of idle column buffers the client keeps for reuse by later blocks, shared by all its
     * connections (see {@link #builder()}{@code .blockBufferPoolSize}); default
     * {@link ClickHouseConnection#BUFFER_POOL_MAX_RETAINED_BYTES} (32 MiB).
     *
     * @return the limit in bytes, 0 or more (0: no buffers are kept)
     */
    public long blockBufferPoolSize() {
        return blockBufferPoolSize;
    }

    /**
     * Whether chunked packet framing is preferred when the server leaves the choice to the client.
     *
     * @return {@code true} to ask for chunked framing (default {@code false})
     */
    public boolean preferChunked() {
        return preferChunked;
    }

    /**
     * TLS settings, or {@code null} for a plain connection.
     *
     * @return the TLS settings, or {@code null}
     */
    public TlsConfig tls() {
        return tls;
    }

    /**
     * Network compression of query data blocks, unless a query overrides it (default {@link Compression#LZ4}).
     *
     * @return the compression, never {@code null}
     */
    public Compression compression() {
        return compression;
    }

    @Override
    public String toString() {
        return "ConnectionConfig[" + user + "@" + host + ":" + port + "/" + database + ", password="
                + (password.isEmpty() ? "<empty>" : "<hidden>") + ", connectTimeout=" + connectTimeout
                + ", socketTimeout=" + socketTimeout + ", compression=" + compression + ", settings=" + settings.keySet()
                + (tls != null ? ", " + tls : "") + "]";
    }

    /** Builder; not thread-safe. */
    public static final class Builder {
        private String host = "localhost";
        private int port = 9000;
        private String database = "default";
        private String user = "default";
        private String password = "";
        private String clientName = "clickhouse-tcp";
        private Duration connectTimeout = Duration.ofSeconds(10);
        private Duration handshakeTimeout = Duration.ofSeconds(30);
        private Duration socketTimeout = Duration.ofSeconds(300);
        private final Map<String, String> settings = new LinkedHashMap<>();
        private DecodeLimits limits = DecodeLimits.DEFAULT;
        private int bufferSize = 64 * 1024;
        private long blockBufferPoolSize = ClickHouseConnection.BUFFER_POOL_MAX_RETAINED_BYTES;
        private TlsConfig tls;
        private Compression compression = Compression.LZ4;
        private boolean preferChunked;

        /**
         * The server's host name or address (default {@code localhost}).
         *
         * @param host the host; {@code null} makes {@link #build()} fail
         * @return this builder
         */
        public Builder host(String host) {
            this.host = host;
            return this;
        }

        /**
         * The server's native protocol port (default 9000; ClickHouse's TLS port is 9440).
         *
         * @param port 1 to 65535, checked by {@link #build()}
         * @return this builder
         */
        public Builder port(int port) {
            this.port = port;
            return this;
        }

        /**
         * The default database sent in the Hello (default {@code default}).
         *
         * @param database the database name; {@code null} or empty for the user's default database on the server
         * @return this builder
         */
        public Builder database(String database) {
            this.database = database == null ? "" : database;
            return this;
        }

        /**
         * The user to authenticate as (default {@code default}).
         *
         * @param user the user name; {@code null} means {@code default}
         * @return this builder
         */
        public Builder user(String user) {
            this.user = user == null ? "default" : user;
            return this;
        }

        /**
         * The user's password, sent in the Hello (in clear text unless TLS is used).
         *
         * @param password the password; {@code null} means empty
         * @return this builder
         */
        public Builder password(String password) {
            this.password = password == null ? "" : password;
            return this;
        }

        /**
         * Client name reported in ClientInfo (visible in {@code system.query_log.client_name}).
         *
         * @param clientName the name (default {@code clickhouse-tcp})
         * @return this builder
         */
        public Builder clientName(String clientName) {
            this.clientName = clientName;
            return this;
        }

        /**
         * Time allowed to establish the TCP connection (default 10 s).
         *
         * @param d a positive duration
         * @return this builder
         * @throws IllegalArgumentException when {@code d} is {@code null}, zero or negative
         */
        public Builder connectTimeout(Duration d) {
            this.connectTimeout = positive(d, "connectTimeout");
            return this;
        }

        /**
         * Time allowed for the server's Hello after TCP connect (idle cloud services can take 20-30 s);
         * it also bounds the TLS handshake (default 30 s).
         *
         * @param d a positive duration
         * @return this builder
         * @throws IllegalArgumentException when {@code d} is {@code null}, zero or negative
         */
        public Builder handshakeTimeout(Duration d) {
            this.handshakeTimeout = positive(d, "handshakeTimeout");
            return this;
        }

        /**
         * Longest silence allowed while waiting for the next bytes of a response, or for the server to
         * read what is sent (default 300 s).
         *
         * @param d a positive duration
         * @return this builder
         * @throws IllegalArgumentException when {@code d} is {@code null}, zero or negative
         */
        public Builder socketTimeout(Duration d) {
            this.socketTimeout = positive(d, "socketTimeout");
            return this;
        }

        /**
         * Adds a setting sent with every query (e.g. {@code max_threads}); per-query settings override it.
         *
         * @param name  the ClickHouse setting name
         * @param value the value, not {@code null}; sent as its {@code String.valueOf} text
         * @return this builder
         * @throws IllegalArgumentException when the name is {@code null} or blank, or the value is {@code null}
         */
        public Builder setting(String name, Object value) {
            settings.put(SqlSettings.checkedName(name), SqlSettings.checkedValue(name, value));
            return this;
        }

        /**
         * Adds settings sent with every query, as {@link #setting(String, Object)} does for each entry.
         *
         * @param s setting name to value; added to (not replacing) the settings so far
         * @return this builder
         */
        public Builder settings(Map<String, ?> s) {
            s.forEach(this::setting);
            return this;
        }

        /**
         * Removes every setting added so far (e.g. from {@link ConnectionConfig#toBuilder()}).
         *
         * @return this builder
         */
        public Builder clearSettings() {
            settings.clear();
            return this;
        }

        /**
         * Upper bounds for sizes read from the wire (default {@link DecodeLimits#DEFAULT}).
         *
         * @param limits the limits; not {@code null}
         * @return this builder
         */
        public Builder limits(DecodeLimits limits) {
            this.limits = Objects.requireNonNull(limits);
            return this;
        }

        /**
         * Socket read/write buffer size in bytes (default 64 KiB).
         *
         * @param bytes at least 1024
         * @return this builder
         * @throws IllegalArgumentException when {@code bytes} is below 1024
         */
        public Builder bufferSize(int bytes) {
            if (bytes < 1024) {
                throw new IllegalArgumentException("bufferSize must be at least 1024");
            }
            this.bufferSize = bytes;
            return this;
        }

        /**
         * Most bytes of idle column buffers the client keeps to decode later blocks into (default 32 MiB;
         * 0 keeps none): one budget for the whole client, shared by all its connections, busy or idle
         * (a connection opened on its own with {@link ClickHouseConnection#open(ConnectionConfig)} has a
         * budget of this size to itself). Buffers are retained only after blocks needed them; a buffer
         * given back when the budget is full, or when its size class already holds half of it, is
         * dropped. So a pool of any size keeps at most this many bytes of column buffers between queries;
         * a larger budget trades a larger resident heap for less allocation per block when many
         * connections read at once.
         *
         * @param bytes at least 0
         * @return this builder
         * @throws IllegalArgumentException when {@code bytes} is negative
         */
        public Builder blockBufferPoolSize(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("blockBufferPoolSize must be at least 0: " + bytes);
            }
            this.blockBufferPoolSize = bytes;
            return this;
        }

        /**
         * Prefer chunked packet framing (revision 54470+) where the server makes it optional (default
         * false: unframed, one copy less). A server that requires one framing gets it either way.
         *
         * @param chunked {@code true} to ask for chunked framing
         * @return this builder
         */
        public Builder preferChunked(boolean chunked) {
            this.preferChunked = chunked;
            return this;
        }

        /**
         * Connects with TLS ({@code null} = plain TCP). ClickHouse's secure native port is 9440 by default.
         *
         * @param tls the TLS settings, or {@code null} for plain TCP
         * @return this builder
         */
        public Builder tls(TlsConfig tls) {
            this.tls = tls;
            return this;
        }

        /**
         * Network compression of query data blocks in both directions (default {@link Compression#LZ4},
         * the server's own default network codec); {@link Compression#NONE} turns it off.
         * {@link QueryOptions.Builder#compression} overrides it per query.
         *
         * @param compression the compression; not {@code null}
         * @return this builder
         */
        public Builder compression(Compression compression) {
            this.compression = Objects.requireNonNull(compression, "compression");
            return this;
        }

        /**
         * Builds the configuration.
         *
         * @return an immutable configuration
         * @throws NullPointerException     when the host is {@code null}
         * @throws IllegalArgumentException when the port is not 1 to 65535
         */
        public ConnectionConfig build() {
            return new ConnectionConfig(this);
        }

        private static Duration positive(Duration d, String what) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(what + " must be positive");
            }
            return d;
        }
    }
}
