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

    /** Whether a failed INSERT may have been committed; see {@link #insertMayHaveBeenApplied()}. */
    private final boolean insertMayHaveBeenApplied;
    /** The failed INSERT's deduplication token, or {@code null}; see {@link #deduplicationToken()}. */
    private final String deduplicationToken;

    /**
     * A transport failure outside an INSERT (or before any row reached the server).
     *
     * @param message what failed and on which endpoint; never a credential
     * @param cause   the underlying I/O failure, or {@code null}
     */
    public ClickHouseConnectionException(String message, Throwable cause) {
        this(message, cause, false, null);
    }

    /**
     * A transport failure without an underlying exception, outside an INSERT.
     *
     * @param message what failed and on which endpoint; never a credential
     */
    public ClickHouseConnectionException(String message) {
        this(message, null, false, null);
    }

    /**
     * A transport failure that may have ended an INSERT.
     *
     * @param message                  what failed and on which endpoint; never a credential
     * @param cause                    the underlying I/O failure, or {@code null}
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
     *
     * @return {@code true} if a retry without the same deduplication token may duplicate rows
     */
    public boolean insertMayHaveBeenApplied() {
        return insertMayHaveBeenApplied;
    }

    /**
     * The failed INSERT's deduplication token, with which a retry is safe.
     *
     * @return the {@code insert_deduplication_token} the INSERT was sent with, or {@code null} if it had none
     */
    public String deduplicationToken() {
        return deduplicationToken;
    }
}
