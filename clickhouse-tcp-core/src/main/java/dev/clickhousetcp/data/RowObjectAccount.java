package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseProtocolException;

/**
 * The row objects a row tier that keeps a whole result ({@code queryRows}, the lists of mapped and
 * {@code RowMapper} reads) builds over all its blocks, weighed against the bytes received for them as
 * {@link Block#checkRowObjects()} weighs one block's: {@link ReadContext#ROW_OBJECT_BYTES} per row and per
 * value of a zero-width column, at most {@link DecodeLimits#maxExpansionBytes()} in all, or
 * {@link DecodeLimits#EXPANSION_PER_BYTE_RECEIVED} bytes per byte received when that is more. So a server
 * cannot make the client keep more objects than the bytes it sent back by spreading rows of no bytes over
 * many blocks. Results of at least one byte per row and value are always within it. One account per
 * result; not thread-safe.
 */
public final class RowObjectAccount {
    private long rowObjectBytes;
    private long receivedBytes;
    private long rows;

    /** An empty account, for one result. */
    public RowObjectAccount() {
    }

    /**
     * Adds {@code block} to the account before its rows are built; a block not read off the wire (a copy,
     * a block built by the caller) adds nothing.
     *
     * @param block the next block of the result
     * @throws ClickHouseProtocolException naming {@code maxExpansionBytes} when this block alone, or the
     *         result so far with it, needs more row objects than its bytes allow; nothing of the block is
     *         built then
     */
    public void add(Block block) {
        block.checkRowObjects();
        if (block.maxExpansionBytes() == Long.MAX_VALUE) {
            return;
        }
        rowObjectBytes = saturatedAdd(rowObjectBytes, block.rowObjectBytes());
        receivedBytes = saturatedAdd(receivedBytes, block.receivedBytes());
        rows += block.rowCount();
        String refusal = ReadContext.overAllowance(rowObjectBytes, receivedBytes, block.maxExpansionBytes(),
                "a result of " + rows + " rows kept whole needs", "bytes of row objects ("
                        + ReadContext.ROW_OBJECT_BYTES + " per row and per zero-width value)");
        if (refusal != null) {
            throw new ClickHouseProtocolException(refusal);
        }
    }

    private static long saturatedAdd(long a, long b) {
        long r = a + b;
        return r < 0 ? Long.MAX_VALUE : r;
    }
}
