package dev.clickhousetcp.spring.actuate.endpoint;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSession;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.Compression;
import dev.clickhousetcp.client.ConnectionConfig;
import dev.clickhousetcp.data.DecodeLimits;
import dev.clickhousetcp.io.CompressedInputStream;
import dev.clickhousetcp.io.CompressedOutputStream;
import dev.clickhousetcp.io.CompressionMethod;
import dev.clickhousetcp.protocol.ChunkedMode;

/**
 * The Java heap a {@link ClickHouseTcpClient} may hold, computed from its configuration and the buffer
 * sizes of the client's code; no connection is opened and nothing is measured.
 *
 * <p>The budget is {@code perClientBytes + maxConnections × (perConnectionBytes + perBusyConnectionBytes)}:
 * <ul>
 * <li>{@link #perClient()}: what the client keeps once, whatever its number of connections: the column
 * buffer pool its connections share (idle column arrays kept for the next blocks, at most
 * {@code connection.block-buffer-pool-size}), and, when the JVM runs G1, the rounding of its arrays to
 * whole G1 regions (an array of at least half a region occupies whole regions: up to twice its size).</li>
 * <li>{@link #perConnection()}: what every open connection keeps from its first use to its close, busy
 * or idle: the socket read and write buffers ({@code connection.buffer-size} each), the chunked framing
 * buffer when chunked framing is preferred, the TLS engine's buffers, the compression frame buffers when
 * compression is on (sized for the 1 MiB frames ClickHouse servers write), and, with G1, the rounding of
 * those buffers. {@code perClientBytes} plus their sum times {@code pool.max-size} is
 * {@link #retainedBytes()}: the most a full pool keeps between queries.</li>
 * <li>{@link #perBusyConnection()}: what one connection may allocate on top while it decodes one block,
 * as far as the decode limits ({@code clickhouse.tcp.limits.*}) bound it: {@code max-columns ×
 * max-column-size} for the block's columns and the frame buffers of a frame of {@code max-frame-size}.
 * With the default limits this bound is far above any real block (the server's blocks are
 * {@code max_block_size} rows); set the limits to make it a real bound.</li>
 * </ul>
 * {@link #notCovered()} lists what the budget leaves out. Sizes are in bytes; products that do not fit
 * a {@code long} are {@link Long#MAX_VALUE}. Immutable and thread-safe.
 *
 * @param maxConnections the pool's maximum size
 * @param perClient the buffers the client keeps once for all its connections, each term named
 * @param perClientBytes the sum of {@code perClient}
 * @param perConnection the buffers every open connection keeps, each term named
 * @param perConnectionBytes the sum of {@code perConnection}
 * @param retainedBytes {@code perClientBytes + maxConnections × perConnectionBytes}
 * @param perBusyConnection what one busy connection may add while decoding a block, bounded by the
 * decode limits
 * @param perBusyConnectionBytes the sum of {@code perBusyConnection}
 * @param budgetBytes {@code perClientBytes + maxConnections × (perConnectionBytes + perBusyConnectionBytes)}
 * @param formula the formula, in words
 * @param notCovered what the budget does not cover
 */
