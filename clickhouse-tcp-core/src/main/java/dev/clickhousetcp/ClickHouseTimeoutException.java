package dev.clickhousetcp;

import java.time.Duration;

/**
 * A client-side deadline passed: {@link #deadline()} names which one, {@link #timeout()} its
 * configured value, and the message says both (e.g. {@code queryTimeout PT0.3S}). A connection that
 * timed out mid-exchange is discarded, unless the server confirmed the cancellation of the query in
 * time (then it is reused).
 */
public class ClickHouseTimeoutException extends ClickHouseConnectionException {
    private static final long serialVersionUID = 1L;

    /** The deadlines of the client, each named as its builder or option method. */
    public enum Deadline {
        /** Establishing the TCP connection ({@code connectTimeout}). */
        CONNECT("connectTimeout"),
        /** The TLS and protocol handshake ({@code handshakeTimeout}). */
        HANDSHAKE("handshakeTimeout"),
        /** Silence on a connection while an answer is due ({@code socketTimeout}). */
        SOCKET("socketTimeout"),
        /** Waiting for, or opening, a pooled connection ({@code acquireTimeout}). */
        ACQUIRE("acquireTimeout"),
        /** The whole query or insert ({@code QueryOptions.timeout}). */
        QUERY("queryTimeout"),
        /** A ping's round trip ({@code ping(Duration)}). */
        PING("pingTimeout");

        private final String optionName;

        Deadline(String optionName) {
            this.optionName = optionName;
        }

        /**
         * The name of the option that sets this deadline.
         *
         * @return the option name, e.g. {@code acquireTimeout}
         */
        public String optionName() {
            return optionName;
        }
    }

    /** Which deadline expired; see {@link #deadline()}. */
    private final Deadline deadline;
    /** The configured value of the deadline; see {@link #timeout()}. */
    private final Duration timeout;

    /**
     * A deadline expired outside an INSERT (or before any row reached the server).
     *
     * @param message  what timed out, naming the option and its value
     * @param cause    the underlying exception (e.g. a {@code SocketTimeoutException}), or {@code null}
     * @param deadline which deadline expired
     * @param timeout  its configured value
     */
    public ClickHouseTimeoutException(String message, Throwable cause, Deadline deadline, Duration timeout) {
        this(message, cause, deadline, timeout, false, null);
    }

    /**
     * As {@link #ClickHouseTimeoutException(String, Throwable, Deadline, Duration)}, for an INSERT.
     *
     * @param message                  what timed out, naming the option and its value
     * @param cause                    the underlying exception, or {@code null}
     * @param deadline                 which deadline expired
     * @param timeout                  its configured value
     * @param insertMayHaveBeenApplied whether the INSERT may have been committed wholly or in part
     * @param deduplicationToken       the INSERT's {@code insert_deduplication_token}, or {@code null}
     */
    public ClickHouseTimeoutException(String message, Throwable cause, Deadline deadline, Duration timeout,
                                      boolean insertMayHaveBeenApplied, String deduplicationToken) {
        super(message, cause, insertMayHaveBeenApplied, deduplicationToken);
        this.deadline = deadline;
        this.timeout = timeout;
    }

    /**
     * Which deadline expired.
     *
     * @return the expired deadline
     */
    public Deadline deadline() {
        return deadline;
    }

    /**
     * The configured value of the deadline that expired.
     *
     * @return the configured timeout
     */
    public Duration timeout() {
        return timeout;
    }
}
