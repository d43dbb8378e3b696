package dev.clickhousetcp.observe;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.client.Endpoint;
import dev.clickhousetcp.protocol.ProfileInfo;
import dev.clickhousetcp.protocol.Progress;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.SenderContext;

/**
 * What an observation of the client knows about its operation: set by the client while the
 * operation runs, read by {@link ClickHouseTcpObservationConvention}s and observation handlers.
 *
 * <p>It is a {@link SenderContext} whose carrier is a map of propagation headers: a tracing handler
 * (Micrometer Tracing's {@code PropagatingSenderTracingObservationHandler}) writes the client span's
 * context into it when the observation starts, through whatever propagator is configured (W3C
 * {@code traceparent}/{@code tracestate}, B3), and the client sends it to the server in the query's
 * ClientInfo, so the server's spans become children of the client span.
 *
 * <p>Values that are only known later (the server reached, rows, progress, the outcome) change while
 * the operation runs; read them in {@code onStop}. Written by the thread running the operation;
 * handlers see them on that thread.
 */
public class ClickHouseTcpObservationContext extends SenderContext<Map<String, String>> {

    /** How an operation ended. */
    public enum Outcome {
        /** Still running. */
        UNKNOWN,
        /** Complete: every row read, the insert confirmed, the Pong received. */
        SUCCESS,
        /** Ended by an exception (a server error, a timeout, a broken connection, a mapping error). */
        ERROR,
        /**
         * Stopped by the caller before its end: {@code QueryResult.cancel()}, closing an unfinished result or
         * stream, or an interrupt of the calling thread (any kind of call, wherever the interrupt met it).
         */
        CANCELLED
    }

    private final ClickHouseTcpOperation operation;
    private final String operationName;
    private final String clientName;
    private final String database;
    private volatile String queryText;
    /** {@link #queryText} masked, computed when first asked for. */
    private volatile String maskedQueryText;
    private volatile String queryId;
    private volatile Endpoint endpoint;
    private volatile Outcome outcome = Outcome.UNKNOWN;
    private volatile long returnedRows;
    private volatile long insertedRows;
    private volatile Progress progress = Progress.ZERO;
    private volatile ProfileInfo profileInfo;
    private volatile int retries;
    private volatile long timeToFirstBlockNanos = -1;
    private volatile long compressedBytesRead;
    private volatile long decompressedBytesRead;
    private volatile long compressedBytesWritten;
    private volatile long uncompressedBytesWritten;

    /**
     * A context for one operation.
     *
     * @param operation     the client call
     * @param operationName the statement's first keyword ({@code SELECT}, {@code INSERT}, ...; {@code PING})
     * @param queryText     the SQL, or {@code null} (pings; inserts until their statement is built)
     * @param database      the database the statement runs in
     * @param clientName    the client's name ({@code ClickHouseTcpClient.Builder.name})
     * @param endpoint      the server, when the client has only one; else {@code null} until connected
     */
    public ClickHouseTcpObservationContext(ClickHouseTcpOperation operation, String operationName, String queryText,
            String database, String clientName, Endpoint endpoint) {
        super((carrier, key, value) -> carrier.put(key, value), Kind.CLIENT);
        this.operation = operation;
        this.operationName = operationName;
        this.queryText = queryText;
        this.database = database;
        this.clientName = clientName;
        setCarrier(new HashMap<>(4));
        setRemoteServiceName("clickhouse");
        endpoint(endpoint);
    }

    /**
     * The client call.
     *
     * @return the kind of call, never {@code null}
     */
    public ClickHouseTcpOperation getOperation() {
        return operation;
    }

    /**
     * The statement's first keyword, upper case, or {@code PING}.
     *
     * @return e.g. {@code SELECT}, {@code INSERT}; {@code PING} for pings
     */
    public String getOperationName() {
        return operationName;
    }

    /**
     * The client's name.
     *
     * @return the name given to {@code ClickHouseTcpClient.Builder.name}
     */
    public String getClientName() {
        return clientName;
    }

    /**
     * The database the statement runs in.
     *
     * @return the database name
     */
    public String getDatabase() {
        return database;
    }

    /**
     * The SQL as given with its secrets hidden ({@link QueryMasking#mask(String)}: passwords, credentials of table
     * functions and engines, ... become {@code '[HIDDEN]'}, as in the server's {@code system.query_log}), or
     * {@code null} (pings; an insert whose statement is not built yet). Conventions and handlers see only this
     * form.
     *
     * @return the masked SQL text, or {@code null}
     */
    public String getQueryText() {
        String masked = maskedQueryText;
        if (masked == null) {
            String text = queryText;
            if (text == null) {
                return null;
            }
            masked = QueryMasking.mask(text);
            if (text == queryText) {
                maskedQueryText = masked;
            }
        }
        return masked;
    }

    /**
     * Sets the SQL (by the client, once an insert's statement is built).
     *
     * @param queryText the statement text as sent
     */
    public void setQueryText(String queryText) {
        this.maskedQueryText = null;
        this.queryText = queryText;
    }

    /**
     * The query_id of the (last) statement sent, or {@code null} before one was sent.
     *
     * @return the query_id, or {@code null}
     */
    public String getQueryId() {
        return queryId;
    }

    /**
     * Sets the query_id (by the client).
     *
     * @param queryId the query_id of the statement being sent
     */
    public void setQueryId(String queryId) {
        this.queryId = queryId;
    }

    /**
     * The server the operation's connection reached, or {@code null} before one was acquired.
     *
     * @return the server's host and port, or {@code null}
     */
    public Endpoint getEndpoint() {
        return endpoint;
    }

    /**
     * Sets the server reached (by the client).
     *
     * @param endpoint the server of the acquired connection; also sets the remote service address
     *                 ({@code clickhouse://host:port}) unless {@code null}
     */
    public void setEndpoint(Endpoint endpoint) {
        endpoint(endpoint);
    }

