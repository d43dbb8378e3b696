package dev.clickhousetcp.spring.core;

import org.jspecify.annotations.Nullable;

/**
 * Work done in one ClickHouse session, for {@link ClickHouseTcpOperations#inSession(SessionCallback)}: every call
 * made through the given operations runs on the same pinned connection, so temporary tables and {@code SET}
 * statements persist from one call to the next.
 *
 * <pre>{@code
 * long n = template.inSession((session) -> {
 *     session.execute("CREATE TEMPORARY TABLE ids (id UInt64)");
 *     session.insertColumns("ids", Map.of("id", new long[] {1, 2, 3}));
 *     session.execute("SET max_threads = 1");
 *     return session.queryForObject("SELECT count() FROM events WHERE user_id IN ids", Long.class);
 * });
 * }</pre>
 *
 * @param <T> the result type
 */
@FunctionalInterface
public interface SessionCallback<T extends @Nullable Object> {

    /**
     * Does the work.
     * @param session operations bound to the session: not thread-safe, valid only until this method returns
     * (afterwards every call throws {@code InvalidDataAccessApiUsageException}); streams it returns must be
     * consumed and closed before returning
     * @return the result, passed on by {@code inSession}
     */
    T doInSession(ClickHouseTcpOperations session);
}
