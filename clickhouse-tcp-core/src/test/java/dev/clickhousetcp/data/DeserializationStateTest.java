package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.protocol.BlockCodec;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The prefix state a type reads and hands to its own data read: composite types carry their children's
 * states, stateless families share {@link DeserializationState#NONE}. The block was captured from
 * ClickHouse 26.7 with
 * <pre>
 * SELECT t, d FROM values('t Tuple(a Array(Variant(String, UInt64)), d Dynamic), d Dynamic',
 *     (([1, 'a', NULL], 42), 'top'), (([], 'text'), [1, 2]), ((['x', 7], [1, 2]), NULL), (([NULL], NULL), 3.5))
 * FORMAT Native
 * </pre>
 * over HTTP with {@code client_protocol_version=54488} and
 * {@code output_format_native_use_flattened_dynamic_and_json_serialization=0} (the bytes a Data packet
 * carries at that revision); the expected texts are the server's {@code toString} of each value.
 */
class DeserializationStateTest {
    private static final ZoneId UTC = ZoneId.of("UTC");
    private static final String TUPLE_TYPE = "Tuple(a Array(Variant(String, UInt64)), d Dynamic)";
    private static final String BLOCK = "010002ffffffff03000002040174325475706c6528612041727261792856617269616e74"
            + "28537472696e672c2055496e74363429292c20642044796e616d6963290000000000000000000200000000000000030c4172"
            + "7261792855496e74382906537472696e670555496e74380000000000000000030000000000000003000000000000000500"
            + "00000000000006000000000000000100ff0001ff0161017801000000000000000700000000000000030200ff0200000000"
            + "000000010204746578742a01640744796e616d6963000200000000000000030c41727261792855496e74382907466c6f61"
            + "743634" + "06537472696e6700000000000000000300ff01020000000000000001020000000000000c4003746f70";
    /**
     * Where column {@code t}'s prefix starts in {@link #BLOCK}: after the block info (10 bytes), the column
     * and row counts, the name, the type name with its length, and the custom-serialization flag.
     */
    private static final int T_PREFIX = 10 + 2 + 2 + 1 + TUPLE_TYPE.length() + 1;

    private static ReadContext ctx() {
        return new ReadContext(DecodeLimits.DEFAULT, UTC, 54488, null);
    }

    private static BinaryReader reader(byte[] bytes, int from) {
        return new BinaryReader(new ByteArrayInputStream(bytes, from, bytes.length - from), 64, 1 << 20);
    }

    private static List<String> texts(Column c) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < c.size(); i++) {
            out.add(c.getString(i));
        }
        return out;
    }

    @Test
    void arrayOfVariantInATupleNextToADynamicReadsAsTheServerPrintsIt() throws IOException {
        Block b = BlockCodec.read(reader(HexFormat.of().parseHex(BLOCK), 0), ctx(), Lifetime.FOREVER);
        assertThat(b.column(0).type().name()).isEqualTo(TUPLE_TYPE);
        assertThat(texts(b.column(0)))
                .containsExactly("([1,'a',NULL],42)", "([],'text')", "(['x',7],[1,2])", "([NULL],NULL)");
        DynamicColumn inner = (DynamicColumn) ((TupleColumn) b.column(0)).element(1);
        assertThat(Arrays.asList(inner.typeName(0), inner.typeName(1), inner.typeName(2), inner.typeName(3)))
                .containsExactly("UInt8", "String", "Array(UInt8)", null);
        DynamicColumn d = (DynamicColumn) b.column(1);
        assertThat(texts(d)).containsExactly("top", "[1,2]", null, "3.5");
        assertThat(Arrays.asList(d.typeName(0), d.typeName(1), d.typeName(2), d.typeName(3)))
                .containsExactly("String", "Array(UInt8)", null, "Float64");
    }

    @Test
    void aTupleCollectsItsElementsStatesAndTheStateIsNotConsumedByARead() throws IOException {
        byte[] bytes = HexFormat.of().parseHex(BLOCK);
        TupleType t = (TupleType) DataTypes.parse(TUPLE_TYPE, UTC);
        BinaryReader in = reader(bytes, T_PREFIX);
        DeserializationState state = t.readPrefix(in);
        assertThat(state).isNotSameAs(DeserializationState.NONE);
        DeserializationState variant = t.elementState(state, 0);
        DeserializationState dynamic = t.elementState(state, 1);
        assertThat(variant).isNotSameAs(DeserializationState.NONE).isNotSameAs(dynamic);
        assertThat(t.elements().get(0).readPrefix(reader(bytes, T_PREFIX))).isInstanceOf(variant.getClass());

        int dataStart = T_PREFIX + (int) in.bytesRead();
        List<String> first = texts(t.read(in, 4, ctx(), state));
        // the same state reads the same data again: a state describes the column, it is not a queue entry
        List<String> second = texts(t.read(reader(bytes, dataStart), 4, ctx(), state));
        assertThat(first).containsExactly("([1,'a',NULL],42)", "([],'text')", "(['x',7],[1,2])", "([NULL],NULL)");
        assertThat(second).isEqualTo(first);
    }

    @Test
    void statelessFamiliesShareTheEmptyState() throws IOException {
        for (String name : List.of("UInt64", "String", "Tuple(UInt8, String)", "Array(Nullable(String))",
                "Map(String, Array(UInt64))", "Nested(a UInt8, b String)", "Point", "Nullable(Decimal(10, 2))")) {
            DataType type = DataTypes.parse(name, UTC);
            assertThat(type.readPrefix(reader(new byte[0], 0))).as(name).isSameAs(DeserializationState.NONE);
        }
        DataType lc = DataTypes.parse("Array(LowCardinality(String))", UTC);
        assertThat(lc.readPrefix(reader(HexFormat.of().parseHex("0100000000000000"), 0)))
                .isSameAs(DeserializationState.NONE);
    }

    @Test
    void aStatefulTypeNeedsItsStateForRows() {
        for (String name : List.of("Variant(String, UInt64)", "Dynamic", "JSON", "Tuple(a Variant(String, UInt64))")) {
            DataType type = DataTypes.parse(name, UTC);
            assertThatThrownBy(() -> type.read(reader(new byte[16], 0), 1, ctx(), DeserializationState.NONE))
                    .as(name).isInstanceOf(ClickHouseProtocolException.class)
                    .hasMessageContaining("without its state prefix");
        }
    }

    @Test
    void zeroRowsNeedNoState() throws IOException {
        for (String name : List.of("Variant(String, UInt64)", "Dynamic", "JSON", TUPLE_TYPE, "Map(String, Dynamic)")) {
            Column c = DataTypes.parse(name, UTC).read(reader(new byte[0], 0), 0, ctx(), DeserializationState.NONE);
            assertThat(c.size()).as(name).isZero();
        }
    }

    @Test
    void aStateOfAnotherTypeIsRejected() throws IOException {
        byte[] bytes = HexFormat.of().parseHex(BLOCK);
        TupleType t = (TupleType) DataTypes.parse(TUPLE_TYPE, UTC);
        DeserializationState tuple = t.readPrefix(reader(bytes, T_PREFIX));
        DataType dynamic = DataTypes.parse("Dynamic", UTC);
        DataType variant = DataTypes.parse("Variant(String, UInt64)", UTC);
        assertThatThrownBy(() -> dynamic.read(reader(bytes, 0), 1, ctx(), t.elementState(tuple, 0)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Dynamic.read");
        assertThatThrownBy(() -> variant.read(reader(bytes, 0), 1, ctx(), tuple))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("another type");
        assertThatThrownBy(() -> DataTypes.parse("Tuple(UInt8, UInt8, UInt8)", UTC).read(reader(bytes, 0), 1, ctx(), tuple))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
