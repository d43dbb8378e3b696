package dev.clickhousetcp.protocol;

import dev.clickhousetcp.io.BinaryWriter;

import java.io.IOException;

/**
 * ClientInfo as embedded in the Query packet, field order and gates per ClickHouse
 * {@code src/Interpreters/ClientInfo.cpp} ({@code ClientInfo::write}) for the TCP interface.
 * Immutable; safe to share.
 *
 * @param initialUser     user who initiated the query (empty for external clients: the server fills it)
 * @param initialQueryId  query id (the server uses the query's id when empty)
 * @param initialAddress  our {@code ip:port}; the server replaces it for initial queries
 * @param osUser          operating system user
 * @param clientHostname  local host name
 * @param clientName      client application name
 * @param versionMajor    client major version
 * @param versionMinor    client minor version
 * @param versionPatch    client patch version
 * @param quotaKey        quota key (may be empty)
 * @param trace           OpenTelemetry context or {@code null}; only a sampled one ({@link TraceContext#sampled()})
 *                        is written, an unsampled one is sent as none
 */
public record ClientInfo(String initialUser, String initialQueryId, String initialAddress, String osUser,
                         String clientHostname, String clientName, int versionMajor, int versionMinor,
                         int versionPatch, String quotaKey, TraceContext trace) {

    static final int QUERY_KIND_INITIAL = 1;
    static final int QUERY_KIND_SECONDARY = 2;
    static final int INTERFACE_TCP = 1;

    /**
     * Writes the ClientInfo fields present at {@code revision} for an initial query.
     *
     * @param out             the writer of the Query packet being built
     * @param revision        the negotiated revision; it selects which fields are written
     * @param startTimeMicros the query's start time in microseconds since the Unix epoch (written at 54449+)
     * @throws IOException    when writing to {@code out} fails
     */
    public void write(BinaryWriter out, long revision, long startTimeMicros) throws IOException {
        write(out, revision, startTimeMicros, false);
    }

    /**
     * Writes the ClientInfo fields present at {@code revision}; {@code secondary} sends query_kind
     * SECONDARY_QUERY (the per-shard part of a distributed query) instead of INITIAL_QUERY.
     * Fields this client has no value for (distributed depth, parallel replicas, query and line numbers,
     * JWT, client agent, internal flag, current roles) are written as zero or empty.
     *
     * @param out             the writer of the Query packet being built
     * @param revision        the negotiated revision; it selects which fields are written
     * @param startTimeMicros the query's start time in microseconds since the Unix epoch (written at 54449+)
     * @param secondary       {@code true} for query_kind SECONDARY_QUERY, {@code false} for INITIAL_QUERY
     * @throws IOException    when writing to {@code out} fails
     */
    public void write(BinaryWriter out, long revision, long startTimeMicros, boolean secondary) throws IOException {
        out.writeUInt8(secondary ? QUERY_KIND_SECONDARY : QUERY_KIND_INITIAL);
        out.writeString(initialUser);
        out.writeString(initialQueryId);
        out.writeString(initialAddress);
        if (ProtocolFeature.INITIAL_QUERY_START_TIME.in(revision)) {
            out.writeInt64(startTimeMicros);
        }
        out.writeUInt8(INTERFACE_TCP);
        out.writeString(osUser);
        out.writeString(clientHostname);
        out.writeString(clientName);
        out.writeVarUInt(versionMajor);
        out.writeVarUInt(versionMinor);
        out.writeVarUInt(ProtocolRevision.CLIENT);
        if (ProtocolFeature.QUOTA_KEY_IN_CLIENT_INFO.in(revision)) {
            out.writeString(quotaKey);
        }
        if (ProtocolFeature.DISTRIBUTED_DEPTH.in(revision)) {
            out.writeVarUInt(0);
        }
        if (ProtocolFeature.VERSION_PATCH.in(revision)) {
            out.writeVarUInt(versionPatch);
        }
        if (ProtocolFeature.OPENTELEMETRY.in(revision)) {
            // An unsampled context (sampled flag clear) goes as "no OpenTelemetry header", the form ClickHouse's
            // own ClientInfo::write gives a zero trace id: the server records spans for any trace id it is given,
            // whatever the flags say, so sending it would fill system.opentelemetry_span_log with traces the
            // caller does not keep.
            if (trace != null && trace.sampled()) {
                out.writeUInt8(1);
                out.writeInt64(trace.traceIdHigh());
                out.writeInt64(trace.traceIdLow());
                out.writeInt64(trace.spanId());
                out.writeString(trace.traceState());
                out.writeUInt8(trace.traceFlags());
            } else {
                out.writeUInt8(0);
            }
        }
        if (ProtocolFeature.PARALLEL_REPLICAS.in(revision)) {
            out.writeVarUInt(0); // collaborate_with_initiator
            out.writeVarUInt(0); // count_participating_replicas
            out.writeVarUInt(0); // number_of_current_replica
        }
        if (ProtocolFeature.QUERY_AND_LINE_NUMBERS.in(revision)) {
            out.writeVarUInt(0);
            out.writeVarUInt(0);
        }
        if (ProtocolFeature.JWT_IN_INTERSERVER.in(revision)) {
            out.writeUInt8(0);
        }
        if (ProtocolFeature.CLIENT_AGENT_IN_CLIENT_INFO.in(revision)) {
            out.writeString("");
        }
        if (ProtocolFeature.INTERNAL_QUERY_FLAG.in(revision)) {
            out.writeUInt8(0);
        }
        if (ProtocolFeature.INTERSERVER_CURRENT_ROLES.in(revision)) {
            out.writeUInt8(0);
        }
    }

    /**
     * A copy with another initial query id, trace context and, optionally, quota key.
     *
     * @param queryId      the query id to send as initial_query_id
     * @param traceContext the OpenTelemetry context to send, or {@code null} for none
     * @param quota        the quota key for this query, or {@code null} to keep this info's {@link #quotaKey()}
     * @return a new ClientInfo; this one is unchanged
     */
    public ClientInfo forQuery(String queryId, TraceContext traceContext, String quota) {
        return new ClientInfo(initialUser, queryId, initialAddress, osUser, clientHostname, clientName, versionMajor,
                versionMinor, versionPatch, quota == null ? quotaKey : quota, traceContext);
    }
}
