package dev.clickhousetcp.protocol;

import dev.clickhousetcp.io.BinaryReader;

import java.io.IOException;

/**
 * A Progress packet: increments since the previous Progress of the same query (the server resets
 * its counters on each send), field order per ClickHouse {@code src/IO/Progress.cpp} and
 * NativeProtocol.mdx. Accumulate with {@link #plus(Progress)}.
 *
 * @param readRows          rows read
 * @param readBytes         uncompressed bytes read
 * @param totalRowsToRead   increment of the estimated rows to read
 * @param totalBytesToRead  increment of the estimated bytes to read (revision 54463+)
 * @param writtenRows       rows written (54420+)
 * @param writtenBytes      bytes written (54420+)
 * @param elapsedNanos      server time elapsed, nanoseconds (54460+)
 */
public record Progress(long readRows, long readBytes, long totalRowsToRead, long totalBytesToRead,
                       long writtenRows, long writtenBytes, long elapsedNanos) {

    /** No progress: every field 0; the start value for accumulating with {@link #plus(Progress)}. */
    public static final Progress ZERO = new Progress(0, 0, 0, 0, 0, 0, 0);

    /**
     * Reads a Progress packet body (after the packet type).
     *
     * @param in       the connection's reader, positioned after the packet type
     * @param revision the negotiated revision; fields absent at it are 0
     * @return the increments carried by this packet
     * @throws IOException when reading fails or the stream ends
     */
    public static Progress read(BinaryReader in, long revision) throws IOException {
        long rows = in.readVarUInt();
        long bytes = in.readVarUInt();
        long totalRows = in.readVarUInt();
        long totalBytes = ProtocolFeature.TOTAL_BYTES_IN_PROGRESS.in(revision) ? in.readVarUInt() : 0;
        long wRows = 0;
        long wBytes = 0;
        if (ProtocolFeature.CLIENT_WRITE_INFO.in(revision)) {
            wRows = in.readVarUInt();
            wBytes = in.readVarUInt();
        }
        long elapsed = ProtocolFeature.SERVER_QUERY_TIME_IN_PROGRESS.in(revision) ? in.readVarUInt() : 0;
        return new Progress(rows, bytes, totalRows, totalBytes, wRows, wBytes, elapsed);
    }

    /**
     * Field-wise sum.
     *
     * @param o the progress to add (not {@code null})
     * @return a new Progress with each field the sum of this one's and {@code o}'s
     */
    public Progress plus(Progress o) {
        return new Progress(readRows + o.readRows, readBytes + o.readBytes, totalRowsToRead + o.totalRowsToRead,
                totalBytesToRead + o.totalBytesToRead, writtenRows + o.writtenRows, writtenBytes + o.writtenBytes,
                elapsedNanos + o.elapsedNanos);
    }
}
