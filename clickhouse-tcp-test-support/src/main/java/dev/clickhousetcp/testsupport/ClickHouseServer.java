package dev.clickhousetcp.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;

/**
 * Where one real ClickHouse server listens: its kind, host, native TCP port, HTTP port and, for the
 * legacy server, the native-over-TLS port and the PEM file of its self-signed certificate.
 *
 * <p>Instances are immutable and thread-safe. They describe an address, not a live process: a server
 * restarted by {@link ClickHouseServers} keeps its ports, so an instance stays valid across restarts.
 * Obtain instances from {@link ClickHouseServers} or by parameter injection through
 * {@link ClickHouseServerExtension}.
 *
 * <p>Both servers started by {@code scripts/clickhouse-server.sh} have the users {@link #DEFAULT_USER}
 * (no password) and {@link #SECRET_USER} / {@link #SECRET_PASSWORD}.
 */
public final class ClickHouseServer {

    /** Which of the two servers. */
    public enum Kind {
        /** ClickHouse 26.7, embedded (libchdb.so) — the current protocol revision and every type. */
        MODERN("modern"),
        /** ClickHouse 18.16 (Debian) — a 2018 protocol revision; also has a TLS port and is robust
         * against failed authentication and malformed input. */
        LEGACY("legacy");

        private final String scriptName;

        Kind(String scriptName) {
            this.scriptName = scriptName;
        }

        /** @return the name {@code scripts/clickhouse-server.sh} uses for this kind: {@code modern} or {@code legacy} */
        public String scriptName() {
            return scriptName;
        }
    }

    /** User without a password, present on both servers. */
    public static final String DEFAULT_USER = "default";
    /** User with a password, present on both servers. */
    public static final String SECRET_USER = "tcp_secret";
    /** Password of {@link #SECRET_USER}. Test-only. */
    public static final String SECRET_PASSWORD = "tcp-secret-pw";
    /**
     * User without a password whose profile has {@code readonly = 1} (reads only, and no setting may
     * be changed), present on both servers.
     */
    public static final String READONLY_USER = "tcp_readonly";
    /**
     * User without a password whose profile has {@code readonly = 2} (reads only; settings may be
     * changed), present on both servers.
     */
    public static final String READONLY_SETTINGS_USER = "tcp_readonly_settings";

    private static final Duration PING_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration QUERY_TIMEOUT = Duration.ofMinutes(2);
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(PING_TIMEOUT)
            .build();

    private final Kind kind;
    private final String host;
    private final int tcpPort;
    private final int httpPort;
    private final int tlsPort;
    private final Path serverCertificatePem;

