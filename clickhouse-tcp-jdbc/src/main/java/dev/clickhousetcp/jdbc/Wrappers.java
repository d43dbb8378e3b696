package dev.clickhousetcp.jdbc;

import java.sql.SQLException;

/** {@link java.sql.Wrapper#unwrap} and {@link java.sql.Wrapper#isWrapperFor} over an object and what it wraps. */
final class Wrappers {
    private Wrappers() {
    }

    /**
     * The first candidate that is an {@code iface} ({@code null} candidates skipped).
     *
     * @throws SQLException when none is
     */
    static <T> T unwrap(Class<T> iface, Object... candidates) throws SQLException {
        for (Object c : candidates) {
            if (iface.isInstance(c)) {
                return iface.cast(c);
            }
        }
        throw new SQLException("not a wrapper for " + iface.getName(), "HY000");
    }

    static boolean isWrapperFor(Class<?> iface, Object... candidates) {
        for (Object c : candidates) {
            if (iface.isInstance(c)) {
                return true;
            }
        }
        return false;
    }
}
