package dev.clickhousetcp.spring.core;

import java.io.Serializable;

import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseServerException;

import org.jspecify.annotations.Nullable;

/**
 * The values behind {@link ClickHouseErrorDetails}, shared by the translated exceptions.
 *
 * @param code the server's error code, or {@code -1}
 * @param name the code's name, or {@code null}
 * @param sql the statement, or {@code null}
 * @param queryId the query_id, or {@code null}
 */
record ErrorDetails(int code, @Nullable String name, @Nullable String sql, @Nullable String queryId)
        implements Serializable {

    static ErrorDetails of(ClickHouseException cause, @Nullable String sql, @Nullable String queryId) {
        if (cause instanceof ClickHouseServerException server) {
            return new ErrorDetails(server.code(), ClickHouseErrorCodes.name(server.code(), server.serverMessage()),
                    sql, queryId);
        }
        return new ErrorDetails(-1, null, sql, queryId);
    }
}
