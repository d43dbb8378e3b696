package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.ClickHouseTimeoutException.Deadline;

import java.time.Duration;

/**
 * A point in time an operation must not pass, with the deadline it comes from (for the exception that
 * names it). Immutable; {@link #NONE} has no limit.
 */
record Budget(long deadlineNanos, Deadline kind, Duration timeout) {
    /** No limit. */
    static final Budget NONE = new Budget(Long.MAX_VALUE, null, null);

    /** {@code timeout} from now, or {@link #NONE} for {@code null}. */
    static Budget of(Duration timeout, Deadline kind) {
        if (timeout == null) {
            return NONE;
        }
        long now = System.nanoTime();
        long nanos = timeout.toNanos();
        return new Budget(nanos > Long.MAX_VALUE - now ? Long.MAX_VALUE : now + nanos, kind, timeout);
    }

    boolean unlimited() {
        return deadlineNanos == Long.MAX_VALUE;
    }

    /** Nanoseconds left (0 when passed; {@link Long#MAX_VALUE} without a limit). */
    long remainingNanos() {
        if (unlimited()) {
            return Long.MAX_VALUE;
        }
        return Math.max(0, deadlineNanos - System.nanoTime());
    }

    boolean expired() {
        return !unlimited() && System.nanoTime() - deadlineNanos >= 0;
    }

    /** The earlier of the two. */
    Budget min(Budget other) {
        return other.deadlineNanos - deadlineNanos < 0 ? other : this;
    }

    /** The exception for this budget having run out during {@code what}. */
    ClickHouseTimeoutException exceeded(String what, Throwable cause) {
        return new ClickHouseTimeoutException(kind.optionName() + " " + timeout + " expired " + what, cause, kind,
                timeout);
    }
}
