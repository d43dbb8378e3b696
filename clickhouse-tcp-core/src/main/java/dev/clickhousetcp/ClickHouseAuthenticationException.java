package dev.clickhousetcp;

/**
 * The server rejected the credentials during the handshake (error codes 516
 * {@code AUTHENTICATION_FAILED}, 192 {@code UNKNOWN_USER}, 193 {@code WRONG_PASSWORD},
 * 195 {@code IP_ADDRESS_NOT_ALLOWED}). The message never contains the password.
 */
public class ClickHouseAuthenticationException extends ClickHouseServerException {
    private static final long serialVersionUID = 1L;

    /**
     * Wraps a server error whose code is an authentication code, keeping its code, name, message,
     * server stack trace and nested exception.
     *
     * @param e the Exception packet received during the handshake; must not be {@code null}
     */
    public ClickHouseAuthenticationException(ClickHouseServerException e) {
        super(e.code(), e.name(), e.serverMessage(), e.serverStackTrace(), e.nested());
    }

    /**
     * Whether {@code code} is one of the authentication error codes.
     *
     * @param code a ClickHouse error code, as in {@link ClickHouseServerException#code()}
     * @return {@code true} for 516, 192, 193 and 195, {@code false} for any other code
     */
    public static boolean isAuthenticationCode(int code) {
        return code == 516 || code == 192 || code == 193 || code == 195;
    }
}