    private void endpoint(Endpoint endpoint) {
        this.endpoint = endpoint;
        if (endpoint != null) {
            setRemoteServiceAddress("clickhouse://" + (endpoint.host().indexOf(':') >= 0
                    ? "[" + endpoint.host() + "]" : endpoint.host()) + ":" + endpoint.port());
        }
    }

    /**
     * How the operation ended; {@link Outcome#UNKNOWN} while it runs.
     *
     * @return the outcome, never {@code null}
     */
    public Outcome getOutcome() {
        return outcome;
    }

    /**
     * Sets the outcome (by the client, just before the observation stops).
     *
     * @param outcome how the operation ended
     */
    public void setOutcome(Outcome outcome) {
        this.outcome = outcome;
    }

    /**
     * Rows of the data blocks the client received (queries and statements).
     *
     * @return the rows received so far, 0 for inserts and pings
     */
    public long getReturnedRows() {
        return returnedRows;
    }

    /**
     * Sets the rows received (by the client).
     *
     * @param rows the total rows of the data blocks received
     */
    public void setReturnedRows(long rows) {
        this.returnedRows = rows;
    }

    /**
     * Rows the insert sent (inserts).
     *
     * @return the rows sent so far, 0 for other operations
     */
    public long getInsertedRows() {
        return insertedRows;
    }

    /**
     * Sets the rows sent (by the client).
     *
     * @param rows the total rows sent
     */
    public void setInsertedRows(long rows) {
        this.insertedRows = rows;
    }

    /**
     * The server's Progress packets of the operation added up (all INSERT statements of an insert):
     * rows and uncompressed bytes read and written, and server-side elapsed time. {@link Progress#ZERO}
     * when the server sent none.
     *
     * @return the summed progress, never {@code null}
     */
    public Progress getProgress() {
        return progress;
    }

    /**
     * Adds a statement's progress (by the client).
     *
     * @param p the Progress to add, field by field
     */
    public void addProgress(Progress p) {
        this.progress = this.progress.plus(p);
    }

    /**
     * The server's ProfileInfo packet (rows, blocks and bytes of the result), or {@code null}.
     *
     * @return the last ProfileInfo received, or {@code null} when none was
     */
    public ProfileInfo getProfileInfo() {
        return profileInfo;
    }

    /**
     * Sets the ProfileInfo (by the client).
     *
     * @param profileInfo the ProfileInfo packet received
     */
    public void setProfileInfo(ProfileInfo profileInfo) {
        this.profileInfo = profileInfo;
    }

    /**
     * How often the statement was sent again (transparent retries and further insert attempts).
     *
     * @return the number of retries, 0 when the first attempt was the only one
     */
    public int getRetries() {
        return retries;
    }

    /** Counts a retry (by the client). */
    public void addRetry() {
        retries++;
    }

    /**
     * Time from the start of the observation to the first data block with rows, or {@code null}.
     *
     * @return the time to the first block, or {@code null} before (or without) one
     */
    public Duration getTimeToFirstBlock() {
        long n = timeToFirstBlockNanos;
        return n < 0 ? null : Duration.ofNanos(n);
    }

    /**
     * Sets the time to the first block (by the client).
     *
     * @param nanos nanoseconds from the start of the observation to the first data block with rows
     */
    public void setTimeToFirstBlockNanos(long nanos) {
        this.timeToFirstBlockNanos = nanos;
    }

    /**
     * Compressed bytes of the response's compressed frames (checksums and headers included); 0 without compression.
     *
     * @return the compressed bytes received
     */
    public long getCompressedBytesRead() {
        return compressedBytesRead;
    }

    /**
     * Bytes those frames decompressed to.
     *
     * @return the decompressed bytes of the frames received
     */
    public long getDecompressedBytesRead() {
        return decompressedBytesRead;
    }

    /**
     * Compressed bytes of the frames sent (inserts, external tables); 0 without compression.
     *
     * @return the compressed bytes sent
     */
    public long getCompressedBytesWritten() {
        return compressedBytesWritten;
    }

    /**
     * Bytes before compression of the frames sent.
     *
     * @return the uncompressed bytes of the frames sent
     */
    public long getUncompressedBytesWritten() {
        return uncompressedBytesWritten;
    }

    /**
     * Adds compression figures of one statement (by the client).
     *
     * @param compressedRead      compressed bytes of the frames received, checksums and headers included
     * @param decompressedRead    bytes those frames decompressed to
     * @param compressedWritten   compressed bytes of the frames sent
     * @param uncompressedWritten bytes before compression of the frames sent
     */
    public void addCompression(long compressedRead, long decompressedRead, long compressedWritten,
            long uncompressedWritten) {
        this.compressedBytesRead += compressedRead;
        this.decompressedBytesRead += decompressedRead;
        this.compressedBytesWritten += compressedWritten;
        this.uncompressedBytesWritten += uncompressedWritten;
    }

    /**
     * The ClickHouse server error that ended the operation (also as a cause), or {@code null}.
     *
     * @return the first {@link ClickHouseServerException} in the cause chain of {@link #getError()}, or {@code null}
     */
    public ClickHouseServerException getServerException() {
        for (Throwable t = getError(); t != null; t = t.getCause()) {
            if (t instanceof ClickHouseServerException e) {
                return e;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }

    /**
     * The timeout that ended the operation, or {@code null}.
     *
     * @return {@link #getError()} when it is a {@link ClickHouseTimeoutException} (not searched among causes), else
     *         {@code null}
     */
    public ClickHouseTimeoutException getTimeoutException() {
        return getError() instanceof ClickHouseTimeoutException t ? t : null;
    }
}
