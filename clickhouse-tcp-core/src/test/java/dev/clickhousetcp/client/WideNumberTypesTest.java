package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.BFloat16Column;
import dev.clickhousetcp.data.BigIntColumn;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Int128, UInt128, Int256, UInt256 and BFloat16 against ClickHouse 26.7 (18.16 has none of them). */
@ClickHouseTest
class WideNumberTypesTest {
    static final String I128_MIN = "-170141183460469231731687303715884105728";
    static final String I128_MAX = "170141183460469231731687303715884105727";
    static final String U128_MAX = "340282366920938463463374607431768211455";
    static final String I256_MIN = "-57896044618658097711785492504343953926634992332820282019728792003956564819968";
    static final String I256_MAX = "57896044618658097711785492504343953926634992332820282019728792003956564819967";
    static final String U256_MAX = "115792089237316195423570985008687907853269984665640564039457584007913129639935";

    @Test
    void valuesPrintLikeTheServer() {
        List<String> exprs = List.of(
                "toInt128('" + I128_MIN + "')", "toInt128('" + I128_MAX + "')", "toInt128(0)", "toInt128(-1)",
                "toInt128('-9223372036854775808')", "toInt128('-9223372036854775809')", "toInt128('9223372036854775808')",
                "toUInt128('" + U128_MAX + "')", "toUInt128(0)", "toUInt128('18446744073709551616')",
                "toUInt128('9223372036854775808')",
                "toInt256('" + I256_MIN + "')", "toInt256('" + I256_MAX + "')", "toInt256(-42)", "toInt256(0)",
                "toUInt256('" + U256_MAX + "')", "toUInt256(7)",
                "CAST(NULL AS Nullable(Int128))", "CAST(-5 AS Nullable(Int256))", "[toInt128(1), toInt128(-2)]",
                "[toUInt256('" + U256_MAX + "')]", "tuple(toInt128(-3), 'x')",
                "toBFloat16(1.1)", "toBFloat16(3.14159)", "toBFloat16(1e30)", "toBFloat16(-0.)", "toBFloat16(0)",
                "toBFloat16(nan)", "toBFloat16(inf)", "toBFloat16(-inf)", "toBFloat16(100000)", "toBFloat16(1e-40)",
                "toBFloat16(-2.5)", "toBFloat16(3.3895314e38)", "toBFloat16(0.1)", "toBFloat16(65504)",
                "CAST(NULL AS Nullable(BFloat16))", "[toBFloat16(0.5), toBFloat16(-1e-5)]",
                // subnormal Float32 text: shortest digits of the exact value, not of Float.toString's
                "toFloat32(9.1835e-41)", "toFloat32(3e-44)", "toFloat32(pow(2, -96))", "toFloat64(pow(2, -1000))",
                "toBFloat16(pow(2, -96))");
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            assertThat(ServerTypeChecks.printMismatches(client, exprs)).isEmpty();
            assertThat(ServerTypeChecks.manyRowsMismatches(client, List.of(
                    "toInt128(number) * toInt128('-1000000000000000000000') + number",
                    "toUInt256(number) * toUInt256('100000000000000000000000000000000000000')",
                    "toBFloat16(number / 7 - 3000)", "toBFloat16(reinterpretAsFloat32(toUInt32(number * 65537)))",
                    // Float32/Float64 text shares the shortest-digits code with BFloat16
                    "reinterpretAsFloat32(toUInt32(number * 2654435761))", "reinterpretAsFloat64(sipHash64(number))"),
                    20000)).isEmpty();
        }
    }

    @Test
    void objectsLanesAndBulkAccess() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            try (QueryResult r = client.query("SELECT toInt128('" + I128_MIN + "'), toUInt128('" + U128_MAX + "'), "
                    + "toInt256(-2), toUInt256('18446744073709551616'), toInt128(12345), toBFloat16(1.1)")) {
                Block b = r.next();
                BigIntColumn i128 = (BigIntColumn) b.column(0);
                assertThat(i128.getObject(0)).isEqualTo(new BigInteger(I128_MIN));
                assertThat(i128.getLow(0)).isZero();
                assertThat(i128.getHigh(0)).isEqualTo(Long.MIN_VALUE);
                assertThat(i128.fitsLong(0)).isFalse();
                assertThatThrownBy(() -> i128.getLong(0)).isInstanceOf(ArithmeticException.class);
                assertThat(i128.getDouble(0)).isEqualTo(-Math.pow(2, 127));
                BigIntColumn u128 = (BigIntColumn) b.column(1);
                assertThat(u128.getBigInteger(0)).isEqualTo(new BigInteger(U128_MAX));
                assertThat(u128.getLow(0)).isEqualTo(-1L);
                assertThat(u128.getHigh(0)).isEqualTo(-1L);
                BigIntColumn i256 = (BigIntColumn) b.column(2);
                assertThat(i256.lanes()).isEqualTo(4);
                assertThat(i256.getLong(0)).isEqualTo(-2L);
                assertThat(i256.getLane(0, 3)).isEqualTo(-1L);
                long[] lanes = new long[4];
                i256.copyLanesTo(lanes, 0);
                assertThat(lanes).containsExactly(-2L, -1L, -1L, -1L);
                BigIntColumn u256 = (BigIntColumn) b.column(3);
                assertThat(u256.getLane(0, 0)).isZero();
                assertThat(u256.getLane(0, 1)).isEqualTo(1L);
                assertThat(u256.getObject(0)).isEqualTo(BigInteger.ONE.shiftLeft(64));
                assertThat(((BigIntColumn) b.column(4)).getLong(0)).isEqualTo(12345L);
                BFloat16Column bf = (BFloat16Column) b.column(5);
                assertThat(bf.getFloat(0)).isEqualTo(1.09375f);
                assertThat(bf.getObject(0)).isEqualTo(1.09375f);
                assertThat(bf.getBits(0)).isEqualTo((short) 0x3F8C);
                r.drain(); // read to the end: the connection goes back to the pool clean
            }
        }
    }

    @Test
    void insertRoundTrips() {
        ClickHouseServer server = ClickHouseServers.modern();
        Map<String, List<String>> types = new LinkedHashMap<>();
        types.put("Int128", List.of("'" + I128_MIN + "'", "'" + I128_MAX + "'", "0", "-1", "'-9223372036854775809'"));
        types.put("UInt128", List.of("'" + U128_MAX + "'", "0", "'18446744073709551616'"));
        types.put("Int256", List.of("'" + I256_MIN + "'", "'" + I256_MAX + "'", "-7"));
        types.put("UInt256", List.of("'" + U256_MAX + "'", "0", "1"));
        types.put("Nullable(Int128)", List.of("NULL", "5"));
        types.put("Array(UInt256)", List.of("[1, 2]", "[]"));
        types.put("BFloat16", List.of("1.1", "-0.", "nan", "inf", "-3.3895314e38", "1e-40"));
        types.put("Array(Nullable(BFloat16))", List.of("[NULL, 2.5]"));
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            assertThat(ServerTypeChecks.roundTripMismatches(client, server, types)).isEmpty();
        }
    }

    @Test
    void javaValuesAndColumnarInsert() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("wide");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (id UInt32, a Int128, b UInt128, c Int256, d UInt256, f BFloat16) "
                    + "ENGINE = Memory");
            try {
                client.insert(t, List.of(), List.of(
                        new Object[] {0, Long.MIN_VALUE, new BigInteger(U128_MAX), "-5", 7, 1.1},
                        new Object[] {1, new BigInteger(I128_MAX), 0L, new java.math.BigDecimal("12"), (byte) 3, "inf"}));
                assertThat(server.httpQuery("SELECT a, b, c, d, f FROM " + t + " ORDER BY id FORMAT TSV")).isEqualTo(
                        "-9223372036854775808\t" + U128_MAX + "\t-5\t7\t1.09375\n"
                                + I128_MAX + "\t0\t12\t3\tinf\n");
                int n = 5000;
                int[] ids = new int[n];
                long[] longs = new long[n];
                float[] floats = new float[n];
                List<BigInteger> bigs = new ArrayList<>();
                BigInteger sumLongs = BigInteger.ZERO;
                BigInteger sumBigs = BigInteger.ZERO;
                double sumFloats = 0;
                for (int i = 0; i < n; i++) {
                    ids[i] = 10 + i;
                    longs[i] = i * 1_000_003L - 7;
                    floats[i] = i / 3f;
                    bigs.add(BigInteger.valueOf(i).shiftLeft(100));
                    sumLongs = sumLongs.add(BigInteger.valueOf(longs[i]));
                    sumBigs = sumBigs.add(bigs.get(i));
                    sumFloats += Float.intBitsToFloat(Float.floatToIntBits(floats[i]) & 0xFFFF0000);
                }
                Map<String, Object> cols = new LinkedHashMap<>();
                cols.put("id", ids);
                cols.put("a", longs);
                cols.put("b", bigs);
                cols.put("c", longs);
                cols.put("d", bigs);
                cols.put("f", floats);
                assertThat(client.insertColumns(t, cols)).isEqualTo(n);
                String[] got = server.httpQuery("SELECT count(), sum(a), sum(b), sum(c), sum(d), sum(toFloat64(f)) FROM "
                        + t + " WHERE id >= 10").trim().split("\t");
                assertThat(got[0]).isEqualTo(Integer.toString(n));
                assertThat(got[1]).isEqualTo(sumLongs.toString());
                assertThat(got[2]).isEqualTo(sumBigs.toString());
                assertThat(got[3]).isEqualTo(sumLongs.toString());
                assertThat(got[4]).isEqualTo(sumBigs.toString());
                assertThat(Double.parseDouble(got[5])).isEqualTo(sumFloats);
                assertThatThrownBy(() -> client.insert(t, List.of(), List.<Object[]>of(
                        new Object[] {2, 0, -1, 0, 0, 0}))).isInstanceOf(ClickHouseTypeException.class)
                        .hasMessageContaining("UInt128");
                assertThatThrownBy(() -> client.insert(t, List.of(), List.<Object[]>of(
                        new Object[] {2, new BigInteger(I128_MAX).add(BigInteger.ONE), 0, 0, 0, 0})))
                        .isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("out of range");
                assertThatThrownBy(() -> client.insert(t, List.of(), List.<Object[]>of(
                        new Object[] {2, 0, 0, 0, new BigInteger(U256_MAX).add(BigInteger.ONE), 0})))
                        .isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("UInt256");
                assertThatThrownBy(() -> client.insert(t, List.of(), List.<Object[]>of(
                        new Object[] {2, 1.5, 0, 0, 0, 0}))).isInstanceOf(ClickHouseTypeException.class)
                        .hasMessageContaining("not an integer");
                assertThat(server.httpQuery("SELECT count() FROM " + t).trim()).isEqualTo(Integer.toString(n + 2));
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }
}
