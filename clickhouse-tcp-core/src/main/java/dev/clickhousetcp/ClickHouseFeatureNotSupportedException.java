package dev.clickhousetcp;

/**
 * A call asks for something the connected server's protocol revision cannot carry (for example query
 * parameters, which need revision 54459, ClickHouse 22.x, while ClickHouse 18.16 speaks 54412). Thrown
 * before anything of the call is sent, so the connection stays usable; the same call fails again on this
 * server, so it is not worth retrying there. Spring's exception translation makes it an
 * {@code InvalidDataAccessApiUsageException}, as Spring does for JDBC's
 * {@code SQLFeatureNotSupportedException}.
 */
public class ClickHouseFeatureNotSupportedException extends ClickHouseException {
    private static final long serialVersionUID = 1L;

    /** The lowest revision that carries the feature; see {@link #requiredRevision()}. */
    private final long requiredRevision;
    /** The revision negotiated with the server; see {@link #serverRevision()}. */
    private final long serverRevision;

    /**
     * An exception naming the feature and both revisions.
     *
     * @param message          what the call asked for and which revision (and ClickHouse version) it needs
     * @param requiredRevision the lowest protocol revision that carries the feature
     * @param serverRevision   the revision negotiated with the server, below {@code requiredRevision}
     */
    public ClickHouseFeatureNotSupportedException(String message, long requiredRevision, long serverRevision) {
        super(message);
        this.requiredRevision = requiredRevision;
        this.serverRevision = serverRevision;
    }

    /**
     * The lowest protocol revision that carries the feature.
     *
     * @return the revision, for example 54459 for query parameters
     */
    public long requiredRevision() {
        return requiredRevision;
    }

    /**
     * The protocol revision negotiated with the server ({@code min(client's, server's)}).
     *
     * @return the revision, below {@link #requiredRevision()}
     */
    public long serverRevision() {
        return serverRevision;
    }
}
