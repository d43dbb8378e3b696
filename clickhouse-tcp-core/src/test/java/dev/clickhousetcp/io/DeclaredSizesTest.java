package dev.clickhousetcp.io;

import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.BufferPool;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.DataType;
import dev.clickhousetcp.data.DataTypes;
import dev.clickhousetcp.data.DecodeLimits;
import dev.clickhousetcp.data.DeserializationState;
import dev.clickhousetcp.data.ReadContext;
import dev.clickhousetcp.data.TypeNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.ZoneOffset;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Sizes and counts read off the wire commit memory only as the bytes they announce arrive: each case
 * declares far more than follows, and the bytes this thread allocates until the decoder gives up
 * (the stream's end, or an early typed rejection) stay a small multiple of what was sent. Measured
 * with {@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes} (HotSpot). The small-heap
 * counterpart against a fake server is {@code HostileInputTest}.
 */
class DeclaredSizesTest {
    /** What a decoder may allocate around a few bytes of input: the first buffers (1 MiB of bytes, 1 MiB of ints) and change. */
    private static final long BUDGET = 6L << 20;

    private static long allocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
                .getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    @FunctionalInterface
    interface Decode {
        void run(BinaryReader in, ReadContext ctx) throws IOException;
    }

    /** Decodes {@code wire} (then its end); returns the bytes allocated meanwhile and what was thrown. */
    private static Throwable decode(byte[] wire, Decode decode, long[] allocatedOut) {
        BinaryReader in = new BinaryReader(new ByteArrayInputStream(wire), 64 * 1024, DecodeLimits.DEFAULT.maxStringBytes());
        ReadContext ctx = new ReadContext(DecodeLimits.DEFAULT, ZoneOffset.UTC, 54412, new BufferPool(64L << 20));
        long before = allocated();
        Throwable thrown = null;
        try {
            decode.run(in, ctx);
        } catch (Throwable t) {
            thrown = t;
        }
        allocatedOut[0] = allocated() - before;
        return thrown;
    }

    private static byte[] wire(Wire w) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            BinaryWriter out = new BinaryWriter(bytes, 4096);
            w.write(out);
            out.flush();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return bytes.toByteArray();
    }

    @FunctionalInterface
    interface Wire {
        void write(BinaryWriter out) throws IOException;
    }

    private static void assertEndsWithinBudget(String type, int rows, Wire payload) {
        long[] allocated = new long[1];
        Throwable t = decode(wire(payload), (in, ctx) -> {
            DataType parsed = DataTypes.parse(type, ZoneOffset.UTC);
            DeserializationState state = parsed.readPrefix(in); // as a block reads it: only Variant has one here
            Column c = parsed.read(in, rows, ctx, state);
            throw new AssertionError("decoded " + c.size() + " rows from a few bytes");
        }, allocated);
        assertThat(t).as(type).isInstanceOfAny(EOFException.class, ClickHouseProtocolException.class);
        assertThat(allocated[0]).as("bytes allocated decoding %s declaring %d rows", type, rows).isLessThan(BUDGET);
    }

    @ParameterizedTest
    @ValueSource(strings = {"UInt64", "Int8", "UUID", "FixedString(16)", "Nullable(Int64)", "String", "Array(UInt8)",
            "Map(String, String)", "Decimal(38, 2)", "Int256", "IPv6", "Tuple(UInt64, String)", "Variant(String, UInt64)"})
    void sixtyMillionRowsOfWhichThreeBytesArrive(String type) {
        assertEndsWithinBudget(type, 60_000_000, out -> {
            if (type.startsWith("Variant")) {
                out.writeInt64(0); // the prefix's discriminators mode, read by readPrefix in a block
            }
            out.writeBytes(new byte[3], 0, 3);
        });
    }

    @Test
    void variantColumnAfterItsPrefix() {
        long[] allocated = new long[1];
        Throwable t = decode(wire(out -> {
            out.writeInt64(0);
            out.writeBytes(new byte[3], 0, 3);
        }), (in, ctx) -> {
            var type = DataTypes.parse("Variant(String, UInt64)", ZoneOffset.UTC);
            DeserializationState state = type.readPrefix(in);
            type.read(in, 60_000_000, ctx, state);
        }, allocated);
        assertThat(t).isInstanceOf(EOFException.class);
        assertThat(allocated[0]).isLessThan(BUDGET);
    }

    @Test
    void sixtyMillionRowsOfTheEmptyTupleCostNoMemoryPerRow() {
        // zero bytes per row on the wire, and nothing per row is needed to represent them
        long[] allocated = new long[1];
        Column[] decoded = new Column[1];
        Throwable t = decode(new byte[0], (in, ctx) -> decoded[0] = DataTypes.parse("Tuple()", ZoneOffset.UTC)
                .read(in, 60_000_000, ctx, DeserializationState.NONE), allocated);
        assertThat(t).isNull();
        assertThat(decoded[0].size()).isEqualTo(60_000_000);
        assertThat(allocated[0]).isLessThan(1 << 20);
    }

    @Test
    void aStringLengthOfTwoHundredMillion() {
        assertEndsWithinBudget("String", 1, out -> {
            out.writeVarUInt(200_000_000);
            out.writeBytes(new byte[] {'a', 'b', 'c'}, 0, 3);
        });
    }

    @Test
    void arrayOffsetsEndingAtTwoHundredMillion() {
        for (String type : new String[] {"Array(String)", "Array(FixedString(4))", "Map(String, UInt64)",
                "Array(Array(UInt8))", "Array(LowCardinality(String))", "Array(Nullable(UInt8))"}) {
            assertEndsWithinBudget(type, 1, out -> {
                out.writeInt64(200_000_000);
                out.writeBytes(new byte[16], 0, 16);
            });
        }
    }

    @Test
    void lowCardinalityKeysOfSixtyMillionRows() {
        long[] allocated = new long[1];
        Throwable t = decode(wire(out -> {
            out.writeInt64(1);
            out.writeInt64(1L << 9);
            out.writeInt64(1);
            out.writeString("a");
            out.writeInt64(60_000_000);
            out.writeBytes(new byte[3], 0, 3);
        }), (in, ctx) -> {
            var type = DataTypes.parse("LowCardinality(String)", ZoneOffset.UTC);
            DeserializationState state = type.readPrefix(in);
            type.read(in, 60_000_000, ctx, state);
        }, allocated);
        assertThat(t).isInstanceOf(EOFException.class);
        assertThat(allocated[0]).isLessThan(BUDGET);
    }

    @Test
    void stringsAndBlobsOfTheReaderGrowAsTheyArrive() {
        long[] allocated = new long[1];
        byte[] w = wire(out -> {
            out.writeVarUInt(200_000_000);
            out.writeBytes(new byte[100_000], 0, 100_000);
        });
        assertThat(decode(w, (in, ctx) -> in.readString(), allocated)).isInstanceOf(EOFException.class);
        assertThat(allocated[0]).isLessThan(BUDGET);
        assertThat(decode(w, (in, ctx) -> in.readStringBytes(), allocated)).isInstanceOf(EOFException.class);
        assertThat(allocated[0]).isLessThan(BUDGET);
    }

    @Test
    void valuesThatArriveAreReadWhole() throws IOException {
        // growth keeps every byte: 3 MiB strings and a 5 MiB fixed column cross several doublings
        byte[] big = new byte[3 << 20];
        Arrays.fill(big, (byte) 'x');
        big[big.length - 1] = 'y';
        byte[] w = wire(out -> {
            out.writeVarUInt(big.length);
            out.writeBytes(big, 0, big.length);
            out.writeVarUInt(big.length);
            out.writeBytes(big, 0, big.length);
        });
        BinaryReader in = new BinaryReader(new ByteArrayInputStream(w), 4096, 1 << 30);
        assertThat(in.readString()).hasSize(big.length).endsWith("xy");
        assertThat(in.readStringBytes()).isEqualTo(big);

        ByteBuffer longs = ByteBuffer.allocate(8 * 700_000).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 700_000; i++) {
            longs.putLong(i * 3L);
        }
        ReadContext ctx = new ReadContext(DecodeLimits.DEFAULT, ZoneOffset.UTC, 54412, new BufferPool(64L << 20));
        Column c = DataTypes.parse("UInt64", ZoneOffset.UTC)
                .read(new BinaryReader(new ByteArrayInputStream(longs.array()), 4096, 1 << 20), 700_000, ctx,
                        DeserializationState.NONE);
        assertThat(c.getLong(0)).isZero();
        assertThat(c.getLong(699_999)).isEqualTo(699_999 * 3L);
    }

    @Test
    void aCompressedFrameDeclaringMoreThanItsCodecCanExpandToIsRejectedBeforeItsBytes() {
        for (int method : new int[] {0x82, 0x90}) {
            ByteBuffer head = ByteBuffer.allocate(16 + 9).order(ByteOrder.LITTLE_ENDIAN);
            head.position(16);
            head.put((byte) method).putInt(9 + 100).putInt(100 << 20); // 100 bytes claiming 100 MiB
            long[] allocated = new long[1];
            Throwable t = decode(head.array(), (in, ctx) -> new CompressedInputStream(in::readFully, 128 << 20).read(),
                    allocated);
            assertThat(t).isInstanceOf(ClickHouseProtocolException.class).hasMessageContaining("can expand");
        }
    }

    @Test
    void aCompressedFrameGrowsItsBufferAsItsBytesArrive() {
        ByteBuffer head = ByteBuffer.allocate(16 + 9 + 1000).order(ByteOrder.LITTLE_ENDIAN);
        head.position(16);
        head.put((byte) 0x82).putInt(9 + (120 << 20)).putInt(127 << 20); // 120 MiB declared, 1000 bytes sent
        long[] allocated = new long[1];
        Throwable t = decode(head.array(), (in, ctx) -> new CompressedInputStream(in::readFully, 128 << 20).read(),
                allocated);
        assertThat(t).isInstanceOf(EOFException.class);
        assertThat(allocated[0]).isLessThan(BUDGET);
    }

    @Test
    void typeNamesAreParsedWithinTheirLimits() {
        DecodeLimits limits = DecodeLimits.DEFAULT.withTypeNameLimits(10_000, 8, 100);
        StringBuilder wide = new StringBuilder("Tuple(UInt8");
        for (int i = 1; i < 101; i++) {
            wide.append(", UInt8");
        }
        assertThatThrownBy(() -> TypeNode.parse(wide + ")", limits)).isInstanceOf(ClickHouseTypeException.class)
                .hasMessageContaining("more than 100 parameters");
        assertThat(TypeNode.parse("Tuple(UInt8" + ", UInt8".repeat(99) + ")", limits).params()).hasSize(100);
        assertThatThrownBy(() -> TypeNode.parse("Array(".repeat(9) + "UInt8" + ")".repeat(9), limits))
                .hasMessageContaining("deeper than 8");
        assertThat(TypeNode.parse("Array(".repeat(7) + "UInt8" + ")".repeat(7), limits).name()).isEqualTo("Array");
        assertThatThrownBy(() -> TypeNode.parse("Enum8('" + "a".repeat(10_000) + "' = 1)", limits))
                .hasMessageContaining("exceeds the limit 10000");
        // messages quote at most 200 characters of a long name
        assertThatThrownBy(() -> TypeNode.parse("Tuple(" + "UInt8, ".repeat(5000) + "?)"))
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(400));
    }

    @Test
    void twoMillionElementTupleFailsOnItsParametersBeforeBuildingThem() {
        String name = "Tuple(UInt8" + ", UInt8".repeat(1_999_999) + ")";
        DecodeLimits longNames = DecodeLimits.DEFAULT.withTypeNameLimits(Integer.MAX_VALUE, 64, 1 << 17);
        long before = allocated();
        assertThatThrownBy(() -> DataTypes.parse(name, ZoneOffset.UTC, longNames))
                .isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("more than 131072 parameters");
        assertThat(allocated() - before).as("bytes allocated parsing").isLessThan(64L << 20);
    }

    @Test
    void typeNameLimitsMustBePositive() {
        assertThatThrownBy(() -> DecodeLimits.DEFAULT.withTypeNameLimits(0, 1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(DecodeLimits.DEFAULT.maxTypeNameBytes()).isEqualTo(1 << 20);
        assertThat(DecodeLimits.DEFAULT.maxTypeDepth()).isEqualTo(64);
        assertThat(DecodeLimits.DEFAULT.maxTypeElements()).isEqualTo(1 << 17);
    }
}
