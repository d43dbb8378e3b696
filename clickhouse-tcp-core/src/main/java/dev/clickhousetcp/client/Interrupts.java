package dev.clickhousetcp.client;

import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;

/**
 * Recognizes the client's answer to an interrupt of the calling thread, wherever the interrupt met the
 * call (waiting for a pooled connection, connecting, the handshake, sending, waiting for the server):
 * such a call was stopped by its caller, so it is observed as a cancellation and never attempted again.
 * Stateless.
 */
final class Interrupts {
    private Interrupts() {
    }

    /**
     * Whether {@code error} answers an interrupt: an {@link InterruptedException} or an
     * {@link InterruptedIOException} (not its subclass {@link SocketTimeoutException}, a timeout) in its
     * cause chain.
     *
     * @param error the exception a call ended with, or {@code null}
     * @return {@code true} when the call ended because its thread was interrupted
     */
    static boolean isInterrupt(Throwable error) {
        Throwable t = error;
        for (int depth = 0; t != null && depth < 16; depth++, t = t.getCause()) {
            if (t instanceof InterruptedException
                    || t instanceof InterruptedIOException && !(t instanceof SocketTimeoutException)) {
                return true;
            }
        }
        return false;
    }
}
