package dev.clickhousetcp;

/**
 * The server answered with an Exception packet (wire layout per ClickHouse
 * {@code src/Core/Protocol.h}, {@code Exception} server packet: Int32 code, String name, String
 * message, String stack trace, Bool has_nested, then the nested exception).
 *
 * <p>The query is over; the connection that received it stays in a known state and may be reused.
 * {@link #code()} is ClickHouse's error code (for example 60 {@code UNKNOWN_TABLE}, 81
 * {@code UNKNOWN_DATABASE}, 62 {@code SYNTAX_ERROR}); {@link #name()} the server's exception class
 * name (for example {@code DB::Exception}).
 */
public class ClickHouseServerException extends ClickHouseException {
    private static final long serialVersionUID = 1L;

    private final int code;
    private final String name;
    private final String serverMessage;
    private final String serverStackTrace;

    public ClickHouseServerException(int code, String name, String serverMessage, String serverStackTrace,
                                     ClickHouseServerException nested) {
        this(code, name, serverMessage, serverStackTrace, nested, null);
    }

    private ClickHouseServerException(int code, String name, String serverMessage, String serverStackTrace,
                                      ClickHouseServerException nested, String clientNote) {
        super("Code: " + code + ". " + name + ": " + serverMessage + (clientNote == null ? "" : " (" + clientNote + ")"),
                nested);
        this.code = code;
        this.name = name;
        this.serverMessage = serverMessage;
        this.serverStackTrace = serverStackTrace;
    }

    /**
     * The same server error with an explanation from the client appended to {@link #getMessage()}
     * (the server's own {@link #serverMessage()} is kept as it was).
     */
    public ClickHouseServerException withClientNote(String note) {
        ClickHouseServerException e = new ClickHouseServerException(code, name, serverMessage, serverStackTrace,
                nested(), note);
        e.setStackTrace(getStackTrace());
        for (Throwable s : getSuppressed()) {
            e.addSuppressed(s);
        }
        return e;
    }

    /** ClickHouse error code, see {@code src/Common/ErrorCodes.cpp}. */
    public int code() {
        return code;
    }

    /** Server-side exception class name, for example {@code DB::Exception}. */
    public String name() {
        return name;
    }

    /** The server's message, without the code prefix. */
    public String serverMessage() {
        return serverMessage;
    }

    /** The server's stack trace text (may be empty). */
    public String serverStackTrace() {
        return serverStackTrace;
    }

    /** The nested server exception, or {@code null}. */
    public ClickHouseServerException nested() {
        return (ClickHouseServerException) getCause();
    }
}
