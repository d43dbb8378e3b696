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
     * (54470+), parallel replicas protocol version (54471+).
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
