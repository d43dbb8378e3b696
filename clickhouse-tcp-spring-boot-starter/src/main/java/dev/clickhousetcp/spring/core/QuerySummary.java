package dev.clickhousetcp.spring.core;

import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.protocol.ProfileInfo;
import dev.clickhousetcp.protocol.Progress;

import org.jspecify.annotations.Nullable;

/**
 * What a block-wise query ({@link ClickHouseTcpOperations#queryBlocks(String, BlockCallback)}) reports after its
 * last block. Immutable.
 *
 * @param queryId the query's query_id
 * @param rows the rows the blocks held
 * @param progress the server's accumulated progress (rows and bytes read, elapsed time)
 * @param profileInfo the server's profile info, or {@code null} if it sent none
 * @param totals the totals row of {@code WITH TOTALS}, detached from the connection, or {@code null}
 * @param extremes the extremes of setting {@code extremes = 1}, detached, or {@code null}
 */
public record QuerySummary(String queryId, long rows, Progress progress, @Nullable ProfileInfo profileInfo,
        @Nullable Block totals, @Nullable Block extremes) {
}
