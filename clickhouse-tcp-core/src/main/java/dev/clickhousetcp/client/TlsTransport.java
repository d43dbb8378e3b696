package dev.clickhousetcp.client;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SNIHostName;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * TLS over a {@link Transport}'s non-blocking channel, with the JDK's {@link SSLEngine}: the
 * handshake, record encryption and decryption, post-handshake messages (TLS 1.3 session tickets,
 * key updates) and close_notify. Reads and writes wait on the channel exactly as plain ones do, so
 * deadlines, cancel requests and interrupts behave the same with and without TLS.
 *
 * <p>Buffers: {@code netIn} holds received records not yet decrypted, {@code appIn} decrypted bytes
 * not yet read (both in read mode between calls), {@code netOut} records to send. Single-threaded.
 */
final class TlsTransport extends Transport {
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final SSLEngine engine;
    private ByteBuffer netIn;
    private ByteBuffer appIn;
    private ByteBuffer netOut;
    private boolean inboundDone;

    private TlsTransport(Transport plain, SSLEngine engine) {
        super(plain);
        this.engine = engine;
        int packet = engine.getSession().getPacketBufferSize();
        this.netIn = ByteBuffer.allocate(packet).flip();
        this.appIn = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize()).flip();
        this.netOut = ByteBuffer.allocate(packet);
    }

    /**
     * Starts TLS on a connected transport and completes the handshake (certificate and, when asked,
     * host name verification) while the guard allows.
     *
     * @param serverName the name to verify and to send as SNI (not sent for an IP literal)
     */
    static TlsTransport start(Transport plain, TlsConfig tls, String serverName, int port,
                              Transport.Guard handshakeGuard) throws IOException {
        SSLEngine engine = tls.context().createSSLEngine(serverName, port);
        engine.setUseClientMode(true);
        SSLParameters params = engine.getSSLParameters();
        if (tls.hostnameVerification()) {
            params.setEndpointIdentificationAlgorithm("HTTPS");
        }
        if (!isIpLiteral(serverName)) {
            params.setServerNames(List.of(new SNIHostName(serverName)));
        }
        params.setProtocols(tls.protocols().toArray(new String[0]));
        if (tls.cipherSuites() != null) {
            params.setCipherSuites(tls.cipherSuites().toArray(new String[0]));
        }
        engine.setSSLParameters(params);
        TlsTransport t = new TlsTransport(plain, engine);
        t.guard(handshakeGuard);
        engine.beginHandshake();
        t.handshake();
        return t;
    }

    static boolean isIpLiteral(String host) {
        return host.indexOf(':') >= 0 || host.chars().allMatch(ch -> Character.isDigit(ch) || ch == '.');
    }

    private void handshake() throws IOException {
        while (true) {
            switch (engine.getHandshakeStatus()) {
                case NEED_WRAP -> wrap(EMPTY);
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    if (unwrapOnce() < 0) {
                        throw new EOFException("the server closed the connection during the TLS handshake");
                    }
                }
                case NEED_TASK -> runTasks();
                default -> {
                    return; // FINISHED or NOT_HANDSHAKING
                }
            }
        }
    }

    private void runTasks() {
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) {
            task.run();
        }
    }

    /** One {@code unwrap} of {@code netIn} after what {@code appIn} holds; {@code appIn} stays ready to read. */
    private SSLEngineResult unwrapIntoAppIn() throws SSLException {
        appIn.compact();
        try {
            return engine.unwrap(netIn, appIn);
        } finally {
            appIn.flip();
        }
    }

    /**
     * Decrypts what it can from {@code netIn} into {@code appIn}, reading more from the channel when a
     * record is incomplete. Returns the application bytes produced (possibly 0, e.g. for a session
     * ticket), or -1 when the server closed the connection or the TLS session.
     */
    private int unwrapOnce() throws IOException {
        while (true) {
            SSLEngineResult r = unwrapIntoAppIn();
            switch (r.getStatus()) {
                case OK -> {
                    if (r.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_TASK) {
                        runTasks();
                    }
                    return r.bytesProduced();
                }
                case CLOSED -> {
                    inboundDone = true;
                    return -1;
                }
                case BUFFER_OVERFLOW -> appIn = grow(appIn, engine.getSession().getApplicationBufferSize());
                case BUFFER_UNDERFLOW -> {
                    int packet = engine.getSession().getPacketBufferSize();
                    if (netIn.capacity() < packet) {
                        netIn = grow(netIn, packet);
                    }
                    netIn.compact();
                    int n;
                    try {
                        n = readNet(netIn);
                    } finally {
                        netIn.flip();
                    }
                    if (n < 0) {
                        return -1;
                    }
                }
                default -> throw new SSLException("unexpected TLS state " + r.getStatus());
            }
        }
    }

    /** A buffer (in read mode) with at least {@code size} bytes of room, keeping its content. */
    private static ByteBuffer grow(ByteBuffer b, int size) {
        ByteBuffer bigger = ByteBuffer.allocate(Math.max(size, b.remaining()) + b.remaining());
        bigger.put(b).flip();
        return bigger;
    }

    /** Encrypts all of {@code src} and sends it. */
    private void wrap(ByteBuffer src) throws IOException {
        do {
            netOut.clear();
            SSLEngineResult r = engine.wrap(src, netOut);
            switch (r.getStatus()) {
                case OK, CLOSED -> {
                    netOut.flip();
                    writeNet(netOut);
                    if (r.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_TASK) {
                        runTasks();
                    }
                    if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
                        return;
                    }
                }
                case BUFFER_OVERFLOW -> netOut = ByteBuffer.allocate(engine.getSession().getPacketBufferSize()
                        + netOut.capacity());
                default -> throw new SSLException("unexpected TLS state " + r.getStatus());
            }
        } while (src.hasRemaining());
    }

    @Override
    int pending() {
        return appIn.remaining();
    }

    @Override
    int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (!appIn.hasRemaining()) {
            if (inboundDone) {
                return -1;
            }
            int n = unwrapOnce();
            if (n < 0) {
                return -1;
            }
            if (engine.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_WRAP) {
                wrap(EMPTY); // e.g. answering a key update
            }
        }
        int n = Math.min(len, appIn.remaining());
        appIn.get(b, off, n);
        return n;
    }

    @Override
    void write(byte[] b, int off, int len) throws IOException {
        wrap(ByteBuffer.wrap(b, off, len));
    }

    /**
     * An idle TLS connection may legitimately receive records (TLS 1.3 session tickets, key updates):
     * they are decrypted here; the connection fails the check only for application data, the end of
     * the TLS session or of the connection.
     */
    @Override
    boolean idleCheckFails() {
        if (appIn.hasRemaining() || inboundDone) {
            return true;
        }
        try {
            netIn.compact();
            int n;
            try {
                n = channel.read(netIn);
            } finally {
                netIn.flip();
            }
            if (n < 0) {
                return true;
            }
            while (netIn.hasRemaining()) {
                SSLEngineResult r = unwrapIntoAppIn();
                if (r.getStatus() == SSLEngineResult.Status.CLOSED || appIn.hasRemaining()) {
                    return true;
                }
                if (r.getStatus() != SSLEngineResult.Status.OK) {
                    break; // an incomplete record: the rest is read with the next response
                }
                if (r.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_TASK) {
                    runTasks();
                }
                if (r.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_WRAP) {
                    return true; // a key update needs an answer; simpler to start afresh
                }
            }
            return false;
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }

    /** Sends close_notify before our FIN (best effort; the connection is ending anyway). */
    @Override
    void beforeShutdown() {
        try {
            engine.closeOutbound();
            netOut.clear();
            engine.wrap(EMPTY, netOut);
            netOut.flip();
            channel.write(netOut); // non-blocking: what does not fit is skipped
        } catch (IOException | RuntimeException ignored) {
            // closing anyway
        }
    }
}
