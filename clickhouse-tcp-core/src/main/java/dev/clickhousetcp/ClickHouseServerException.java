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

    /** ClickHouse error code; see {@link #code()}. */
    private final int code;
    /** Server-side exception class name; see {@link #name()}. */
    private final String name;
    /** The server's message without the code prefix; see {@link #serverMessage()}. */
    private final String serverMessage;
    /** The server's stack trace text; see {@link #serverStackTrace()}. */
    private final String serverStackTrace;

    /**
     * A server error as read from an Exception packet. The message is
     * {@code "Code: <code>. <name>: <serverMessage>"}.
     *
     * @param code             ClickHouse error code (Int32 on the wire)
     * @param name             server-side exception class name, for example {@code DB::Exception}
     * @param serverMessage    the server's message
     * @param serverStackTrace the server's stack trace text, possibly empty
     * @param nested           the nested exception that followed on the wire (becomes the cause), or {@code null}
     */
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
     *
     * @param note the explanation, appended in parentheses to the message
     * @return a new exception with the same code, name, server message, stack traces, nested exception and
     *         suppressed exceptions; this one is unchanged
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

    /**
     * ClickHouse error code, see {@code src/Common/ErrorCodes.cpp}.
     *
     * @return the error code, for example 60 for {@code UNKNOWN_TABLE}
     */
    public int code() {
        return code;
    }

    /**
     * Server-side exception class name.
     *
     * @return the class name, for example {@code DB::Exception}
     */
    public String name() {
        return name;
    }

    /**
     * The server's message, without the code prefix.
     *
     * @return the message as the server sent it
     */
    public String serverMessage() {
        return serverMessage;
    }

    /**
     * The server's stack trace text.
     *
     * @return the stack trace as the server sent it; may be empty
     */
    public String serverStackTrace() {
        return serverStackTrace;
    }

    /**
     * The nested server exception (also this exception's cause).
     *
     * @return the nested exception, or {@code null} if the packet had none
     */
    public ClickHouseServerException nested() {
        return (ClickHouseServerException) getCause();
    }
}
