package dev.clickhousetcp.protocol;

/** Protocol revision constants. */
public final class ProtocolRevision {
    /**
     * The revision this client announces in its Hello: 54488, the revision ClickHouse 26.7 reports.
     * The negotiated revision is {@code min(CLIENT, server's)}; the server serializes its blocks at
     * the revision the client announced.
     */
    public static final int CLIENT = ProtocolFeature.INTERSERVER_CURRENT_ROLES.minRevision();

    /** Parallel-replicas coordination protocol version sent in the Addendum (ProtocolDefines.h). */
    public static final int PARALLEL_REPLICAS_PROTOCOL_VERSION = 8;

    private ProtocolRevision() {
    }
}
