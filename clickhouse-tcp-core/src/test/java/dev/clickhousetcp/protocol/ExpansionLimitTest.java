package dev.clickhousetcp.protocol;

import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.BufferPool;
import dev.clickhousetcp.data.DecodeLimits;
import dev.clickhousetcp.data.Lifetime;
import dev.clickhousetcp.data.ReadContext;
import dev.clickhousetcp.data.RowObjectAccount;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Compact serializations (sparse, replicated, compact Variant discriminators) charge the dense form
 * they build against {@link DecodeLimits#maxExpansionBytes()} before building it: complete blocks of a
 * few bytes that expand to hundreds of megabytes are rejected with a
 * {@link ClickHouseProtocolException} naming the limit, having allocated little (measured with
 * {@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes}); blocks within it decode to the
 * right values. The small-heap counterpart is {@code HostileInputTest}.
 */
class ExpansionLimitTest {
    private static final long REVISION = 54488;
    /** What decoding a few bytes may allocate: the first buffers (1 MiB of bytes, 1 MiB of ints) and change. */
    private static final long BUDGET = 6L << 20;
    private static final long END_OF_GRANULE = 1L << 62;

    @FunctionalInterface
    interface Body {
        void write(BinaryWriter out) throws IOException;
    }

    private static long allocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
                .getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    /** A block body at revision 54488: BlockInfo, one column {@code x}, custom serialization {@code kind} (-1: none). */
    private static byte[] block(int rows, String type, int kind, Body data) throws IOException {
        return block(rows, type, kind < 0 ? new int[0] : new int[] {kind}, data);
    }

    /** As above, with the kind codes in the order the block header lists them (a Tuple's, then its elements'). */
    private static byte[] block(int rows, String type, int[] kinds, Body data) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        BinaryWriter out = new BinaryWriter(b, 1 << 16);
        TestBlocks.header(out, rows, type, kinds);
        data.write(out);
        out.flush();
        return b.toByteArray();
    }

    /** {@code rows} replicated rows of Array(Tuple()), each (index 0) the one array of {@code elements} elements. */
    private static byte[] replicatedEmptyTupleArrays(int rows, long elements) throws IOException {
        return block(rows, "Array(Tuple())", 4, out -> {
            out.writeVarUInt(rows);
            out.writeUInt8(1);
            out.writeBytes(new byte[rows], 0, rows);
            out.writeVarUInt(1);
            out.writeInt64(elements);
        });
    }

    private static Block decode(byte[] wire, DecodeLimits limits) throws IOException {
        BinaryReader in = new BinaryReader(new ByteArrayInputStream(wire), 64 * 1024, limits.maxStringBytes());
        ReadContext ctx = new ReadContext(limits, ZoneOffset.UTC, REVISION, new BufferPool(64L << 20));
        return BlockCodec.read(in, ctx, new Lifetime("test"));
    }

    /**
     * Decodes {@code wire} at the default limits: it must be rejected on the expansion limit, allocating
     * little beyond what arrived (replicated indexes are kept as ints: 4 bytes per 1-byte index, in
     * buffers that double; class loading on first use counts too).
     */
    private static void assertRejectedWithinBudget(byte[] wire) {
        long before = allocated();
        assertThatThrownBy(() -> decode(wire, DecodeLimits.DEFAULT))
                .isInstanceOf(ClickHouseProtocolException.class)
                .hasMessageContaining("maxExpansionBytes");
        assertThat(allocated() - before).as("bytes allocated").isLessThan(BUDGET + 16L * wire.length);
    }

    @Test
    void sixtyMillionSparseDefaultsAreRejectedBeforeTheirDenseForm() throws IOException {
        for (String type : new String[] {"UInt64", "Nullable(String)", "String", "Array(UInt8)"}) {
            assertRejectedWithinBudget(block(60_000_000, type, 1, out -> out.writeVarUInt(END_OF_GRANULE | 60_000_000)));
        }
        // a Tuple whose elements are sparse: each element is charged to the same block
        assertRejectedWithinBudget(block(30_000_000, "Tuple(UInt64, String)", new int[] {0, 1, 1}, out -> {
            out.writeVarUInt(END_OF_GRANULE | 30_000_000);
            out.writeVarUInt(END_OF_GRANULE | 30_000_000);
        }));
    }

    @Test
    void aReplicatedValueCopiedToEveryRowIsRejectedBeforeTheCopies() throws IOException {
        // 1,000,000 one-byte indexes to one 1 MiB string: 2 MiB on the wire, 1 TiB dense
        assertRejectedWithinBudget(block(1_000_000, "String", 4, out -> {
            out.writeVarUInt(1_000_000);
            out.writeUInt8(1);
            out.writeBytes(new byte[1_000_000], 0, 1_000_000);
            out.writeVarUInt(1);
            out.writeVarUInt(1 << 20);
            out.writeBytes(new byte[1 << 20], 0, 1 << 20);
        }));
        // the same value inside a Variant, and as a Map's value
        assertRejectedWithinBudget(block(1_000_000, "Variant(String, UInt64)", 4, out -> {
            out.writeInt64(0); // the Variant's prefix: basic discriminators
            out.writeVarUInt(1_000_000);
            out.writeUInt8(1);
            out.writeBytes(new byte[1_000_000], 0, 1_000_000);
            out.writeVarUInt(1);
            out.writeUInt8(0); // discriminator: String
            out.writeVarUInt(1 << 20);
            out.writeBytes(new byte[1 << 20], 0, 1 << 20);
        }));
        assertRejectedWithinBudget(block(1_000_000, "Map(String, String)", 4, out -> {
            out.writeVarUInt(1_000_000);
            out.writeUInt8(1);
            out.writeBytes(new byte[1_000_000], 0, 1_000_000);
            out.writeVarUInt(1);
            out.writeInt64(1); // one entry
            out.writeString("k");
            out.writeVarUInt(1 << 20);
            out.writeBytes(new byte[1 << 20], 0, 1 << 20);
        }));
    }

    @Test
    void replicatedArraysOfEmptyTuplesCostNoMemoryPerElement() throws IOException {
        // 10 rows, each the same Array(Tuple()) of 100,000,000 zero-width elements: 10^9 elements, no data
        byte[] wire = replicatedEmptyTupleArrays(10, 100_000_000);
        long before = allocated();
        Block b = decode(wire, DecodeLimits.DEFAULT);
        assertThat(allocated() - before).as("bytes allocated").isLessThan(BUDGET);
        dev.clickhousetcp.data.ArrayColumn a = (dev.clickhousetcp.data.ArrayColumn) b.column(0);
        assertThat(a.length(9)).isEqualTo(100_000_000);
        assertThat(a.elements().size()).isEqualTo(1_000_000_000);
        // 1,000 such rows of 200,000,000 elements exceed what one column can index: rejected, typed
        byte[] more = replicatedEmptyTupleArrays(1_000, 200_000_000);
        long before2 = allocated();
        assertThatThrownBy(() -> decode(more, DecodeLimits.DEFAULT))
                .isInstanceOf(ClickHouseProtocolException.class)
                .hasMessageContaining("elements");
        assertThat(allocated() - before2).as("bytes allocated").isLessThan(BUDGET);
    }

    @Test
    void compactDiscriminatorsForSixtyMillionRowsAreRejectedBeforeTheirDenseForm() throws IOException {
        assertRejectedWithinBudget(block(60_000_000, "Variant(String, UInt64)", -1, out -> {
            out.writeInt64(1); // compact mode
            out.writeVarUInt(60_000_000);
            out.writeUInt8(1); // compact granule
            out.writeUInt8(255); // NULL
        }));
    }

    @Test
    void anArrayOfEmptyTuplesCostsNoMemoryPerElement() throws IOException {
        byte[] wire = block(1, "Array(Tuple())", -1, out -> out.writeInt64(200_000_000));
        long before = allocated();
        Block b = decode(wire, DecodeLimits.DEFAULT);
        assertThat(allocated() - before).as("bytes allocated").isLessThan(BUDGET);
        assertThat(b.rowCount()).isEqualTo(1);
        assertThat(((dev.clickhousetcp.data.ArrayColumn) b.column(0)).length(0)).isEqualTo(200_000_000);
    }

    @Test
    void rowObjectsOfZeroWidthRowsAreBoundedByTheLimitAndRowsBackedByBytesAreNot() throws IOException {
        // the block tier reads zero-width rows and values for nothing; the row tiers are refused them
        // past the limit: 32 bytes of row objects per row and per zero-width value (a row of Tuple() is both)
        int atLimit = (int) (DecodeLimits.DEFAULT_MAX_EXPANSION_BYTES / (2 * ReadContext.ROW_OBJECT_BYTES));
        decode(block(atLimit, "Tuple()", -1, out -> { }), DecodeLimits.DEFAULT).checkRowObjects();
        Block over = decode(block(atLimit + 1, "Tuple()", -1, out -> { }), DecodeLimits.DEFAULT);
        assertThat(over.rowCount()).isEqualTo(atLimit + 1);
        assertThatThrownBy(over::checkRowObjects).isInstanceOf(ClickHouseProtocolException.class)
                .hasMessageContaining("maxExpansionBytes")
                .hasMessageContaining((atLimit + 1) + " rows");
        // zero-width values inside a row count one by one: one row of Array(Tuple()) of 200,000,000
        assertThatThrownBy(decode(block(1, "Array(Tuple())", -1, out -> out.writeInt64(200_000_000)),
                DecodeLimits.DEFAULT)::checkRowObjects).isInstanceOf(ClickHouseProtocolException.class)
                .hasMessageContaining((200_000_001L * ReadContext.ROW_OBJECT_BYTES) + " bytes of row objects");
        // values of a dense form count too: 1,000 replicated rows, each the same Array(Tuple()) of 200,000
        byte[] replicated = replicatedEmptyTupleArrays(1_000, 200_000);
        Block gathered = decode(replicated, DecodeLimits.DEFAULT);
        assertThat(((dev.clickhousetcp.data.ArrayColumn) gathered.column(0)).elements().size()).isEqualTo(200_000_000);
        assertThatThrownBy(gathered::checkRowObjects).isInstanceOf(ClickHouseProtocolException.class)
                .hasMessageContaining((200_001_000L * ReadContext.ROW_OBJECT_BYTES) + " bytes of row objects");
        // a Map of zero-width keys and values counts both, and a Nullable's nested values, a Tuple's elements
        assertThatThrownBy(decode(block(1, "Map(Tuple(), Tuple())", -1, out -> out.writeInt64(100_000_000)),
                DecodeLimits.DEFAULT)::checkRowObjects).isInstanceOf(ClickHouseProtocolException.class)
                .hasMessageContaining((200_000_001L * ReadContext.ROW_OBJECT_BYTES) + " bytes of row objects");
        // rows of one byte each are always backed: 9,000,000 rows of UInt8 (over the fixed limit)
        int rows = 9_000_000;
        Block bytes = decode(block(rows, "UInt8", -1, out -> out.writeBytes(new byte[rows], 0, rows)),
                DecodeLimits.DEFAULT);
        bytes.checkRowObjects();
        // a smaller limit bounds the zero-width rows sooner
        DecodeLimits small = DecodeLimits.DEFAULT.withMaxExpansionBytes(1 << 20);
        decode(block(1 << 14, "Tuple()", -1, out -> { }), small).checkRowObjects();
        assertThatThrownBy(decode(block((1 << 14) + 1, "Tuple()", -1, out -> { }), small)::checkRowObjects)
                .isInstanceOf(ClickHouseProtocolException.class).hasMessageContaining("maxExpansionBytes 1048576");
    }

    @Test
    void aResultKeptWholeIsBoundedOverAllItsBlocks() throws IOException {
        // blocks of 1,000,000 rows of Tuple(): 64 MB of row objects each, within what one block may build
        byte[] wire = block(1_000_000, "Tuple()", -1, out -> { });
        RowObjectAccount account = new RowObjectAccount();
        for (int i = 0; i < 4; i++) {
            account.add(decode(wire, DecodeLimits.DEFAULT));
        }
        Block fifth = decode(wire, DecodeLimits.DEFAULT);
        fifth.checkRowObjects(); // alone it is fine
        assertThatThrownBy(() -> account.add(fifth)).isInstanceOf(ClickHouseProtocolException.class)
                .hasMessageContaining("a result of 5000000 rows")
                .hasMessageContaining("maxExpansionBytes");
        // rows of one byte each never add up past it: three blocks of 9,000,000 rows of UInt8
        int rows = 9_000_000;
        byte[] bytes = block(rows, "UInt8", -1, out -> out.writeBytes(new byte[rows], 0, rows));
        RowObjectAccount backed = new RowObjectAccount();
        for (int i = 0; i < 3; i++) {
            backed.add(decode(bytes, DecodeLimits.DEFAULT));
        }
        // a block not read off the wire adds nothing
        backed.add(decode(wire, DecodeLimits.DEFAULT).copy());
    }

    @Test
    void blocksWithinTheLimitDecodeAndTheLimitIsConfigurable() throws IOException {
        // 1,000,000 rows of sparse UInt64 with a value in every 1,000th row: 12 MB dense
        byte[] wire = block(1_000_000, "UInt64", 1, out -> {
            for (int i = 0; i < 1_000; i++) {
                out.writeVarUInt(i == 0 ? 0 : 999);
            }
            out.writeVarUInt(END_OF_GRANULE | 999);
            for (int i = 0; i < 1_000; i++) {
                out.writeInt64(i * 1_000L + 7);
            }
        });
        Block b = decode(wire, DecodeLimits.DEFAULT);
        assertThat(b.rowCount()).isEqualTo(1_000_000);
        long sum = 0;
        for (int i = 0; i < b.rowCount(); i++) {
            long v = b.column(0).getLong(i);
            assertThat(v).isEqualTo(i % 1_000 == 0 ? i + 7L : 0);
            sum += v;
        }
        assertThat(sum).isEqualTo(499_500_000L + 7_000);
        // a limit below its dense form rejects it; 32 bytes per byte received (9 KiB here) do not save it
        DecodeLimits small = DecodeLimits.DEFAULT.withMaxExpansionBytes(1 << 20);
        assertThat(small.maxExpansionBytes()).isEqualTo(1 << 20);
        assertThatThrownBy(() -> decode(wire, small))
                .isInstanceOf(ClickHouseProtocolException.class)
                .hasMessageContaining("maxExpansionBytes 1048576");
        // ... unless the block's bytes received, 32 times over, cover it: a value in every 4th row
        byte[] dense = block(1_000_000, "UInt64", 1, out -> {
            for (int i = 0; i < 250_000; i++) {
                out.writeVarUInt(i == 0 ? 0 : 3);
            }
            out.writeVarUInt(END_OF_GRANULE | 3);
            for (int i = 0; i < 250_000; i++) {
                out.writeInt64(i * 4L + 1);
            }
        });
        assertThat((long) dense.length * DecodeLimits.EXPANSION_PER_BYTE_RECEIVED).isGreaterThan(12_000_000);
        Block d = decode(dense, small);
        assertThat(d.column(0).getLong(400)).isEqualTo(401);
        assertThat(d.column(0).getLong(401)).isZero();
    }

    @Test
    void theExpansionLimitMustNotBeNegativeAndTheOlderConstructorsKeepTheDefault() {
        assertThatThrownBy(() -> DecodeLimits.DEFAULT.withMaxExpansionBytes(-1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new DecodeLimits(1, 1, 1, 1, 1).maxExpansionBytes()).isEqualTo(DecodeLimits.DEFAULT_MAX_EXPANSION_BYTES);
        assertThat(new DecodeLimits(1, 1, 1, 1, 1, 1, 1, 1, 1).maxExpansionBytes())
                .isEqualTo(DecodeLimits.DEFAULT_MAX_EXPANSION_BYTES);
        assertThat(DecodeLimits.DEFAULT.withTypeNameLimits(10, 10, 10).withMaxExpansionBytes(5)
                .withTypeNameLimits(11, 11, 11).maxExpansionBytes()).isEqualTo(5);
    }
}
