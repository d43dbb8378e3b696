package dev.clickhousetcp.observe;

/**
 * The kind of client call an observation stands for: the value of the low cardinality key
 * {@code clickhouse.operation}.
 */
public enum ClickHouseTcpOperation {
    /**
     * A query whose result the caller reads: {@code query(...)} (blocks, objects, rows, streams),
     * {@code queryRows}, {@code forEach}, {@code stream}, {@code describe}, {@code checkSchema}.
     */
    QUERY("query"),
    /** A statement run for its effect, its response read to the end: {@code execute(...)}. */
    EXECUTE("execute"),
    /**
     * One insert call, whatever it sends: all the INSERT statements of a safe-retry insert and all
     * attempts of {@code InsertOptions.maxAttempts} belong to it.
     */
    INSERT("insert"),
    /** A native Ping/Pong round trip: {@code ping()}, {@code ping(Duration)}. */
    PING("ping");

    private final String value;

    ClickHouseTcpOperation(String value) {
        this.value = value;
    }

    /**
     * The tag value: {@code query}, {@code execute}, {@code insert} or {@code ping}.
     *
     * @return the lower-case value of {@code clickhouse.operation}
     */
    public String value() {
        return value;
    }
}
