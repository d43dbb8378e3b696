package dev.clickhousetcp;

/**
 * The calling thread was interrupted during a call that had to give up its connection: while connecting or in
 * the handshake, while sending, while waiting for the server, or while an INSERT's rows were being produced.
 * The connection is closed (never returned to a pool) and the thread's interrupt flag is set again. It extends
 * {@link ClickHouseConnectionException} as {@link java.io.InterruptedIOException} extends
 * {@link java.io.IOException}: the connection was lost, but because the caller asked the call to stop, so
 * retrying it is the caller's decision, and the client never retries it on its own.
 *
 * <p>For an INSERT, {@link #insertMayHaveBeenApplied()} says whether data had reached the server before the
 * interrupt (the server may then have committed the rows, wholly or in part) and {@link #deduplicationToken()}
 * names the token with which a retry is safe, as for any other lost connection.
 */
public class ClickHouseInterruptedException extends ClickHouseConnectionException {
    private static final long serialVersionUID = 1L;

    /**
     * An interrupted call outside an INSERT, or an INSERT interrupted before any row reached the server.
     *
     * @param message what was interrupted and which endpoint's connection was closed; never a credential
     * @param cause   the {@link java.io.InterruptedIOException} or {@link InterruptedException}, or {@code null}
     */
    public ClickHouseInterruptedException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * An interrupted INSERT.
     *
     * @param message                  what was interrupted, and whether and how a retry is safe
     * @param cause                    the {@link java.io.InterruptedIOException}, or {@code null}
     * @param insertMayHaveBeenApplied whether data had reached the server, so that it may have committed rows
     * @param deduplicationToken       the INSERT's {@code insert_deduplication_token}, or {@code null}
     */
    public ClickHouseInterruptedException(String message, Throwable cause, boolean insertMayHaveBeenApplied,
                                          String deduplicationToken) {
        super(message, cause, insertMayHaveBeenApplied, deduplicationToken);
    }
}
