package dev.clickhousetcp;

/**
 * The server rejected the credentials during the handshake (error codes 516
 * {@code AUTHENTICATION_FAILED}, 192 {@code UNKNOWN_USER}, 193 {@code WRONG_PASSWORD},
 * 195 {@code IP_ADDRESS_NOT_ALLOWED}). The message never contains the password.
 */
public class ClickHouseAuthenticationException extends ClickHouseServerException {
    private static final long serialVersionUID = 1L;

    public ClickHouseAuthenticationException(ClickHouseServerException e) {
        super(e.code(), e.name(), e.serverMessage(), e.serverStackTrace(), e.nested());
    }

    /** Whether {@code code} is one of the authentication error codes. */
    public static boolean isAuthenticationCode(int code) {
        return code == 516 || code == 192 || code == 193 || code == 195;
    }
}
