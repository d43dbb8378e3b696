/**
 * Bytes on the wire, below packets: little-endian primitives, VarUInt and length-prefixed strings
 * ({@link dev.clickhousetcp.io.BinaryReader}, {@link dev.clickhousetcp.io.BinaryWriter}); ClickHouse's
 * compressed frames with their CityHash128 checksums, LZ4, ZSTD or none
 * ({@link dev.clickhousetcp.io.CompressedInputStream}, {@link dev.clickhousetcp.io.CompressedOutputStream},
 * {@link dev.clickhousetcp.io.FramedReader}); and the chunked framing of newer revisions
 * ({@link dev.clickhousetcp.io.ChunkedInputStream}). Every length read from the wire is bounded before
 * memory is committed for it.
 *
 * <p>Internal: it may change in any release. Uses the exceptions of {@code dev.clickhousetcp} and no
 * other package of the client: column buffers and per-column decoding state belong to
 * {@code dev.clickhousetcp.data}, which reads through these primitives.
 */
package dev.clickhousetcp.io;
