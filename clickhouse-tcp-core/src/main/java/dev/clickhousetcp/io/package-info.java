/**
 * Bytes on the wire, below packets: little-endian primitives, VarUInt and length-prefixed strings
 * ({@link dev.clickhousetcp.io.BinaryReader}, {@link dev.clickhousetcp.io.BinaryWriter}); ClickHouse's
 * compressed frames with their CityHash128 checksums, LZ4, ZSTD or none
 * ({@link dev.clickhousetcp.io.CompressedInputStream}, {@link dev.clickhousetcp.io.CompressedOutputStream},
 * {@link dev.clickhousetcp.io.FramedReader}); and the chunked framing of newer revisions
 * ({@link dev.clickhousetcp.io.ChunkedInputStream}). Every length read from the wire is bounded before
 * memory is committed for it.
 *
 * <p>Internal: it may change in any release. Uses the exceptions of {@code dev.clickhousetcp}; its
 * readers take the block's {@code types.ReadContext} for pooled, growing column buffers. Uses no other
 * package of the client.
 */
package dev.clickhousetcp.io;
