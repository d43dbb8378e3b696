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

    /** Timeouts at least this long (about 100 years) never expire. */
    private static final Duration FOREVER = Duration.ofDays(36_500);

    /** {@code timeout} from now, or {@link #NONE} for {@code null} (and for a practically endless one). */
    static Budget of(Duration timeout, Deadline kind) {
        if (timeout == null || timeout.compareTo(FOREVER) >= 0) {
            return NONE;
        }
        return new Budget(System.nanoTime() + timeout.toNanos(), kind, timeout);
    }

    /** Whether this budget has no limit. */
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
        if (other.unlimited()) {
            return this;
        }
        if (unlimited()) {
            return other;
        }
        return other.deadlineNanos - deadlineNanos < 0 ? other : this;
    }

    /** The exception for this budget having run out during {@code what}. */
    ClickHouseTimeoutException exceeded(String what, Throwable cause) {
        return new ClickHouseTimeoutException(kind.optionName() + " " + timeout + " expired " + what, cause, kind,
                timeout);
    }
}
