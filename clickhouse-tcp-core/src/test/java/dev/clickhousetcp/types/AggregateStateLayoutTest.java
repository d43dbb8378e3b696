package dev.clickhousetcp.types;

import dev.clickhousetcp.ClickHouseTypeException;
import org.junit.jupiter.api.Test;

import java.time.ZoneOffset;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * State layouts against golden states captured from ClickHouse 26.7
 * ({@code SELECT hex(toString(fState(...)))}): each must be accepted as exactly one state, and a byte
 * more or less must be rejected.
 */
class AggregateStateLayoutTest {

    private static AggregateFunctionType type(String name) {
        return (AggregateFunctionType) DataTypes.parse(name, ZoneOffset.UTC);
    }

    private static void assertOneState(String typeName, String hex) {
        AggregateFunctionType t = type(typeName);
        byte[] b = HexFormat.of().parseHex(hex);
        t.validate(b, 0, b.length);
        byte[] longer = java.util.Arrays.copyOf(b, b.length + 1);
        assertThatThrownBy(() -> t.validate(longer, 0, longer.length)).as(typeName + " + 1 byte")
                .isInstanceOf(ClickHouseTypeException.class);
        assertThatThrownBy(() -> t.validate(b, 0, b.length - 1)).as(typeName + " - 1 byte")
                .isInstanceOf(ClickHouseTypeException.class);
    }

    @Test
    void goldenStatesOfTheServer() {
        // numbers(2) or numbers(3) unless noted
        assertOneState("AggregateFunction(count)", "03");
        assertOneState("AggregateFunction(count)", "AC02"); // 300 rows
        assertOneState("AggregateFunction(sum, UInt64)", "0300000000000000");
        assertOneState("AggregateFunction(sum, Decimal(18, 2))", "2C010000000000000000000000000000");
        assertOneState("AggregateFunction(sum, Int256)", "01" + "00".repeat(31));
        assertOneState("AggregateFunction(sum, Nullable(Int8))", "010100000000000000");
        assertOneState("AggregateFunction(avg, UInt64)", "030000000000000003");
        assertOneState("AggregateFunction(avg, Decimal(9, 1))", "0A00000000000000000000000000000002");
        assertOneState("AggregateFunction(min, UInt64)", "010000000000000000");
        assertOneState("AggregateFunction(max, String)", "020000003200");
        assertOneState("AggregateFunction(min, Nullable(String))", "01020000003000");
        assertOneState("AggregateFunction(min, Array(UInt8))", "010100");
        assertOneState("AggregateFunction(max, Tuple(UInt64, String))", "0101000000000000000178");
        assertOneState("AggregateFunction(min, FixedString(3))", "01616200");
        assertOneState("AggregateFunction(anyLast, Int8)", "0102");
        assertOneState("AggregateFunction(uniqExact, UInt64)", "03000000000000000001000000000000000200000000000000");
        assertOneState("AggregateFunction(uniqExact, Int8)", "020001");
        assertOneState("AggregateFunction(uniqExact, String)", "01" + "AB".repeat(16));
        assertOneState("AggregateFunction(uniqExact, Nullable(UInt64))", "01020000000000000000" + "0100000000000000");
        assertOneState("AggregateFunction(groupArray, UInt64)", "03000000000000000001000000000000000200000000000000");
        assertOneState("AggregateFunction(groupArray, String)", "03013001310132");
        assertOneState("AggregateFunction(groupArray, Array(UInt64))",
                "0210010000000000000000000000000000001001000000000000000100000000000000");
        assertOneState("AggregateFunction(groupArray, Decimal(9, 2))", "0204000000000464000000");
        assertOneState("AggregateFunction(groupArray(3), UInt64)", "0200000000000000000100000000000000");
        assertOneState("AggregateFunction(groupArray, Nullable(UInt64))", "0201000000000000000300000000000000");
        assertOneState("AggregateFunction(groupArrayIf, Nullable(UInt64), UInt8)", "010100000000000000");
        assertOneState("AggregateFunction(argMin, String, UInt64)", "020000003000010000000000000000");
        assertOneState("AggregateFunction(argMax, UInt64, Float32)", "0102000000000000000100000040");
        assertOneState("AggregateFunction(argMax, String, Nullable(UInt64))", "01020000003100010100000000000000");
        assertOneState("AggregateFunction(sumIf, UInt64, UInt8)", "0200000000000000");
        assertOneState("AggregateFunction(countIf, Nullable(UInt64), UInt8)", "0101");
        assertOneState("AggregateFunction(sumArray, Array(Nullable(UInt64)))", "010100000000000000");
        assertOneState("AggregateFunction(sumOrNull, UInt64)", "010000000000000001");
    }

    @Test
    void emptyStatesAndNames() {
        assertThat(HexFormat.of().formatHex(type("AggregateFunction(min, String)").emptyState())).isEqualTo("ffffffff");
        assertThat(HexFormat.of().formatHex(type("AggregateFunction(avg, Float64)").emptyState())).isEqualTo("000000000000000000");
        assertThat(HexFormat.of().formatHex(type("AggregateFunction(uniqExact, Nullable(UInt64))").emptyState())).isEqualTo("0100");
        assertThat(HexFormat.of().formatHex(type("AggregateFunction(sum, Nullable(UInt64))").emptyState())).isEqualTo("00");
        AggregateFunctionType q = type("AggregateFunction(quantile(0.5), Float64)");
        assertThat(q.isSupported()).isFalse();
        assertThat(q.function()).isEqualTo("quantile");
        assertThatThrownBy(q::emptyState).isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("'quantile'");
        assertThat(type("AggregateFunction(1, sumIf, UInt64, UInt8)").isSupported()).isTrue();
    }
}
