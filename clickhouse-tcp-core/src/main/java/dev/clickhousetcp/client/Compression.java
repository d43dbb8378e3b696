package dev.clickhousetcp.client;

import dev.clickhousetcp.io.CompressionMethod;

import java.util.Objects;

/**
 * Network compression of a query's data blocks (ClickHouse's per-query {@code compression} flag of
 * the Query packet, NativeProtocol.mdx). When enabled, the body of every Data, Totals and Extremes
 * packet (and, from protocol revision 54481, of Log, ProfileEvents and TableColumns packets) travels
 * in checksummed compressed frames in both directions; the server compresses with the method named
 * by the setting {@code network_compression_method} (and {@code network_zstd_compression_level}).
 * Frames from the server are accepted in any of the three methods regardless of the one requested,
 * so for {@link #LZ4}, the server's default, the client sends no setting; for {@link #ZSTD} and
 * {@link #CHECKSUM_ONLY} it sends {@code network_compression_method} with the query. Where the
 * settings are {@code readonly = 1} (no setting may change; ClickHouse 26.7 refuses one with code 164
 * and closes the connection, 18.16 ignores it) the client sends none: the responses then come in the
 * server's own method, the client's blocks keep this one, and the client says so once in its log
 * (INFO, per user and server). It knows of {@code readonly = 1} from the server's Hello (the user's
 * profile, servers of revision 54474 and later), from a {@code SET readonly} it ran on the connection,
 * or from the server's refusal; readonly = 1 reached another way (e.g. {@code SET profile}) fails the
 * query with code 164 and a note, and on 26.7 ends the connection. Immutable and thread-safe.
 *
 * <ul>
 *   <li>{@link #NONE}: no compression, blocks travel as plain native format (flag 0).</li>
 *   <li>{@link #LZ4}: the server's default network codec; fast, the default here too.</li>
 *   <li>{@link #ZSTD} / {@link #zstd(int)}: smaller on the wire, more CPU; level 1 like the server's
 *       default {@code network_zstd_compression_level}.</li>
 *   <li>{@link #CHECKSUM_ONLY}: frames with checksums but an uncompressed payload (ClickHouse codec
 *       {@code NONE}); needs a server with the codec framework (26.7 accepts it, 18.16 does not).</li>
 * </ul>
 *
 * <p>Compression costs CPU on both ends for fewer bytes on the wire: on loopback or a fast LAN
 * {@link #NONE} is faster. ClickHouse 18.16 that refuses a setting of the Query packet itself (an
 * unknown setting) reads the rest of that packet as packets and may drop the connection; the server's
 * error is still thrown and the connection replaced. Other errors keep the connection, compressed or not.
 */
public final class Compression {
    /** Compression off: the Query packet's compression flag is 0. */
    public static final Compression NONE = new Compression(null, 0);
    /** LZ4 frames. */
    public static final Compression LZ4 = new Compression(CompressionMethod.LZ4, 0);
    /** ZSTD frames at level 1. */
    public static final Compression ZSTD = new Compression(CompressionMethod.ZSTD, 1);
    /** Checksummed frames with uncompressed payloads (method byte 0x02). */
    public static final Compression CHECKSUM_ONLY = new Compression(CompressionMethod.NONE, 0);

    private final CompressionMethod method;
    private final int level;

    private Compression(CompressionMethod method, int level) {
        this.method = method;
        this.level = level;
    }

    /**
     * ZSTD frames at {@code level}.
     *
     * @param level 1..22, as ClickHouse's ZSTD codec accepts
     * @return the compression ({@link #ZSTD} itself for level 1)
     * @throws IllegalArgumentException for a level outside 1..22
     */
    public static Compression zstd(int level) {
        if (level < 1 || level > 22) {
            throw new IllegalArgumentException("ZSTD level must be 1..22: " + level);
        }
        return level == 1 ? ZSTD : new Compression(CompressionMethod.ZSTD, level);
    }

    /**
     * Whether blocks are framed (every value except {@link #NONE}).
     *
     * @return the value of the Query packet's compression flag
     */
    public boolean enabled() {
        return method != null;
    }

    /**
     * The frame method, or {@code null} for {@link #NONE}.
     *
     * @return the method byte's codec ({@link CompressionMethod#NONE} for {@link #CHECKSUM_ONLY}), or {@code null}
     */
    public CompressionMethod method() {
        return method;
    }

    /**
     * The ZSTD level; 0 for the other methods.
     *
     * @return the level, 1 to 22 for ZSTD, else 0
     */
    public int level() {
        return level;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Compression c && c.method == method && c.level == level;
    }

    @Override
    public int hashCode() {
        return Objects.hash(method, level);
    }

    @Override
    public String toString() {
        if (method == null) {
            return "NONE";
        }
        if (method == CompressionMethod.NONE) {
            return "CHECKSUM_ONLY";
        }
        return method == CompressionMethod.ZSTD ? "ZSTD(" + level + ")" : method.name();
    }
}
