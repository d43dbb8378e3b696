package dev.clickhousetcp;

/**
 * The transport failed: connection refused, host unreachable, a connect/handshake/read timeout, or
 * the socket closed mid-stream. The connection is closed and never returned to a pool. The message
 * names the endpoint but never a credential.
 *
 * <p>For an INSERT, {@link #insertMayHaveBeenApplied()} says whether the server could have
 * committed rows before the failure (some data reached it, and no answer said otherwise): ClickHouse
 * commits an INSERT block by block, so such an insert may be applied wholly or in part. Retrying it is
 * safe only with the same {@link #deduplicationToken()} (see {@code InsertOptions}); without a token a
 * retry may duplicate rows.
 */
public class ClickHouseConnectionException extends ClickHouseException {
    private static final long serialVersionUID = 1L;

    private final boolean insertMayHaveBeenApplied;
    private final String deduplicationToken;

    public ClickHouseConnectionException(String message, Throwable cause) {
        this(message, cause, false, null);
    }

    public ClickHouseConnectionException(String message) {
        this(message, null, false, null);
    }

    /**
     * @param insertMayHaveBeenApplied whether a failed INSERT may have been committed wholly or in part
     * @param deduplicationToken       the INSERT's {@code insert_deduplication_token}, or {@code null}
     */
    public ClickHouseConnectionException(String message, Throwable cause, boolean insertMayHaveBeenApplied,
                                         String deduplicationToken) {
        super(message, cause);
        this.insertMayHaveBeenApplied = insertMayHaveBeenApplied;
        this.deduplicationToken = deduplicationToken;
    }

    /**
     * Whether this failure ended an INSERT after data reached the server, so that the server may have
     * committed the rows, wholly or in part. {@code false} for queries and for inserts that failed
     * before any row was sent.
     */
    public boolean insertMayHaveBeenApplied() {
        return insertMayHaveBeenApplied;
    }

    /** The failed INSERT's deduplication token, with which a retry is safe; {@code null} if it had none. */
    public String deduplicationToken() {
        return deduplicationToken;
    }
}
