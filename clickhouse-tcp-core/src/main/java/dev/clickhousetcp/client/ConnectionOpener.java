package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseAuthenticationException;
import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.ClickHouseTimeoutException.Deadline;
import dev.clickhousetcp.data.BufferPool;
import dev.clickhousetcp.data.ClickHouseZoneRules;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;
import dev.clickhousetcp.io.ChunkedInputStream;
import dev.clickhousetcp.protocol.ChunkedMode;
import dev.clickhousetcp.protocol.ClientInfo;
import dev.clickhousetcp.protocol.Handshake;
import dev.clickhousetcp.protocol.ProtocolFeature;
import dev.clickhousetcp.protocol.ProtocolRevision;
import dev.clickhousetcp.protocol.ServerExceptionCodec;
import dev.clickhousetcp.protocol.ServerHello;
import dev.clickhousetcp.protocol.ServerPacket;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * Opens a {@link ClickHouseConnection}: connects the socket, starts TLS when configured, and runs the
 * protocol handshake (Hello, server Hello, Addendum), which settles the protocol revision, the framing
 * of each direction (plain or chunked), the server's time zone and the ClientInfo sent with every
 * query. Connect and handshake are each bounded by their own timeout and by the caller's budget.
 */
final class ConnectionOpener {
    /** Client version reported in Hello and ClientInfo. */
    static final int VERSION_MAJOR = 0;
    static final int VERSION_MINOR = 1;
    static final int VERSION_PATCH = 0;

    private ConnectionOpener() {
    }

    /**
     * {@link ClickHouseConnection#open(ConnectionConfig)} within {@code budget} as well (e.g. a pool's acquire timeout):
     * connect and handshake each stop at the earlier of their own timeout and the budget, and the
     * exception names the deadline that expired. The connection decodes into {@code buffers}, which it may
     * share with other connections.
     */
    static ClickHouseConnection open(ConnectionConfig config, Budget budget, BufferPool buffers) {
        String where = config.host() + ":" + config.port();
        Budget connect = Budget.of(config.connectTimeout(), Deadline.CONNECT).min(budget);
        Transport transport;
        try {
            transport = Transport.connect(config.host(), config.port(), connect);
        } catch (SocketTimeoutException e) {
            throw connect.exceeded("while connecting to " + where + " (timed out)", e);
        } catch (UnknownHostException | UnresolvedAddressException e) {
            throw new ClickHouseConnectionException("unknown host " + config.host(), e);
        } catch (IOException e) {
            throw new ClickHouseConnectionException("cannot connect to " + where + ": " + e.getMessage(), e);
        }
        Budget handshake = Budget.of(config.handshakeTimeout(), Deadline.HANDSHAKE).min(budget);
        ConnectionGuard guard = new ConnectionGuard(handshake);
        transport.guard(guard);
        if (config.tls() != null) {
            TlsConfig tls = config.tls();
            try {
                transport = TlsTransport.start(transport, tls, tls.serverName() != null ? tls.serverName()
                        : config.host(), config.port(), guard);
            } catch (DeadlineExpired e) {
                ClickHouseConnection.closeInBackground(transport); // the server's bytes may be unread: no reset
                throw new ClickHouseTimeoutException(e.deadline.optionName() + " " + e.timeout
                        + " expired during the TLS handshake with " + where + " (timed out)", e, e.deadline, e.timeout);
            } catch (IOException | RuntimeException e) {
                ClickHouseConnection.closeInBackground(transport);
                throw new ClickHouseConnectionException("TLS handshake with " + where + " failed: " + e.getMessage(), e);
            }
        }
        return handshake(config, transport, guard, buffers);
    }

    /**
     * The protocol handshake (Hello, server Hello, Addendum) over a connected {@code transport} whose
     * waits {@code guard} already bounds, for a connection with a column buffer pool of its own.
     * Package-private so that tests can run the real handshake and the real response decoding over a
     * transport of their own (e.g. in-memory bytes for fuzzing).
     *
     * @throws ClickHouseProtocolException when the server's answer is not a Hello
     * @throws ClickHouseConnectionException when the transport fails; it is then closed
     */
    static ClickHouseConnection handshake(ConnectionConfig config, Transport transport, ConnectionGuard guard) {
        return handshake(config, transport, guard, new BufferPool(config.blockBufferPoolSize()));
    }

