package dev.clickhousetcp.protocol;

import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.io.BinaryReader;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The server's Hello packet body, field order per ClickHouse {@code TCPHandler::sendHello} and
 * {@code Connection::receiveHello} (see also {@code docs/.../NativeProtocol.mdx}, ServerHello).
 *
 * @param name                          server name, e.g. {@code ClickHouse}
 * @param versionMajor                  server major version
 * @param versionMinor                  server minor version
 * @param revision                      the server's protocol revision
 * @param parallelReplicasProtocol      parallel replicas protocol version (54471+), else 0
 * @param timezone                      server time zone (54058+), else empty
 * @param displayName                   server display name (54372+), else empty
 * @param versionPatch                  server patch version (54401+), else 0
 * @param chunkedSend                   server's send-side chunking preference (54470+), else "notchunked"
 * @param chunkedReceive                server's receive-side chunking preference (54470+), else "notchunked"
 * @param passwordComplexityRules       (pattern, message) pairs (54461+)
 * @param nonce                         inter-server nonce (54462+), else 0
 * @param serverSettings                server's non-default settings (54474+)
 * @param queryPlanSerializationVersion 54477+, else 0
 * @param clusterFunctionProtocol       54479+, else 0
 */
public record ServerHello(String name, long versionMajor, long versionMinor, long revision,
                          long parallelReplicasProtocol, String timezone, String displayName, long versionPatch,
                          String chunkedSend, String chunkedReceive, List<Map.Entry<String, String>> passwordComplexityRules,
                          long nonce, Map<String, String> serverSettings, long queryPlanSerializationVersion,
                          long clusterFunctionProtocol) {

    /** Bound on password rules, per {@code DBMS_MAX_PASSWORD_COMPLEXITY_RULES}. */
    static final int MAX_PASSWORD_RULES = 256;

    /**
     * The server version as text.
     *
     * @return {@code major.minor.patch}, e.g. {@code 25.8.2}; the patch is 0 below revision 54401
     */
    public String version() {
        return versionMajor + "." + versionMinor + "." + versionPatch;
    }

    /**
     * Reads the body after the packet type. {@code clientRevision} is the revision we announced; the
     * fields present are those of {@code min(clientRevision, server revision)}.
     *
     * @param in             the connection's reader, positioned after the packet type
     * @param clientRevision the revision the client announced in its Hello
     * @return the decoded Hello; fields absent at the negotiated revision hold their defaults
     * @throws IOException   when reading fails or the stream ends
     * @throws ClickHouseProtocolException when a count or the settings list exceeds its bound
     */
    public static ServerHello read(BinaryReader in, long clientRevision) throws IOException {
        String name = in.readString();
        long major = in.readVarUInt();
        long minor = in.readVarUInt();
        long serverRevision = in.readVarUInt();
        long rev = Math.min(clientRevision, serverRevision);
        long prp = 0;
        if (ProtocolFeature.VERSIONED_PARALLEL_REPLICAS_PROTOCOL.in(rev)) {
            prp = in.readVarUInt();
        }
        String tz = ProtocolFeature.SERVER_TIMEZONE.in(rev) ? in.readString() : "";
        String display = ProtocolFeature.SERVER_DISPLAY_NAME.in(rev) ? in.readString() : "";
        long patch = ProtocolFeature.VERSION_PATCH.in(rev) ? in.readVarUInt() : 0;
        String send = "notchunked";
        String recv = "notchunked";
        if (ProtocolFeature.CHUNKED_PACKETS.in(rev)) {
            send = in.readString();
            recv = in.readString();
        }
        List<Map.Entry<String, String>> rules = List.of();
        if (ProtocolFeature.PASSWORD_COMPLEXITY_RULES.in(rev)) {
            int n = in.readVarUIntBounded(MAX_PASSWORD_RULES, "password complexity rule count");
            List<Map.Entry<String, String>> r = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                r.add(Map.entry(in.readString(), in.readString()));
            }
            rules = Collections.unmodifiableList(r);
        }
        long nonce = ProtocolFeature.INTERSERVER_SECRET_V2.in(rev) ? in.readInt64() : 0;
        Map<String, String> settings = Map.of();
        if (ProtocolFeature.SERVER_SETTINGS.in(rev)) {
            settings = Collections.unmodifiableMap(readSettingsAsStrings(in));
        }
        long qps = ProtocolFeature.QUERY_PLAN_SERIALIZATION.in(rev) ? in.readVarUInt() : 0;
        long cfp = ProtocolFeature.VERSIONED_CLUSTER_FUNCTION_PROTOCOL.in(rev) ? in.readVarUInt() : 0;
        return new ServerHello(name, major, minor, serverRevision, prp, tz, display, patch, send, recv, rules,
                nonce, settings, qps, cfp);
    }

    /** Settings list in the STRINGS_WITH_FLAGS format: (name, VarUInt flags, value) until an empty name. */
    static Map<String, String> readSettingsAsStrings(BinaryReader in) throws IOException {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; ; i++) {
            if (i > 100_000) {
                throw new ClickHouseProtocolException("settings list is not terminated");
            }
            String key = in.readString();
            if (key.isEmpty()) {
                return m;
            }
            in.readVarUInt(); // flags
            m.put(key, in.readString());
        }
    }
}
