package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.TlsConfig;

import java.nio.file.Path;
import java.time.Duration;

/**
 * TLS: {@code .tls(TlsConfig)} on the builder and the server's secure native port (9440 by default;
 * 29440 on the project's 18.16 test server). A server with a self-signed or private-CA certificate is
 * trusted by naming that CA's PEM file; hostname verification stays on. Without
 * {@code trustedCertificates} the JVM's trust store is used.
 *
 * <p>Run with {@code -Dclickhouse.tls.ca=/path/to/ca.crt} (and {@code -Dclickhouse.host},
 * {@code -Dclickhouse.tls.port}).
 */
public final class Tls {

    private Tls() {
    }

    public static void main(String[] args) {
        String ca = System.getProperty("clickhouse.tls.ca");
        if (ca == null) {
            throw new IllegalArgumentException("set -Dclickhouse.tls.ca to the PEM file of the server's CA");
        }
        System.out.println(run(System.getProperty("clickhouse.host", "127.0.0.1"),
                Integer.getInteger("clickhouse.tls.port", 29440), Path.of(ca)));
    }

    /** Returns the server's version, read over the encrypted connection. */
    public static String run(String host, int tlsPort, Path caPem) {
        TlsConfig tls = TlsConfig.builder()
                .trustedCertificates(caPem)           // the CA that signed the server certificate
                .build();
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .host(host).port(tlsPort).tls(tls)
                .handshakeTimeout(Duration.ofSeconds(10))
                .build()) {
            return client.query("SELECT version()", String.class).get(0);
        }
    }
}
