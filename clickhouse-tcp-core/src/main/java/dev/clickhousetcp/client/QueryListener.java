package dev.clickhousetcp.client;

import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.protocol.ProfileInfo;
import dev.clickhousetcp.protocol.Progress;

/**
 * Receives a query's side packets as they arrive, on the thread reading the result. Every method
 * has an empty default. Blocks passed here are borrowed for the duration of the call.
 */
public interface QueryListener {
    /** A listener that ignores everything; the default of {@link QueryOptions}. */
    QueryListener NONE = new QueryListener() {
    };

    /**
     * A Progress packet (an increment; see {@link Progress}).
     *
     * @param increment the counts since the previous Progress packet of the query
     */
    default void onProgress(Progress increment) {
    }

    /**
     * The ProfileInfo packet.
     *
     * @param info the server's execution summary (rows, blocks, bytes, rows before LIMIT)
     */
    default void onProfileInfo(ProfileInfo info) {
    }

    /**
     * A ProfileEvents block: columns host_name, current_time, thread_id, type (Enum8 increment/gauge),
     * name, value.
     *
     * @param events the block, one row per counter; borrowed for this call only
     */
    default void onProfileEvents(Block events) {
    }

    /**
     * A Log block (with setting {@code send_logs_level}): columns event_time,
     * event_time_microseconds, host_name, query_id, thread_id, priority, source, text. Whatever the
     * listener does, the rows are also logged through SLF4J under the logger
     * {@code dev.clickhousetcp.server} (priority mapped to the SLF4J level).
     *
     * @param logs the block, one row per log message; borrowed for this call only
     */
    default void onLog(Block logs) {
    }
}
