package dev.clickhousetcp.client;

import dev.clickhousetcp.types.DecodeLimits;

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

    public static Builder builder() {
        return new Builder();
    }

    /** A builder pre-filled with this configuration. */
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

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public String database() {
        return database;
    }

    public String user() {
        return user;
    }

    String password() {
        return password;
    }

    /** Whether a (non-empty) password is configured; the password itself is never exposed. */
    public boolean hasPassword() {
        return !password.isEmpty();
    }

    public String clientName() {
        return clientName;
    }

    public Duration connectTimeout() {
        return connectTimeout;
    }

    public Duration handshakeTimeout() {
        return handshakeTimeout;
    }

    /** Longest silence allowed while waiting for the next bytes of a response. */
    public Duration socketTimeout() {
        return socketTimeout;
    }

    /** Settings sent with every query (per-query settings override them). */
    public Map<String, String> settings() {
        return settings;
    }

    public DecodeLimits limits() {
        return limits;
    }

    public int bufferSize() {
        return bufferSize;
    }

    /**
     * Most bytes of idle column buffers each connection keeps for reuse by later blocks (see
     * {@link #builder()}{@code .blockBufferPoolSize}); default
     * {@link ClickHouseConnection#BUFFER_POOL_MAX_RETAINED_BYTES} (64 MiB).
     */
    public long blockBufferPoolSize() {
        return blockBufferPoolSize;
    }

    /** Whether chunked packet framing is preferred when the server leaves the choice to the client. */
    public boolean preferChunked() {
        return preferChunked;
    }

    /** TLS settings, or {@code null} for a plain connection. */
    public TlsConfig tls() {
        return tls;
    }

    /** Network compression of query data blocks, unless a query overrides it (default {@link Compression#LZ4}). */
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

        public Builder host(String host) {
            this.host = host;
            return this;
        }

        public Builder port(int port) {
            this.port = port;
            return this;
        }

        public Builder database(String database) {
            this.database = database == null ? "" : database;
            return this;
        }

        public Builder user(String user) {
            this.user = user == null ? "default" : user;
            return this;
        }

        public Builder password(String password) {
            this.password = password == null ? "" : password;
            return this;
        }

        /** Client name reported in ClientInfo (visible in {@code system.query_log.client_name}). */
        public Builder clientName(String clientName) {
            this.clientName = clientName;
            return this;
        }

        public Builder connectTimeout(Duration d) {
            this.connectTimeout = positive(d, "connectTimeout");
            return this;
        }

        /** Time allowed for the server's Hello after TCP connect (idle cloud services can take 20-30 s). */
        public Builder handshakeTimeout(Duration d) {
            this.handshakeTimeout = positive(d, "handshakeTimeout");
            return this;
        }

        public Builder socketTimeout(Duration d) {
            this.socketTimeout = positive(d, "socketTimeout");
            return this;
        }

        public Builder setting(String name, Object value) {
            settings.put(name, String.valueOf(value));
            return this;
        }

        public Builder settings(Map<String, ?> s) {
            s.forEach(this::setting);
            return this;
        }

        /** Removes every setting added so far (e.g. from {@link ConnectionConfig#toBuilder()}). */
        public Builder clearSettings() {
            settings.clear();
            return this;
        }

        public Builder limits(DecodeLimits limits) {
            this.limits = Objects.requireNonNull(limits);
            return this;
        }

        /** Socket read/write buffer size in bytes (default 64 KiB). */
        public Builder bufferSize(int bytes) {
            if (bytes < 1024) {
                throw new IllegalArgumentException("bufferSize must be at least 1024");
            }
            this.bufferSize = bytes;
            return this;
        }

        /**
         * Most bytes of idle column buffers each connection keeps to decode later blocks into (default
         * 64 MiB; 0 keeps none). Buffers are retained only after blocks needed them, so this bounds the heap
         * an idle pooled connection holds: at most this many bytes per connection. Smaller values trade
         * allocation per block for a smaller resident heap.
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
         */
        public Builder preferChunked(boolean chunked) {
            this.preferChunked = chunked;
            return this;
        }

        /** Connects with TLS ({@code null} = plain TCP). ClickHouse's secure native port is 9440 by default. */
        public Builder tls(TlsConfig tls) {
            this.tls = tls;
            return this;
        }

        /**
         * Network compression of query data blocks in both directions (default {@link Compression#LZ4},
         * the server's own default network codec); {@link Compression#NONE} turns it off.
         * {@link QueryOptions.Builder#compression} overrides it per query.
         */
        public Builder compression(Compression compression) {
            this.compression = Objects.requireNonNull(compression, "compression");
            return this;
        }

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
