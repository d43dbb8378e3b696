package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * TLS against the 18.16 server's secure native port. Its certificates come from the setup script: a
 * test CA signs the server certificate (localhost, 127.0.0.1) and a client certificate; another CA
 * signs a second client certificate. The server verifies client certificates when presented.
 */
@ClickHouseTest
class TlsTest {
    static ClickHouseServer server;
    static Path dir;

    @BeforeAll
    static void locate() {
        server = ClickHouseServers.legacy();
        dir = server.serverCertificatePem().orElseThrow().getParent();
    }

    static ClickHouseTcpClient.Builder builder(String host, TlsConfig tls) {
        return ClickHouseTcpClient.builder().host(host).port(server.tlsPort()).tls(tls)
                .connectTimeout(Duration.ofSeconds(5)).handshakeTimeout(Duration.ofSeconds(10));
    }

    static String userOf(ClickHouseTcpClient client) {
        String id = "tls-" + UUID.randomUUID();
        return (String) client.queryRows("SELECT user FROM system.processes WHERE query_id = '" + id + "'",
                QueryOptions.builder().queryId(id).build()).get(0)[0];
    }

    @Test
    void trustedCaAndMatchingHostname() {
        TlsConfig tls = TlsConfig.builder().trustedCertificates(dir.resolve("ca.crt")).build();
        for (String host : new String[] {"localhost", "127.0.0.1"}) {
            try (ClickHouseTcpClient client = builder(host, tls).build()) {
                assertThat(userOf(client)).isEqualTo("default");
                assertThat(client.queryRows("SELECT number FROM system.numbers LIMIT 100000")).hasSize(100000);
            }
        }
    }

    @Test
    void untrustedCaIsRejected() {
        TlsConfig tls = TlsConfig.builder().trustedCertificates(dir.resolve("other-ca.crt")).build();
        try (ClickHouseTcpClient client = builder("localhost", tls).build()) {
            assertThatThrownBy(client::ping).isInstanceOf(ClickHouseConnectionException.class)
                    .hasMessageContaining("TLS handshake");
            assertThat(client.poolStats().total()).isZero();
        }
        // the JVM's default trust store does not know the test CA either
        try (ClickHouseTcpClient client = builder("localhost", TlsConfig.builder().build()).build()) {
            assertThatThrownBy(client::ping).isInstanceOf(ClickHouseConnectionException.class);
        }
    }

    @Test
    void hostnameMismatchIsRejectedUnlessVerificationIsOff() {
        TlsConfig mismatch = TlsConfig.builder().trustedCertificates(dir.resolve("ca.crt")).serverName("db.example.org")
                .build();
        try (ClickHouseTcpClient client = builder("localhost", mismatch).build()) {
            assertThatThrownBy(client::ping).isInstanceOf(ClickHouseConnectionException.class)
                    .hasMessageContaining("TLS handshake");
        }
        TlsConfig lax = TlsConfig.builder().trustedCertificates(dir.resolve("ca.crt")).serverName("db.example.org")
                .hostnameVerification(false).build();
        try (ClickHouseTcpClient client = builder("localhost", lax).build()) {
            client.ping();
        }
    }

    @Test
    void mutualTls() {
        TlsConfig mtls = TlsConfig.builder().trustedCertificates(dir.resolve("ca.crt"))
                .clientCertificate(dir.resolve("client.crt"), dir.resolve("client.key")).build();
        try (ClickHouseTcpClient client = builder("localhost", mtls).build()) {
            assertThat(userOf(client)).isEqualTo("default");
        }
        TlsConfig foreign = TlsConfig.builder().trustedCertificates(dir.resolve("ca.crt"))
                .clientCertificate(dir.resolve("other-client.crt"), dir.resolve("other-client.key")).build();
        try (ClickHouseTcpClient client = builder("localhost", foreign).build()) {
            assertThatThrownBy(() -> userOf(client)).isInstanceOf(ClickHouseConnectionException.class);
        }
        assertThat(mtls.toString()).contains("clientCertificate=true").doesNotContain("PRIVATE");
    }

    @Test
    void plainClientOnTheTlsPortFailsClearly() {
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder().host("localhost").port(server.tlsPort())
                .handshakeTimeout(Duration.ofSeconds(3)).build()) {
            assertThatThrownBy(client::ping).isInstanceOf(ClickHouseConnectionException.class);
        }
    }
}
