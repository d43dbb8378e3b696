package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseException;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;

/**
 * TLS for the secure native port (9440 by default on ClickHouse servers), through JSSE.
 *
 * <p>Trust: the JVM's default trust store, or PEM CA certificates ({@link Builder#trustedCertificates}),
 * or a {@link KeyStore}. Client certificate (mutual TLS): a PEM certificate chain plus an unencrypted
 * PKCS#8 PEM private key ({@code -----BEGIN PRIVATE KEY-----}; convert PKCS#1 keys with
 * {@code openssl pkcs8 -topk8 -nocrypt}), or a {@link KeyStore}. Hostname verification is on by
 * default (the certificate must name the host connected to, or {@link Builder#serverName}); SNI is
 * sent for host names. Immutable and thread-safe; {@link #toString()} shows no secrets.
 */
public final class TlsConfig {
    private final SSLContext context;
    private final boolean hostnameVerification;
    private final String serverName;
    private final List<String> protocols;
    private final List<String> cipherSuites;
    private final String description;

    private TlsConfig(Builder b) {
        this.hostnameVerification = b.hostnameVerification;
        this.serverName = b.serverName;
        this.protocols = List.copyOf(b.protocols);
        this.cipherSuites = b.cipherSuites == null ? null : List.copyOf(b.cipherSuites);
        String cipherText = cipherSuites != null ? ", cipherSuites=" + cipherSuites : "";
        if (b.sslContext != null) {
            this.context = b.sslContext;
            this.description = "TlsConfig[sslContext=" + b.sslContextDescription + ", hostnameVerification="
                    + hostnameVerification + (serverName != null ? ", serverName=" + serverName : "")
                    + ", protocols=" + protocols + cipherText + "]";
            return;
        }
        try {
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(b.trustStore); // null = the JVM's default trust store
            KeyManagerFactory kmf = null;
            if (b.keyStore != null) {
                kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(b.keyStore, b.keyPassword);
            }
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
            this.context = ctx;
        } catch (GeneralSecurityException e) {
            throw new ClickHouseException("cannot set up TLS: " + e.getMessage(), e);
        }
        this.description = "TlsConfig[trust=" + b.trustDescription + ", clientCertificate=" + (b.keyStore != null)
                + ", hostnameVerification=" + hostnameVerification + (serverName != null ? ", serverName=" + serverName : "")
                + ", protocols=" + protocols + cipherText + "]";
    }

    /**
     * A builder with the defaults: the JVM's trust store, no client certificate, hostname verification
     * on, TLSv1.3 and TLSv1.2.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    SSLContext context() {
        return context;
    }

    /**
     * Whether the server certificate must name the host connected to (or {@link #serverName()}).
     *
     * @return {@code true} unless turned off (default {@code true})
     */
    public boolean hostnameVerification() {
        return hostnameVerification;
    }

    /**
     * The name the server certificate is verified against and sent as SNI ({@code null}: the host).
     *
     * @return the server name, or {@code null}
     */
    public String serverName() {
        return serverName;
    }

    /**
     * The enabled TLS protocol versions, in JSSE names.
     *
     * @return the protocols (default {@code TLSv1.3}, {@code TLSv1.2}); unmodifiable
     */
    public List<String> protocols() {
        return protocols;
    }

    /**
     * The enabled cipher suites, or {@code null} for the JSSE defaults.
     *
     * @return the cipher suites in JSSE names, unmodifiable, or {@code null}
     */
    public List<String> cipherSuites() {
        return cipherSuites;
    }

    @Override
    public String toString() {
        return description;
    }

    /** Builder; not thread-safe. */
    public static final class Builder {
        private KeyStore trustStore;
        private String trustDescription = "JVM default";
        private KeyStore keyStore;
        private char[] keyPassword;
        private boolean hostnameVerification = true;
        private String serverName;
        private List<String> protocols = List.of("TLSv1.3", "TLSv1.2");
        private List<String> cipherSuites;
        private SSLContext sslContext;
        private String sslContextDescription;

        /**
         * Uses this ready {@link SSLContext} (for example one built by a framework from its own key and
         * trust material) instead of building one: {@link #trustedCertificates}, {@link #trustStore},
         * {@link #clientCertificate} and {@link #keyStore} are then ignored. Hostname verification, the
         * server name, protocols and cipher suites still apply.
         *
         * @param context     an initialized context
         * @param description what it is, for {@link #toString()} (no secrets); {@code null}: "custom"
         * @return this builder
         */
        public Builder sslContext(SSLContext context, String description) {
            this.sslContext = java.util.Objects.requireNonNull(context, "context");
            this.sslContextDescription = description == null ? "custom" : description;
            return this;
        }

        /**
         * Enabled cipher suites (default: the JSSE defaults of the context's protocols).
         *
         * @param cipherSuites JSSE cipher suite names, or {@code null} for the defaults
         * @return this builder
         */
        public Builder cipherSuites(List<String> cipherSuites) {
            this.cipherSuites = cipherSuites == null ? null : new ArrayList<>(cipherSuites);
            return this;
        }

