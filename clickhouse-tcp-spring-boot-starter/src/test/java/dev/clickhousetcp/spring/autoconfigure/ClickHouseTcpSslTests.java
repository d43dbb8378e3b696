package dev.clickhousetcp.spring.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.UUID;

import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryOptions;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.LegacyServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * TLS through Spring Boot SSL bundles against the legacy server's secure native port. Its certificates
 * come from the setup script: a test CA signs the server certificate (localhost, 127.0.0.1) and a
 * client certificate; another CA signs a second client certificate. The server verifies a client
 * certificate when one is presented.
 */
@ClickHouseTest
class ClickHouseTcpSslTests {

    private static final String STORE_PASSWORD = "store-pw-123";

    private static ClickHouseServer legacy;

    private static Path certificates;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, ClickHouseTcpAutoConfiguration.class));

    @BeforeAll
    static void server(@LegacyServer ClickHouseServer server) {
        legacy = server;
        certificates = server.serverCertificatePem().orElseThrow().getParent();
    }

    private ApplicationContextRunner tls(String... properties) {
        return this.runner
            .withPropertyValues("clickhouse.tcp.host=localhost", "clickhouse.tcp.port=" + legacy.tlsPort(),
                    "clickhouse.tcp.connection.handshake-timeout=10s")
            .withPropertyValues(properties);
    }

    private static String file(String name) {
        return "file:" + certificates.resolve(name);
    }

    /** The user of the session, as the server sees it (18.16 has no currentUser()). */
    static String user(ClickHouseTcpClient client) {
        String id = "tls-" + UUID.randomUUID();
        return (String) client
            .queryRows("SELECT user FROM system.processes WHERE query_id = '" + id + "'",
                    QueryOptions.builder().queryId(id).build())
            .get(0)[0];
    }

    @Test
    void pemBundle() {
        tls("spring.ssl.bundle.pem.clickhouse.truststore.certificate=" + file("ca.crt"),
                "clickhouse.tcp.ssl.bundle=clickhouse")
            .run((context) -> {
                ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
                assertThat(client.config().tls()).isNotNull();
                assertThat(client.config().tls().hostnameVerification()).isTrue();
                assertThat(user(client)).isEqualTo("default");
                assertThat(client.queryRows("SELECT number FROM system.numbers LIMIT 50000")).hasSize(50000);
            });
    }

    @Test
    void jksBundleMadeFromThePemFiles(@TempDir Path dir) throws Exception {
        Path trustStore = dir.resolve("trust.jks");
        KeyStore trust = emptyJks();
        trust.setCertificateEntry("ca", certificate("ca.crt"));
        store(trust, trustStore);
        tls("spring.ssl.bundle.jks.clickhouse.truststore.location=file:" + trustStore,
                "spring.ssl.bundle.jks.clickhouse.truststore.password=" + STORE_PASSWORD,
                "spring.ssl.bundle.jks.clickhouse.truststore.type=JKS", "clickhouse.tcp.ssl.bundle=clickhouse")
            .run((context) -> assertThat(user(context.getBean(ClickHouseTcpClient.class))).isEqualTo("default"));
    }

    @Test
    void mutualTlsWithAJksKeyStore(@TempDir Path dir) throws Exception {
        Path trustStore = dir.resolve("trust.jks");
        KeyStore trust = emptyJks();
        trust.setCertificateEntry("ca", certificate("ca.crt"));
        store(trust, trustStore);
        Path keyStore = dir.resolve("client.jks");
        KeyStore keys = emptyJks();
        keys.setKeyEntry("client", privateKey("client.key"), STORE_PASSWORD.toCharArray(),
                new Certificate[] { certificate("client.crt") });
        store(keys, keyStore);
        tls("spring.ssl.bundle.jks.mtls.truststore.location=file:" + trustStore,
                "spring.ssl.bundle.jks.mtls.truststore.password=" + STORE_PASSWORD,
                "spring.ssl.bundle.jks.mtls.keystore.location=file:" + keyStore,
                "spring.ssl.bundle.jks.mtls.keystore.password=" + STORE_PASSWORD,
                "spring.ssl.bundle.jks.mtls.keystore.type=JKS", "spring.ssl.bundle.jks.mtls.truststore.type=JKS",
                "spring.ssl.bundle.jks.mtls.key.alias=client", "clickhouse.tcp.ssl.bundle=mtls")
            .run((context) -> assertThat(user(context.getBean(ClickHouseTcpClient.class))).isEqualTo("default"));
    }

    @Test
    void mutualTlsWithAPemBundle() {
        tls("spring.ssl.bundle.pem.mtls.truststore.certificate=" + file("ca.crt"),
                "spring.ssl.bundle.pem.mtls.keystore.certificate=" + file("client.crt"),
                "spring.ssl.bundle.pem.mtls.keystore.private-key=" + file("client.key"),
                "clickhouse.tcp.ssl.bundle=mtls")
            .run((context) -> assertThat(user(context.getBean(ClickHouseTcpClient.class))).isEqualTo("default"));
    }

    @Test
    void clientCertificateOfAForeignCaIsRefused() {
        tls("spring.ssl.bundle.pem.foreign.truststore.certificate=" + file("ca.crt"),
                "spring.ssl.bundle.pem.foreign.keystore.certificate=" + file("other-client.crt"),
                "spring.ssl.bundle.pem.foreign.keystore.private-key=" + file("other-client.key"),
                "clickhouse.tcp.ssl.bundle=foreign")
            .run((context) -> assertThatExceptionOfType(ClickHouseConnectionException.class)
                .isThrownBy(() -> user(context.getBean(ClickHouseTcpClient.class))));
    }

    @Test
    void serverCertificateOfAForeignCaIsRejected() {
        tls("spring.ssl.bundle.pem.other.truststore.certificate=" + file("other-ca.crt"),
                "clickhouse.tcp.ssl.bundle=other")
            .run((context) -> {
                ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
                assertThatExceptionOfType(ClickHouseConnectionException.class).isThrownBy(client::ping)
                    .withMessageContaining("TLS handshake");
                assertThat(client.poolStats().total()).isZero();
            });
        // without a bundle, TLS trusts the JVM's default trust store, which does not know the test CA
        tls("clickhouse.tcp.ssl.enabled=true").run((context) -> assertThatExceptionOfType(
                ClickHouseConnectionException.class)
            .isThrownBy(context.getBean(ClickHouseTcpClient.class)::ping));
    }

    @Test
    void hostnameVerificationIsOnByDefaultAndCanBeTurnedOff() {
        String[] bundle = { "spring.ssl.bundle.pem.clickhouse.truststore.certificate=" + file("ca.crt"),
                "clickhouse.tcp.ssl.bundle=clickhouse", "clickhouse.tcp.ssl.server-name=db.example.org" };
        tls(bundle).run((context) -> assertThatExceptionOfType(ClickHouseConnectionException.class)
            .isThrownBy(context.getBean(ClickHouseTcpClient.class)::ping)
            .withMessageContaining("TLS handshake"));
        tls(bundle).withPropertyValues("clickhouse.tcp.ssl.verify-hostname=false")
            .run((context) -> context.getBean(ClickHouseTcpClient.class).ping());
    }

    @Test
    void tlsFromTheUrlWithABundle() {
        tls("spring.ssl.bundle.pem.clickhouse.truststore.certificate=" + file("ca.crt"),
                "clickhouse.tcp.ssl.bundle=clickhouse",
                "clickhouse.tcp.url=clickhouse://localhost:" + legacy.tlsPort() + "/system?secure=true")
            .run((context) -> {
                ClickHouseTcpClient client = context.getBean(ClickHouseTcpClient.class);
                assertThat(client.config().database()).isEqualTo("system");
                client.ping();
            });
    }

    @Test
    void unknownBundleFailsStartupNamingTheProperty() {
        tls("clickhouse.tcp.ssl.bundle=missing").run((context) -> {
            assertThat(context).hasFailed();
            String description = ClickHouseTcpPropertiesTests.analyze(context.getStartupFailure()).getDescription();
            assertThat(description).contains("clickhouse.tcp.ssl.bundle").contains("'missing'");
        });
        // without Spring Boot's SSL auto-configuration there are no bundles at all
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ClickHouseTcpAutoConfiguration.class))
            .withPropertyValues("clickhouse.tcp.ssl.bundle=missing")
            .run((context) -> {
                assertThat(context).hasFailed();
                assertThat(ClickHouseTcpPropertiesTests.analyze(context.getStartupFailure()).getDescription())
                    .contains("clickhouse.tcp.ssl.bundle")
                    .contains("no SslBundles");
            });
    }

    private static KeyStore emptyJks() throws GeneralSecurityException, IOException {
        KeyStore store = KeyStore.getInstance("JKS");
        store.load(null, null);
        return store;
    }

    private static void store(KeyStore store, Path file) throws GeneralSecurityException, IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, STORE_PASSWORD.toCharArray());
        }
    }

    private static Certificate certificate(String name) throws GeneralSecurityException, IOException {
        try (InputStream in = Files.newInputStream(certificates.resolve(name))) {
            return CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
    }

    private static PrivateKey privateKey(String name) throws GeneralSecurityException, IOException {
        String pem = Files.readString(certificates.resolve(name));
        String base64 = pem.replace("-----BEGIN PRIVATE KEY-----", "")
            .replace("-----END PRIVATE KEY-----", "")
            .replaceAll("\\s", "");
        return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
    }

}
