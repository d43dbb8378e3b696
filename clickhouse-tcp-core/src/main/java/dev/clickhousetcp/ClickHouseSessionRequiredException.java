package dev.clickhousetcp;

/**
 * A statement that changes the state of the server session of the connection running it ({@code USE},
 * {@code SET}, {@code SET ROLE}, {@code SET TRANSACTION SNAPSHOT}, {@code CREATE TEMPORARY TABLE},
 * {@code BEGIN TRANSACTION}, {@code EXECUTE AS user} without a statement) was given to the pooled client,
 * outside a session. Over the native protocol that state lives on the TCP connection (ClickHouse keeps one
 * session per connection, src/Server/TCPHandler.cpp), so such a statement would change only the pooled
 * connection that happened to run it, and the next borrower of that connection would inherit it. It is
 * refused before anything is sent or a connection is borrowed: run it in a session
 * ({@code ClickHouseTcpClient.openSession()}), or use the per-query form the message names
 * ({@code QueryOptions.database}, {@code QueryOptions.setting}). Spring's exception translation makes it
 * an {@code InvalidDataAccessApiUsageException}.
 */
public class ClickHouseSessionRequiredException extends ClickHouseException {
    private static final long serialVersionUID = 1L;

    /** The statement's kind; see {@link #statement()}. */
    private final String statement;

    /**
     * An exception naming the kind of statement and what to use instead.
     *
     * @param statement the statement's kind, for example {@code USE} or {@code SET ROLE}
     * @param message   why it is refused and what to use instead
     */
    public ClickHouseSessionRequiredException(String statement, String message) {
        super(message);
        this.statement = statement;
    }

    /**
     * The kind of the refused statement.
     *
     * @return its leading keywords, upper case: {@code USE}, {@code SET}, {@code SET ROLE},
     *         {@code SET TRANSACTION SNAPSHOT}, {@code CREATE TEMPORARY TABLE}, {@code BEGIN TRANSACTION} or
     *         {@code EXECUTE AS}
     */
    public String statement() {
        return statement;
    }
}
