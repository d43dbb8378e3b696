package dev.clickhousetcp.data;

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
    void goldenStatesOfTheFamilies() {
        // numbers(2)
        String rng = "1C" + HexFormat.of().formatHex("6364136223846793005 0 123459".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        assertOneState("AggregateFunction(uniq, UInt64)", "0002000000002CCBC234");
        assertOneState("AggregateFunction(uniqHLL12, Int8)", "00020001");
        assertOneState("AggregateFunction(uniqCombined, UInt64)", "0102000000002CCBC234");
        assertOneState("AggregateFunction(uniqCombined64, UInt64)", "010200000000000000002CCBC234FCBC56B4");
        assertOneState("AggregateFunction(quantile, Int8)", "00200000000000000200000000000000" + rng + "0001");
        assertOneState("AggregateFunction(quantileDeterministic, UInt8, UInt64)",
                "020000000000000002000000000000000000000000000000010000002CCBC234");
        assertOneState("AggregateFunction(quantileExact, Int16)", "0200000100");
        assertOneState("AggregateFunction(quantileExactWeighted, UInt8, UInt64)", "02000000000000000000010100000000000000");
        assertOneState("AggregateFunction(quantileTDigest, UInt64)", "02000000000000803F0000803F0000803F");
        assertOneState("AggregateFunction(quantileTiming, UInt64)", "01020000000100");
        assertOneState("AggregateFunction(quantileTimingWeighted, UInt64, UInt8)",
                "03C80000000000000000006400000000000000010064000000000000003075");
        assertOneState("AggregateFunction(anyHeavy, String)", "0200000030000000000000000000");
        assertOneState("AggregateFunction(sumKahan, UInt64)", "000000000000F03F0000000000000000");
        assertOneState("AggregateFunction(sumCount, Int8)", "010000000000000002");
        assertOneState("AggregateFunction(groupUniqArray, String)", "0201310130");
        assertOneState("AggregateFunction(topK(2), UInt8)", "0200010001010040" + "00".repeat(64));
        assertOneState("AggregateFunction(groupArrayLast(2), UInt16)", "02000001000200000000000000");
        assertOneState("AggregateFunction(1, sumMap, Array(UInt8), Array(Int8))", "02000000000000000000010100000000000000");
        assertOneState("AggregateFunction(quantileBFloat16, UInt64)", "0200000100000000000000803F0100000000000000");
        // representations: a HyperLogLog of uniqCombined(12) (UInt32 hashes) and uniqHLL12 is 2650 bytes
        assertOneState("AggregateFunction(uniqCombined(12), UInt64)", "03" + "00".repeat(2650));
        assertOneState("AggregateFunction(uniqHLL12, String)", "01" + "00".repeat(2650));
        assertOneState("AggregateFunction(uniqCombined64, String)", "03" + "00".repeat(98504));
        // a dense quantileTiming histogram: UInt64 count, then 2835 UInt64
        assertOneState("AggregateFunction(quantileTiming, UInt64)", "03A086010000000000" + "00".repeat(22680));
    }

    @Test
    void malformedFamilyStatesAreRejected() {
        for (String[] c : new String[][] {
                {"AggregateFunction(uniq, UInt64)", "00818004" + "00".repeat(65537 * 4)}, // size 65537 > UNIQUES_HASH_MAX_SIZE
                {"AggregateFunction(uniqHLL12, UInt64)", "0011" + "00".repeat(17 * 8)}, // small set of 17
                {"AggregateFunction(uniqCombined, UInt64)", "0400"}, // unknown container
                {"AggregateFunction(quantileTiming, UInt64)", "0120" + "0000".repeat(32)}, // tiny of 32
                {"AggregateFunction(quantileTiming, UInt64)", "0364000000000000000000"}, // sparse without its end
        }) {
            byte[] b = HexFormat.of().parseHex(c[1]);
            assertThatThrownBy(() -> type(c[0]).validate(b, 0, b.length)).as(c[0] + " " + c[1])
                    .isInstanceOf(ClickHouseTypeException.class);
        }
        assertThat(type("AggregateFunction(uniqCombined(21), UInt64)").isSupported()).isFalse();
        assertThat(type("AggregateFunction(sumMap, Array(UInt64), Array(UInt64))").isSupported()).isFalse();
        assertThat(type("AggregateFunction(0, sumMap, Array(UInt64), Array(UInt8))").isSupported()).isTrue();
        assertThat(type("AggregateFunction(quantilesTimingIf(0.5, 0.9), UInt64, UInt8)").isSupported()).isTrue();
        assertThat(type("AggregateFunction(groupUniqArrayIf, Nullable(String), UInt8)").isSupported()).isTrue();
    }

    @Test
    void emptyStatesOfTheFamilies() {
        String rng = HexFormat.of().formatHex("6364136223846793005 0 123459".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        assertThat(HexFormat.of().formatHex(type("AggregateFunction(uniq, Nullable(UInt64))").emptyState())).isEqualTo("010000");
        assertThat(HexFormat.of().formatHex(type("AggregateFunction(uniqCombined, Nullable(UInt64))").emptyState())).isEqualTo("00");
        assertThat(HexFormat.of().formatHex(type("AggregateFunction(uniqCombined(13), String)").emptyState())).isEqualTo("0100");
        assertThat(HexFormat.of().formatHex(type("AggregateFunction(quantile, UInt64)").emptyState()))
                .isEqualTo("00200000000000000000000000000000" + "1c" + rng);
        assertThat(HexFormat.of().formatHex(type("AggregateFunction(quantileTiming, UInt64)").emptyState())).isEqualTo("010000");
        assertThat(HexFormat.of().formatHex(type("AggregateFunction(topK, Nullable(String))").emptyState())).isEqualTo("0000");
        assertThat(HexFormat.of().formatHex(type("AggregateFunction(sumCount, Nullable(UInt64))").emptyState()))
                .isEqualTo("000000000000000000");
    }

    @Test
    void emptyStatesAndNames() {
        assertThat(HexFormat.of().formatHex(type("AggregateFunction(min, String)").emptyState())).isEqualTo("ffffffff");
        assertThat(HexFormat.of().formatHex(type("AggregateFunction(avg, Float64)").emptyState())).isEqualTo("000000000000000000");
        assertThat(HexFormat.of().formatHex(type("AggregateFunction(uniqExact, Nullable(UInt64))").emptyState())).isEqualTo("0100");
        assertThat(HexFormat.of().formatHex(type("AggregateFunction(sum, Nullable(UInt64))").emptyState())).isEqualTo("00");
        AggregateFunctionType q = type("AggregateFunction(varSamp, Float64)");
        assertThat(q.isSupported()).isFalse();
        assertThat(q.function()).isEqualTo("varSamp");
        assertThatThrownBy(q::emptyState).isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("'varSamp'");
        assertThat(type("AggregateFunction(1, sumIf, UInt64, UInt8)").isSupported()).isTrue();
    }
}