    /**
     * The protocol handshake over a connected {@code transport} whose waits {@code guard} already bounds;
     * the second half of {@link #open(ConnectionConfig, Budget, BufferPool)}. The connection decodes into
     * {@code buffers}.
     */
    private static ClickHouseConnection handshake(ConnectionConfig config, Transport transport, ConnectionGuard guard,
            BufferPool buffers) {
        String where = config.host() + ":" + config.port();
        try {
            BinaryWriter w = new BinaryWriter(transport.outputStream(), config.bufferSize());
            BinaryReader r = new BinaryReader(transport.inputStream(), config.bufferSize(),
                    config.limits().maxStringBytes());
            Handshake.writeHello(w, config.clientName(), VERSION_MAJOR, VERSION_MINOR, config.database(), config.user(),
                    config.password());
            w.flush();
            long type = r.readVarUInt();
            if (type == ServerPacket.EXCEPTION) {
                ClickHouseServerException e = ServerExceptionCodec.read(r);
                throw ClickHouseAuthenticationException.isAuthenticationCode(e.code())
                        ? new ClickHouseAuthenticationException(e) : e;
            }
            if (type != ServerPacket.HELLO) {
                throw new ClickHouseProtocolException("expected server Hello from " + where + ", got packet "
                        + ServerPacket.name(type));
            }
            ServerHello hello = ServerHello.read(r, ProtocolRevision.CLIENT);
            long rev = Math.min(ProtocolRevision.CLIENT, hello.revision());
            String preference = config.preferChunked() ? "chunked_optional" : "notchunked_optional";
            boolean sendChunked = ChunkedMode.negotiate(hello.chunkedReceive(), preference, "send");
            boolean recvChunked = ChunkedMode.negotiate(hello.chunkedSend(), preference, "receive");
            if (ProtocolFeature.ADDENDUM.in(rev)) {
                Handshake.writeAddendum(w, rev, "", sendChunked, recvChunked);
                w.flush();
            }
            w.setChunked(sendChunked);
            BinaryReader reader = recvChunked
                    ? new BinaryReader(new ChunkedInputStream(new BufferedInputStream(transport.inputStream(),
                    config.bufferSize()),
                    Integer.MAX_VALUE), config.bufferSize(), config.limits().maxStringBytes())
                    : r;
            ZoneId zone = zoneOf(hello.timezone());
            ClientInfo info = new ClientInfo("", "", "0.0.0.0:0", System.getProperty("user.name", ""), localHostName(),
                    config.clientName(), VERSION_MAJOR, VERSION_MINOR, VERSION_PATCH, "", null);
            ClickHouseConnection conn = new ClickHouseConnection(config, transport, reader, w, hello, rev, zone, info,
                    sendChunked, recvChunked, buffers);
            guard.conn = conn;
            return conn;
        } catch (DeadlineExpired e) {
            ClickHouseConnection.closeInBackground(transport);
            throw new ClickHouseTimeoutException(e.deadline.optionName() + " " + e.timeout
                    + " expired during the handshake with " + where + " (timed out waiting for the server)", e,
                    e.deadline, e.timeout);
        } catch (IOException e) {
            ClickHouseConnection.closeInBackground(transport);
            throw new ClickHouseConnectionException("handshake with " + where + " failed: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            ClickHouseConnection.closeInBackground(transport);
            throw e;
        }
    }

    private static ZoneId zoneOf(String tz) {
        if (tz == null || tz.isEmpty()) {
            return ZoneOffset.UTC;
        }
        try {
            return ClickHouseZoneRules.zoneId(tz);
        } catch (DateTimeException e) {
            return ZoneOffset.UTC;
        }
    }

    private static String localHostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "";
        }
    }
}