        /**
         * Trusts exactly the CA certificates in this PEM file (instead of the JVM's trust store).
         * The file is read by this call.
         *
         * @param pemFile a file of one or more PEM ({@code -----BEGIN CERTIFICATE-----}) certificates
         * @return this builder
         * @throws ClickHouseException when the file cannot be read or holds no certificate
         */
        public Builder trustedCertificates(Path pemFile) {
            try (InputStream in = Files.newInputStream(pemFile)) {
                Collection<? extends Certificate> certs = CertificateFactory.getInstance("X.509").generateCertificates(in);
                if (certs.isEmpty()) {
                    throw new ClickHouseException("no certificate in " + pemFile);
                }
                KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
                ks.load(null, null);
                int i = 0;
                for (Certificate c : certs) {
                    ks.setCertificateEntry("ca-" + i++, c);
                }
                this.trustStore = ks;
                this.trustDescription = pemFile.toString();
            } catch (IOException | GeneralSecurityException e) {
                throw new ClickHouseException("cannot read CA certificates from " + pemFile + ": " + e.getMessage(), e);
            }
            return this;
        }

        /**
         * Trusts the certificates of this key store.
         *
         * @param trustStore a loaded key store with the trusted certificates; {@code null} for the JVM's trust store
         * @return this builder
         */
        public Builder trustStore(KeyStore trustStore) {
            this.trustStore = trustStore;
            this.trustDescription = "key store";
            return this;
        }

        /**
         * Presents this client certificate (mutual TLS).
         *
         * @param certificateChainPem PEM file with the client certificate (and any intermediates)
         * @param privateKeyPem       PEM file with the unencrypted PKCS#8 private key (RSA, EC, Ed25519 or RSASSA-PSS)
         * @return this builder
         * @throws ClickHouseException when a file cannot be read, or the key is PKCS#1/SEC1, encrypted or of
         *                             an unsupported algorithm
         */
        public Builder clientCertificate(Path certificateChainPem, Path privateKeyPem) {
            try (InputStream in = Files.newInputStream(certificateChainPem)) {
                Certificate[] chain = CertificateFactory.getInstance("X.509").generateCertificates(in)
                        .toArray(new Certificate[0]);
                PrivateKey key = readPkcs8(privateKeyPem);
                KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
                ks.load(null, null);
                char[] pw = new char[0];
                ks.setKeyEntry("client", key, pw, chain);
                this.keyStore = ks;
                this.keyPassword = pw;
            } catch (IOException | GeneralSecurityException e) {
                throw new ClickHouseException("cannot read the client certificate or key: " + e.getMessage(), e);
            }
            return this;
        }

        /**
         * Presents the key entry of this key store (mutual TLS).
         *
         * @param keyStore a loaded key store holding the client's private key and certificate chain
         * @param password the key's password ({@code null}: none); copied
         * @return this builder
         */
        public Builder keyStore(KeyStore keyStore, char[] password) {
            this.keyStore = keyStore;
            this.keyPassword = password == null ? new char[0] : password.clone();
            return this;
        }

        /**
         * Whether the server certificate must match the host name (default true; turn off only for tests).
         *
         * @param on {@code false} to accept a trusted certificate issued for any name
         * @return this builder
         */
        public Builder hostnameVerification(boolean on) {
            this.hostnameVerification = on;
            return this;
        }

        /**
         * Verifies the server certificate against, and sends as SNI, this name instead of the host.
         *
         * @param name the server name, or {@code null} for the host connected to
         * @return this builder
         */
        public Builder serverName(String name) {
            this.serverName = name;
            return this;
        }

        /**
         * Enabled protocol versions (default TLSv1.3, TLSv1.2).
         *
         * @param protocols JSSE protocol names such as {@code TLSv1.3}; not {@code null}
         * @return this builder
         */
        public Builder protocols(List<String> protocols) {
            this.protocols = new ArrayList<>(protocols);
            return this;
        }

        /**
         * Builds the configuration, creating its {@link SSLContext} unless one was given.
         *
         * @return an immutable TLS configuration
         * @throws ClickHouseException when the context cannot be set up (e.g. a wrong key password)
         */
        public TlsConfig build() {
            return new TlsConfig(this);
        }

        private static PrivateKey readPkcs8(Path pem) throws IOException, GeneralSecurityException {
            String text = Files.readString(pem);
            if (text.contains("BEGIN RSA PRIVATE KEY") || text.contains("BEGIN EC PRIVATE KEY")) {
                throw new ClickHouseException("the private key in " + pem + " is PKCS#1/SEC1; convert it with "
                        + "'openssl pkcs8 -topk8 -nocrypt -in key.pem -out key-pkcs8.pem'");
            }
            if (text.contains("ENCRYPTED PRIVATE KEY")) {
                throw new ClickHouseException("the private key in " + pem + " is encrypted; use a key store instead");
            }
            int start = text.indexOf("-----BEGIN PRIVATE KEY-----");
            int end = text.indexOf("-----END PRIVATE KEY-----");
            if (start < 0 || end < 0) {
                throw new ClickHouseException("no PKCS#8 private key in " + pem);
            }
            byte[] der = Base64.getMimeDecoder().decode(text.substring(start + 27, end));
            PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
            for (String alg : new String[] {"RSA", "EC", "Ed25519", "RSASSA-PSS"}) {
                try {
                    return KeyFactory.getInstance(alg).generatePrivate(spec);
                } catch (GeneralSecurityException e) {
                    // try the next algorithm
                }
            }
            throw new ClickHouseException("unsupported private key algorithm in " + pem);
        }
    }
}