    /**
     * @param kind which server
     * @param host host name or address of all its ports
     * @param tcpPort native protocol port
     * @param httpPort HTTP interface port
     * @param tlsPort native protocol over TLS port, or {@code -1} if none
     * @param serverCertificatePem PEM file of the TLS server certificate, or {@code null} if none
     * @throws NullPointerException if {@code kind} or {@code host} is null
     * @throws IllegalArgumentException if a port is out of range
     */
    public ClickHouseServer(Kind kind, String host, int tcpPort, int httpPort, int tlsPort, Path serverCertificatePem) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.host = Objects.requireNonNull(host, "host");
        this.tcpPort = checkPort(tcpPort, "tcpPort");
        this.httpPort = checkPort(httpPort, "httpPort");
        this.tlsPort = tlsPort == -1 ? -1 : checkPort(tlsPort, "tlsPort");
        this.serverCertificatePem = serverCertificatePem;
    }

    private static int checkPort(int port, String name) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException(name + " out of range: " + port);
        }
        return port;
    }

    /** @return which server this is */
    public Kind kind() {
        return kind;
    }

    /** @return host of all ports, e.g. {@code 127.0.0.1} */
    public String host() {
        return host;
    }

    /** @return the native protocol port */
    public int tcpPort() {
        return tcpPort;
    }

    /** @return the HTTP interface port */
    public int httpPort() {
        return httpPort;
    }

    /** @return the native-protocol-over-TLS port, or {@code -1} if this server has none (modern) */
    public int tlsPort() {
        return tlsPort;
    }

    /** @return whether this server has a TLS port */
    public boolean hasTls() {
        return tlsPort != -1;
    }

    /** @return the PEM file of the server's self-signed TLS certificate (legacy), to trust in TLS tests */
    public Optional<Path> serverCertificatePem() {
        return Optional.ofNullable(serverCertificatePem);
    }

    /** @return {@link #host()} and {@link #tcpPort()} as a (resolved) socket address */
    public InetSocketAddress tcpAddress() {
        return new InetSocketAddress(host, tcpPort);
    }

    /** @return the base URI of the HTTP interface, e.g. {@code http://127.0.0.1:18123/} */
    public URI httpUri() {
        return URI.create("http://" + hostForUri() + ":" + httpPort + "/");
    }

    /**
     * Asks the HTTP interface's {@code /ping} endpoint, with a 2 second timeout. Never throws.
     *
     * @return whether the server answered {@code Ok.}
     */
    public boolean isAlive() {
        HttpRequest request = HttpRequest.newBuilder(httpUri().resolve("ping")).timeout(PING_TIMEOUT).GET().build();
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return response.statusCode() == 200 && response.body().strip().equals("Ok.");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Runs {@code sql} as user {@link #DEFAULT_USER} over the HTTP interface (a POST, so statements that
     * modify data or schema work too) and returns the response body, e.g. {@code "26.7.2.1\n"} for
     * {@code SELECT version()} — the server's own text output, to compare client results against.
     *
     * @param sql one statement; add a {@code FORMAT} clause to choose the output format (default TabSeparated)
     * @return the response body, decoded as UTF-8
     * @throws ClickHouseHttpException if the server answered with a status other than 200
     * @throws UncheckedIOException if the server cannot be reached or the 2 minute timeout expires
     */
    public String httpQuery(String sql) {
        return httpQuery(sql, DEFAULT_USER, "");
    }

    /**
     * Like {@link #httpQuery(String)}, as the given user.
     *
     * @param sql one statement
     * @param user user name
     * @param password password, empty for none
     * @return the response body, decoded as UTF-8
     * @throws ClickHouseHttpException if the server answered with a status other than 200 (for example a
     *     failed authentication)
     * @throws UncheckedIOException if the server cannot be reached or the 2 minute timeout expires
     */
    public String httpQuery(String sql, String user, String password) {
        Objects.requireNonNull(sql, "sql");
        String credentials = Objects.requireNonNull(user, "user") + ":" + Objects.requireNonNull(password, "password");
        HttpRequest request = HttpRequest.newBuilder(httpUri())
                .timeout(QUERY_TIMEOUT)
                .header("Authorization", "Basic "
                        + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)))
                .POST(HttpRequest.BodyPublishers.ofString(sql, StandardCharsets.UTF_8))
                .build();
        HttpResponse<String> response;
        try {
            response = HTTP.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("HTTP query to " + this + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new IOException("interrupted during HTTP query to " + this, e));
        }
        if (response.statusCode() != 200) {
            throw new ClickHouseHttpException(response.statusCode(), response.body(), sql);
        }
        return response.body();
    }

    private String hostForUri() {
        return host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ClickHouseServer)) {
            return false;
        }
        ClickHouseServer that = (ClickHouseServer) o;
        return tcpPort == that.tcpPort && httpPort == that.httpPort && tlsPort == that.tlsPort
                && kind == that.kind && host.equals(that.host)
                && Objects.equals(serverCertificatePem, that.serverCertificatePem);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, host, tcpPort, httpPort, tlsPort, serverCertificatePem);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("ClickHouseServer[").append(kind.scriptName())
                .append(" native=").append(host).append(':').append(tcpPort)
                .append(" http=").append(host).append(':').append(httpPort);
        if (hasTls()) {
            s.append(" tls=").append(host).append(':').append(tlsPort);
        }
        return s.append(']').toString();
    }
}
