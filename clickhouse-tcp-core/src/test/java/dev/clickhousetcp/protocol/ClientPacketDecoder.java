package dev.clickhousetcp.protocol;

import dev.clickhousetcp.io.BinaryReader;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Reads the client packets as a server does, field order per ClickHouse {@code TCPHandler::receiveHello},
 * {@code receiveAddendum}, {@code receiveQuery} and {@code ClientInfo::read}, so that what the client
 * writes can be read back and compared. Test scope only: the client never reads its own packets.
 */
final class ClientPacketDecoder {
    /** Settings the pre-54429 binary settings format writes as strings (per ClickHouse 18.16 Settings.h). */
    private static final Set<String> STRING_SETTINGS = Set.of("send_logs_level", "network_compression_method",
            "load_balancing", "totals_mode", "distributed_product_mode", "count_distinct_implementation",
            "format_csv_delimiter", "join_default_strictness", "timeout_overflow_mode", "read_overflow_mode",
            "max_streams_to_max_threads_ratio", "totals_auto_threshold");

    private ClientPacketDecoder() {
    }

    record Hello(String clientName, long major, long minor, long revision, String database, String user,
                 String password) {
    }

    record Addendum(String quotaKey, String sendChunked, String receiveChunked, long parallelReplicasProtocol) {
    }

    record Info(int queryKind, String initialUser, String initialQueryId, String initialAddress, long startMicros,
                int iface, String osUser, String hostname, String clientName, long major, long minor, long revision,
                String quotaKey, long distributedDepth, long patch, TraceContext trace) {
    }

    record Query(String queryId, Info info, Map<String, String> settings, long stage, long compression, String sql,
                 Map<String, String> parameters) {
    }

    static Hello hello(BinaryReader in) throws IOException {
        expect(in, ClientPacket.HELLO);
        return new Hello(in.readString(), in.readVarUInt(), in.readVarUInt(), in.readVarUInt(), in.readString(),
                in.readString(), in.readString());
    }

    static Addendum addendum(BinaryReader in, long revision) throws IOException {
        String quota = ProtocolFeature.QUOTA_KEY.in(revision) ? in.readString() : "";
        String send = "notchunked";
        String recv = "notchunked";
        if (ProtocolFeature.CHUNKED_PACKETS.in(revision)) {
            send = in.readString();
            recv = in.readString();
        }
        long prp = ProtocolFeature.VERSIONED_PARALLEL_REPLICAS_PROTOCOL.in(revision) ? in.readVarUInt() : 0;
        return new Addendum(quota, send, recv, prp);
    }

    static Query query(BinaryReader in, long revision) throws IOException {
        expect(in, ClientPacket.QUERY);
        String id = in.readString();
        Info info = ProtocolFeature.CLIENT_INFO.in(revision) ? info(in, revision) : null;
        Map<String, String> settings = new LinkedHashMap<>();
        for (String name = in.readString(); !name.isEmpty(); name = in.readString()) {
            if (ProtocolFeature.SETTINGS_SERIALIZED_AS_STRINGS.in(revision)) {
                long flags = in.readVarUInt();
                if (flags != QueryPacket.FLAG_IMPORTANT) {
                    throw new AssertionError("setting " + name + " flags " + flags);
                }
                settings.put(name, in.readString());
            } else {
                settings.put(name, STRING_SETTINGS.contains(name) ? in.readString() : Long.toString(in.readVarUInt()));
            }
        }
        if (ProtocolFeature.INTERSERVER_EXTERNALLY_GRANTED_ROLES.in(revision)) {
            String roles = in.readString(); // a serialized vector of role names
            if (!roles.equals("\0")) {
                throw new AssertionError("external roles " + roles);
            }
        }
        if (ProtocolFeature.INTERSERVER_SECRET.in(revision)) {
            String hash = in.readString();
            if (!hash.isEmpty()) {
                throw new AssertionError("inter-server secret hash " + hash);
            }
        }
        long stage = in.readVarUInt();
        long compression = in.readVarUInt();
        String sql = in.readString();
        Map<String, String> params = new LinkedHashMap<>();
        if (ProtocolFeature.PARAMETERS.in(revision)) {
            for (String name = in.readString(); !name.isEmpty(); name = in.readString()) {
                long flags = in.readVarUInt();
                if (flags != QueryPacket.FLAG_CUSTOM) {
                    throw new AssertionError("parameter " + name + " flags " + flags);
                }
                params.put(name, in.readString());
            }
        }
        return new Query(id, info, settings, stage, compression, sql, params);
    }

    static Info info(BinaryReader in, long revision) throws IOException {
        int kind = in.readUInt8();
        String user = in.readString();
        String queryId = in.readString();
        String address = in.readString();
        long start = ProtocolFeature.INITIAL_QUERY_START_TIME.in(revision) ? in.readInt64() : 0;
        int iface = in.readUInt8();
        if (iface != ClientInfo.INTERFACE_TCP) {
            throw new AssertionError("interface " + iface);
        }
        String osUser = in.readString();
        String host = in.readString();
        String name = in.readString();
        long major = in.readVarUInt();
        long minor = in.readVarUInt();
        long rev = in.readVarUInt();
        String quota = ProtocolFeature.QUOTA_KEY_IN_CLIENT_INFO.in(revision) ? in.readString() : "";
        long depth = ProtocolFeature.DISTRIBUTED_DEPTH.in(revision) ? in.readVarUInt() : 0;
        long patch = ProtocolFeature.VERSION_PATCH.in(revision) ? in.readVarUInt() : 0;
        TraceContext trace = null;
        if (ProtocolFeature.OPENTELEMETRY.in(revision) && in.readUInt8() == 1) {
            long high = in.readInt64();
            long low = in.readInt64();
            long span = in.readInt64();
            String state = in.readString();
            trace = new TraceContext(high, low, span, state, in.readUInt8());
        }
        if (ProtocolFeature.PARALLEL_REPLICAS.in(revision)) {
            zero(in.readVarUInt(), "collaborate_with_initiator");
            zero(in.readVarUInt(), "count_participating_replicas");
            zero(in.readVarUInt(), "number_of_current_replica");
        }
        if (ProtocolFeature.QUERY_AND_LINE_NUMBERS.in(revision)) {
            zero(in.readVarUInt(), "script_query_number");
            zero(in.readVarUInt(), "script_line_number");
        }
        if (ProtocolFeature.JWT_IN_INTERSERVER.in(revision)) {
            zero(in.readUInt8(), "has JWT");
        }
        if (ProtocolFeature.CLIENT_AGENT_IN_CLIENT_INFO.in(revision)) {
            zero(in.readString().length(), "client agent length");
        }
        if (ProtocolFeature.INTERNAL_QUERY_FLAG.in(revision)) {
            zero(in.readUInt8(), "is_internal");
        }
        if (ProtocolFeature.INTERSERVER_CURRENT_ROLES.in(revision)) {
            zero(in.readUInt8(), "has current roles");
        }
        return new Info(kind, user, queryId, address, start, iface, osUser, host, name, major, minor, rev, quota, depth,
                patch, trace);
    }

    /** Reads a packet that is its type code alone (Ping, Cancel) and returns the code. */
    static long code(BinaryReader in) throws IOException {
        return in.readVarUInt();
    }

    private static void expect(BinaryReader in, int type) throws IOException {
        long t = in.readVarUInt();
        if (t != type) {
            throw new AssertionError("packet type " + t + ", expected " + type);
        }
    }

    private static void zero(long v, String what) {
        if (v != 0) {
            throw new AssertionError(what + " = " + v);
        }
    }
}
