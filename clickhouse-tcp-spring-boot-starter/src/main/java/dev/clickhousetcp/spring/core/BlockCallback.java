package dev.clickhousetcp.spring.core;

import dev.clickhousetcp.data.Block;

/**
 * Handles the blocks of a query one at a time, for {@link ClickHouseTcpOperations#queryBlocks(String, BlockCallback)}:
 * the columnar tier, with typed column views over the received bytes and no per-row objects.
 *
 * <pre>{@code
 * long[] sum = new long[1];
 * template.queryBlocks("SELECT id FROM events", (block) -> {
 *     Int64Column ids = (Int64Column) block.column(0);
 *     for (int row = 0; row < block.rowCount(); row++) {
 *         sum[0] += ids.getLong(row);
 *     }
 * });
 * }</pre>
 *
 * <p>A {@link Block} is borrowed: its columns are valid only during the call and throw
 * {@code IllegalStateException} afterwards; keep data beyond it with {@code block.copy()} or
 * {@code column.copy()}. Called on the thread that runs the query, once per block with at least one row, in
 * result order. An exception thrown here stops the query (it is cancelled and its connection released) and
 * reaches the caller unchanged.
 */
@FunctionalInterface
public interface BlockCallback {

    /**
     * Handles one block.
     * @param block the block; valid only during this call
     */
    void processBlock(Block block);
}