public record ClickHouseMemoryBudget(int maxConnections, List<Term> perClient, long perClientBytes,
        List<Term> perConnection, long perConnectionBytes,
        long retainedBytes, List<Term> perBusyConnection, long perBusyConnectionBytes, long budgetBytes,
        String formula, List<String> notCovered) {

    /** Size of the compressed frames ClickHouse servers write (and this client writes): 1 MiB. */
    static final int SERVER_FRAME_BYTES = CompressedOutputStream.DEFAULT_FRAME_BYTES;

    private static final int FRAME_PREFIX_BYTES = CompressedInputStream.CHECKSUM_BYTES
            + CompressedInputStream.HEADER_BYTES;

    /** JDK defaults of an SSLEngine's buffers, used when no SSLContext can be had. */
    private static final int TLS_PACKET_BYTES = 16709;

    private static final int TLS_APPLICATION_BYTES = 16384;

    /** Allowance for a connection's small objects (measured at about 5 KiB). */
    static final int CONNECTION_OBJECT_BYTES = 16 << 10;

    private static final String FORMULA = "perClient + pool.max-size × (perConnection + perBusyConnection)";

    private static final List<String> NOT_COVERED = List.of(
            "Results the application keeps: blocks it holds while iterating and detached columns, lists from "
                    + "queryRows and mapped objects, and the rows or objects it passes to inserts.",
            "The column writers of one insert block (insert.block-rows rows of the table's columns), allocated "
                    + "per insert call and released at its end.",
            "The server's memory (its max_memory_usage and the like).",
            "Memory outside the Java heap: the JDK's per-thread direct buffers for socket I/O, zstd-jni's and "
                    + "lz4's native state, the selector of each connection.",
            "The client's own objects (pool, housekeeping thread, mapper plans) and the classes.",
            "Frames larger than the 1 MiB ClickHouse servers write: they grow the frame buffers up to "
                    + "limits.max-frame-size (buffers over 16 MiB are dropped at the next frame).",
            "Compression chosen per query (QueryOptions.compression) when the client's compression is none: "
                    + "the frame buffers are then allocated on that connection too.");

    /**
     * Creates a budget; use {@link #of(ClickHouseTcpClient)}.
     * @param maxConnections the pool's maximum size
     * @param perClient the terms kept once per client
     * @param perClientBytes their sum
     * @param perConnection the terms per open connection
     * @param perConnectionBytes their sum
     * @param retainedBytes {@code perClientBytes + maxConnections × perConnectionBytes}
     * @param perBusyConnection the terms per busy connection
     * @param perBusyConnectionBytes their sum
     * @param budgetBytes the whole budget
     * @param formula the formula
     * @param notCovered what is not covered
     */
    public ClickHouseMemoryBudget {
        perClient = List.copyOf(perClient);
        perConnection = List.copyOf(perConnection);
        perBusyConnection = List.copyOf(perBusyConnection);
        notCovered = List.copyOf(notCovered);
    }

    /**
     * One named term of the budget.
     *
     * @param name the term's name, for example {@code socketReadBuffer}
     * @param bytes its size in bytes
     * @param basis what it is and which setting or constant of the client sizes it
     */
    public record Term(String name, long bytes, String basis) {
    }

    /**
     * Computes the budget of {@code client} from its configuration.
     * @param client the client
     * @return the budget
     */
    public static ClickHouseMemoryBudget of(ClickHouseTcpClient client) {
        Objects.requireNonNull(client, "client");
        ConnectionConfig config = client.config();
        String preference = config.preferChunked() ? "chunked_optional" : "notchunked_optional";
        boolean chunked = config.preferChunked() || client.serverHellos().values().stream().anyMatch((hello) -> {
            try {
                return ChunkedMode.negotiate(hello.chunkedSend(), preference, "receive");
            }
            catch (RuntimeException ex) {
                return false;
            }
        });
        return of(config, client.poolConfig().maxSize(), chunked);
    }

    /**
     * Computes the budget of a pool of at most {@code maxConnections} connections configured by
     * {@code config}.
     * @param config the connection configuration
     * @param maxConnections the pool's maximum size, at least 1
     * @return the budget
     * @throws IllegalArgumentException if {@code maxConnections} is below 1
     */
    public static ClickHouseMemoryBudget of(ConnectionConfig config, int maxConnections) {
        return of(config, maxConnections, config.preferChunked());
    }

    /**
     * Computes the budget of a pool of at most {@code maxConnections} connections configured by
     * {@code config}, whose server sends chunked packets or not.
     * @param config the connection configuration
     * @param maxConnections the pool's maximum size, at least 1
     * @param chunkedReceive whether packets from the server are chunked ({@code prefer-chunked}, or a
     * server that requires chunked framing)
     * @return the budget
     * @throws IllegalArgumentException if {@code maxConnections} is below 1
     */
    public static ClickHouseMemoryBudget of(ConnectionConfig config, int maxConnections, boolean chunkedReceive) {
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be at least 1: " + maxConnections);
        }
        int buffer = config.bufferSize();
        List<Term> perConnection = new ArrayList<>();
        perConnection.add(new Term("socketReadBuffer", buffer,
                "buffer of the reader over the socket: connection.buffer-size"));
        perConnection.add(new Term("socketWriteBuffer", buffer,
                "buffer of the writer over the socket: connection.buffer-size"));
        if (chunkedReceive) {
            perConnection.add(new Term("chunkedFramingBuffer", buffer,
                    "second read buffer when packets from the server are chunked (connection.prefer-chunked, "
                            + "or a server that requires chunked framing): connection.buffer-size"));
        }
        if (config.tls() != null) {
            int[] tls = tlsBufferSizes();
            perConnection.add(new Term("tlsBuffers", 2L * tls[0] + tls[1],
                    "the TLS engine's network buffers for both directions (" + tls[0]
                            + " bytes each) and its application buffer (" + tls[1] + " bytes)"));
        }
        Compression compression = config.compression();
        if (compression.enabled()) {
            perConnection.add(new Term("decompressedReader", buffer,
                    "buffer of the reader over decompressed frames: connection.buffer-size"));
            perConnection.add(new Term("compressedFrameIn",
                    Math.max(SERVER_FRAME_BYTES, CompressedInputStream.HEADER_BYTES + lz4Bound(SERVER_FRAME_BYTES)),
                    "one received frame as it arrives: header and payload of a frame of 1 MiB, at its "
                            + "largest compressed size"));
            perConnection.add(new Term("decompressedFrameIn", SERVER_FRAME_BYTES,
                    "one received frame decompressed: 1 MiB, the frame size ClickHouse servers write"));
            perConnection.add(new Term("insertFrameBuffer", CompressedOutputStream.DEFAULT_FRAME_BYTES,
                    "buffer that cuts inserted blocks into frames of 1 MiB (after the first insert)"));
            perConnection.add(new Term("compressedFrameOut",
                    FRAME_PREFIX_BYTES + bound(compression.method(), CompressedOutputStream.DEFAULT_FRAME_BYTES),
                    "one sent frame compressed with " + compression + ": checksum, header and the largest "
                            + "compressed size of 1 MiB (after the first insert)"));
        }
        perConnection.add(new Term("connectionObjects", CONNECTION_OBJECT_BYTES,
                "the connection's objects besides these buffers (socket channel and selector, server Hello, decode "
                        + "contexts, codec state): about 5 KiB measured with a ClickHouse 26.7 server, 16 KiB allowed"));
        long blockBufferPool = config.blockBufferPoolSize();
        List<Term> perClient = new ArrayList<>();
        perClient.add(new Term("blockBufferPool", blockBufferPool,
                "idle column buffers the client's connections share for the next blocks, at most " + blockBufferPool
                        + " bytes for the whole client (clickhouse.tcp.connection.block-buffer-pool-size, "
                        + "ConnectionConfig.blockBufferPoolSize)"));
        long region = g1RegionBytes();
        if (region > 0) {
            long rounding = 0;
            for (Term term : perConnection) {
                if (!term.name().equals("connectionObjects")) {
                    rounding = add(rounding, g1Occupancy(term.bytes(), region) - term.bytes());
                }
            }
            perConnection.add(new Term("g1HumongousRounding", rounding,
                    "G1 with regions of " + region + " bytes: an array of at least half a region takes whole "
                            + "regions, up to twice its size; the rounding of the buffers above"));
            perClient.add(new Term("g1HumongousRounding", blockBufferPool,
                    "G1 with regions of " + region + " bytes: the worst case for the column buffer pool's arrays "
                            + "(its cap again)"));
        }

        DecodeLimits limits = config.limits();
        List<Term> perBusy = new ArrayList<>();
        perBusy.add(new Term("largestBlock", multiply(limits.maxColumns(), limits.maxColumnBytes()),
                "one decoded block at the decode limits: limits.max-columns × limits.max-column-size"));
        perBusy.add(new Term("largestFrame",
                add(limits.maxFrameBytes(), (long) CompressedInputStream.HEADER_BYTES + lz4Bound(limits.maxFrameBytes())),
                "a received frame of limits.max-frame-size, compressed and decompressed"));

        long perClientBytes = sum(perClient);
        long perConnectionBytes = sum(perConnection);
        long perBusyBytes = sum(perBusy);
        return new ClickHouseMemoryBudget(maxConnections, perClient, perClientBytes, perConnection, perConnectionBytes,
                add(perClientBytes, multiply(maxConnections, perConnectionBytes)), perBusy, perBusyBytes,
                add(perClientBytes, multiply(maxConnections, add(perConnectionBytes, perBusyBytes))), FORMULA,
                NOT_COVERED);
    }

    /** Heap an array of {@code bytes} (plus its 16-byte header) occupies in G1 with regions of {@code region}. */
    static long g1Occupancy(long bytes, long region) {
        if (bytes < region / 2) {
            return bytes;
        }
        long withHeader = add(bytes, 16);
        return multiply((withHeader + region - 1) / region, region);
    }

    /** The G1 region size of this JVM, or 0 when it does not use G1 (or cannot tell). */
    static long g1RegionBytes() {
        try {
            boolean g1 = ManagementFactory.getGarbageCollectorMXBeans()
                .stream()
                .anyMatch((collector) -> collector.getName().startsWith("G1 "));
            if (!g1) {
                return 0;
            }
            String value = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .getVMOption("G1HeapRegionSize")
                .getValue();
            return Long.parseLong(value);
        }
        catch (RuntimeException | LinkageError ex) {
            return 0;
        }
    }

    /** {@code LZ4_COMPRESSBOUND}, as lz4-java's {@code maxCompressedLength} computes it (without its int limit). */
    private static long lz4Bound(long length) {
        return length + length / 255 + 16;
    }

    /** {@code ZSTD_COMPRESSBOUND}, as zstd-jni's {@code Zstd.compressBound} computes it. */
    private static long zstdBound(long length) {
        long small = 128 << 10;
        return length + (length >> 8) + ((length < small) ? (small - length) >> 11 : 0);
    }

    private static long bound(CompressionMethod method, int length) {
        return switch (method) {
            case NONE -> length;
            case LZ4 -> lz4Bound(length);
            case ZSTD -> zstdBound(length);
        };
    }

    /** The SSLEngine's packet and application buffer sizes, as the client's TLS transport allocates them. */
    private static int[] tlsBufferSizes() {
        try {
            SSLSession session = SSLContext.getDefault().createSSLEngine().getSession();
            return new int[] { session.getPacketBufferSize(), session.getApplicationBufferSize() };
        }
        catch (java.security.GeneralSecurityException | RuntimeException ex) {
            return new int[] { TLS_PACKET_BYTES, TLS_APPLICATION_BYTES };
        }
    }

    private static long sum(List<Term> terms) {
        long total = 0;
        for (Term term : terms) {
            total = add(total, term.bytes());
        }
        return total;
    }

    private static long add(long a, long b) {
        long r = a + b;
        return (((a ^ r) & (b ^ r)) < 0) ? Long.MAX_VALUE : r;
    }

    private static long multiply(long a, long b) {
        return (Math.multiplyHigh(a, b) != 0 || a * b < 0) ? Long.MAX_VALUE : a * b;
    }

}
