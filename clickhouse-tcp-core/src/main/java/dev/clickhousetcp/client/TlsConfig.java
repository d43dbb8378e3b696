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

    public static Builder builder() {
        return new Builder();
    }

    SSLContext context() {
        return context;
    }

    public boolean hostnameVerification() {
        return hostnameVerification;
    }

    /** The name the server certificate is verified against and sent as SNI ({@code null}: the host). */
    public String serverName() {
        return serverName;
    }

    public List<String> protocols() {
        return protocols;
    }

    /** The enabled cipher suites, or {@code null} for the JSSE defaults. */
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
         * @param description what it is, for {@link #toString()} (no secrets)
         */
        public Builder sslContext(SSLContext context, String description) {
            this.sslContext = java.util.Objects.requireNonNull(context, "context");
            this.sslContextDescription = description == null ? "custom" : description;
            return this;
        }

        /** Enabled cipher suites (default: the JSSE defaults of the context's protocols). */
        public Builder cipherSuites(List<String> cipherSuites) {
            this.cipherSuites = cipherSuites == null ? null : new ArrayList<>(cipherSuites);
            return this;
        }

        /** Trusts exactly the CA certificates in this PEM file (instead of the JVM's trust store). */
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

        /** Trusts the certificates of this key store. */
        public Builder trustStore(KeyStore trustStore) {
            this.trustStore = trustStore;
            this.trustDescription = "key store";
            return this;
        }

        /**
         * Presents this client certificate (mutual TLS).
         *
         * @param certificateChainPem PEM file with the client certificate (and any intermediates)
         * @param privateKeyPem       PEM file with the unencrypted PKCS#8 private key
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

        /** Presents the key entry of this key store (mutual TLS). */
        public Builder keyStore(KeyStore keyStore, char[] password) {
            this.keyStore = keyStore;
            this.keyPassword = password == null ? new char[0] : password.clone();
            return this;
        }

        /** Whether the server certificate must match the host name (default true; turn off only for tests). */
        public Builder hostnameVerification(boolean on) {
            this.hostnameVerification = on;
            return this;
        }

        /** Verifies the server certificate against, and sends as SNI, this name instead of the host. */
        public Builder serverName(String name) {
            this.serverName = name;
            return this;
        }

        /** Enabled protocol versions (default TLSv1.3, TLSv1.2). */
        public Builder protocols(List<String> protocols) {
            this.protocols = new ArrayList<>(protocols);
            return this;
        }

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
