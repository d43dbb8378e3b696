package dev.clickhousetcp.protocol;

import dev.clickhousetcp.io.BinaryWriter;

import java.io.IOException;

/** Writers for the client side of the handshake: Hello and Addendum. */
public final class Handshake {
    private Handshake() {
    }

    /**
     * Client Hello: client name, version major/minor, protocol revision, database, user, password
     * (ClickHouse {@code Connection::sendHello}). The password is written to the socket only.
     * The revision announced is always {@link ProtocolRevision#CLIENT}.
     *
     * @param out        the connection's writer; not flushed here
     * @param clientName client application name the server records (e.g. in {@code system.query_log})
     * @param major      client major version
     * @param minor      client minor version
     * @param database   default database of the session; empty for the user's default
     * @param user       user name
     * @param password   password in clear text (the native protocol has no hashing here; use TLS)
     * @throws IOException when writing to {@code out} fails
     */
    public static void writeHello(BinaryWriter out, String clientName, int major, int minor, String database,
                                  String user, String password) throws IOException {
        out.writeVarUInt(ClientPacket.HELLO);
        out.writeString(clientName);
        out.writeVarUInt(major);
        out.writeVarUInt(minor);
        out.writeVarUInt(ProtocolRevision.CLIENT);
        out.writeString(database);
        out.writeString(user);
        out.writeString(password);
    }

    /**
     * Addendum (54458+; no packet type): quota key, chunked framing choice for each direction
     * (54470+), parallel replicas protocol version (54471+). The caller sends it only when
     * {@link ProtocolFeature#ADDENDUM} is active.
     *
     * @param out            the connection's writer; not flushed here
     * @param revision       the negotiated revision, {@code min(client's, server's)}
     * @param quotaKey       quota key (empty for none)
     * @param sendChunked    whether client-to-server packets will be chunked, as negotiated by {@link ChunkedMode}
     * @param receiveChunked whether server-to-client packets will be chunked, as negotiated by {@link ChunkedMode}
     * @throws IOException   when writing to {@code out} fails
     */
    public static void writeAddendum(BinaryWriter out, long revision, String quotaKey, boolean sendChunked,
                                     boolean receiveChunked) throws IOException {
        if (ProtocolFeature.QUOTA_KEY.in(revision)) {
            out.writeString(quotaKey);
        }
        if (ProtocolFeature.CHUNKED_PACKETS.in(revision)) {
            out.writeString(sendChunked ? "chunked" : "notchunked");
            out.writeString(receiveChunked ? "chunked" : "notchunked");
        }
        if (ProtocolFeature.VERSIONED_PARALLEL_REPLICAS_PROTOCOL.in(revision)) {
            out.writeVarUInt(ProtocolRevision.PARALLEL_REPLICAS_PROTOCOL_VERSION);
        }
    }
}
