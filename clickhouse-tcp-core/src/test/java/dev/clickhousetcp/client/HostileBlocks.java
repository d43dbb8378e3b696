package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.BufferPool;
import dev.clickhousetcp.data.DecodeLimits;
import dev.clickhousetcp.data.Lifetime;
import dev.clickhousetcp.data.ReadContext;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;
import dev.clickhousetcp.protocol.BlockCodec;
import dev.clickhousetcp.protocol.TestBlocks;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.ZoneOffset;

/**
 * Blocks in the compact serializations that ClickHouse sends only at revisions with custom
 * serializations (54454 and later: sparse from 54465, replicated from 54482), complete and valid on
 * the wire, whose dense form is far larger than their bytes. The {@code FakeServer} of the test
 * support answers with the 18.16 Hello (revision 54412), at which a server cannot send them, so these
 * are decoded in memory at revision 54488 (ClickHouse 26.7), block body only, by
 * {@link BlockCodec#read} with the default {@code DecodeLimits} and a buffer pool, as a connection
 * does.
 *
 * <p>{@link #main} decodes one and prints {@code OK <exception class> <millis> 0 <message>} or
 * {@code FAIL <what happened>}, in the format of {@link HostilePayloads#main}; {@link HostileInputTest}
 * runs it in a JVM of its own with {@code -Xmx256m}.
 */
public enum HostileBlocks {
    /** 60,000,000 rows of sparse UInt64, all of them defaults: 9 bytes of data, 720 MB dense (value and row index). */
    SPARSE_UINT64_DEFAULTS(out -> {
        TestBlocks.header(out, 60_000_000, "UInt64", 1);
        out.writeVarUInt((1L << 62) | 60_000_000); // 60 M defaults, then the end of the granule
    }),
    /** 60,000,000 rows of sparse Nullable(String), all NULL: 9 bytes of data, a null map, offsets and row indexes. */
    SPARSE_NULLABLE_STRING_DEFAULTS(out -> {
        TestBlocks.header(out, 60_000_000, "Nullable(String)", 1);
        out.writeVarUInt((1L << 62) | 60_000_000);
    }),
    /**
     * 1,000,000 rows of replicated String, each an index (one byte) to the same 1 MiB value: 2 MiB on
     * the wire, 1 TiB dense.
     */
    REPLICATED_STRING(out -> {
        TestBlocks.header(out, 1_000_000, "String", 4);
        out.writeVarUInt(1_000_000);
        out.writeUInt8(1); // index width
        byte[] zeros = new byte[1_000_000];
        out.writeBytes(zeros, 0, zeros.length);
        out.writeVarUInt(1); // one element
        byte[] value = new byte[1 << 20];
        out.writeVarUInt(value.length);
        out.writeBytes(value, 0, value.length);
    });

    /** The revision these blocks are written at: ClickHouse 26.7's. */
    static final long REVISION = 54488;

    @FunctionalInterface
    interface Body {
        void write(BinaryWriter out) throws IOException;
    }

    final Body body;

    HostileBlocks(Body body) {
        this.body = body;
    }

    /** The block body's bytes. */
    byte[] bytes() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        BinaryWriter out = new BinaryWriter(b, 1 << 16);
        body.write(out);
        out.flush();
        return b.toByteArray();
    }

    /** Decodes the block named by {@code args[0]} and prints the outcome line. */
    public static void main(String[] args) throws Exception {
        HostileBlocks block = valueOf(args[0]);
        byte[] wire = block.bytes();
        String line;
        long start = System.nanoTime();
        try {
            BinaryReader in = new BinaryReader(new ByteArrayInputStream(wire), 64 * 1024,
                    DecodeLimits.DEFAULT.maxStringBytes());
            ReadContext ctx = new ReadContext(DecodeLimits.DEFAULT, ZoneOffset.UTC, REVISION, new BufferPool(64L << 20));
            Block b = BlockCodec.read(in, ctx, new Lifetime("hostile"));
            line = "FAIL decoded " + b.rowCount() + " rows";
        } catch (ClickHouseException e) {
            long millis = (System.nanoTime() - start) / 1_000_000;
            line = "OK " + e.getClass().getName() + " " + millis + " 0 " + String.valueOf(e.getMessage()).replace('\n', ' ');
        } catch (Throwable t) {
            line = "FAIL " + t;
        }
        System.out.println(line);
        System.out.flush();
        System.exit(0);
    }
}
