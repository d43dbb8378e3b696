package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.ClickHouseTimeoutException.Deadline;

import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * A deadline that expired during a socket read or write, by kind. Thrown from the transport's waits
 * (as a {@link SocketTimeoutException}, so the read or write fails like any socket timeout); the
 * connection turns it into a {@link ClickHouseTimeoutException} naming the deadline.
 */
final class DeadlineExpired extends SocketTimeoutException {
    private static final long serialVersionUID = 1L;
    final transient Deadline deadline;
    final transient Duration timeout;

    DeadlineExpired(Deadline deadline, Duration timeout, String message) {
        super(message);
        this.deadline = deadline;
        this.timeout = timeout;
    }
}
