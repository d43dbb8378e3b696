package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.DecimalColumn;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Decimal(P, S) in all four widths, on both servers (18.16 prints trailing zeros, 26.7 drops them). */
@ClickHouseTest
class DecimalTypesTest {

    static final List<String> COMMON = List.of(
            "toDecimal32(1.5, 2)", "toDecimal32(-0.01, 2)", "toDecimal32(0, 4)", "toDecimal32(-999999999, 0)",
            "toDecimal32(999999.999, 3)", "toDecimal32(12.3, 0)", "CAST(-9.9 AS Decimal(2, 1))",
            "toDecimal64(1.5, 3)", "toDecimal64(-0.1, 3)", "toDecimal64(100, 2)", "toDecimal64('-999999999999999999', 0)",
            "toDecimal64('0.000000000000000001', 18)", "toDecimal64('-0.000000000000000001', 18)",
            "toDecimal128('1.10', 2)", "toDecimal128('-0.10', 2)", "toDecimal128(0, 38)",
            "toDecimal128('-9223372036854775808', 0)", "toDecimal128('-9223372036854775809', 0)",
            "CAST(100 AS Decimal(10, 2))", "CAST(NULL AS Nullable(Decimal(10, 2)))", "CAST(-2.5 AS Nullable(Decimal(18, 4)))",
            "[toDecimal32(1.5, 2), toDecimal32(-2, 2)]", "tuple(toDecimal64(3.25, 2), 'x')");

    /** 18.16's own toString garbles Decimal128 values beyond 64 bits, so these are compared on 26.7 only. */
    static final List<String> MODERN = List.of(
            "toDecimal128('-99999999999999999999999999999999999999', 0)",
            "toDecimal128('9999999999999999999.9999999999999999999', 19)", "toDecimal128('123456789012345678901234', 5)",
            "toDecimal256('12345678901234567890123456789012345678901234567890.5', 10)",
            "toDecimal256('-0.0000000001', 30)", "CAST(0 AS Decimal(76, 76))",
            "toDecimal256('-9999999999999999999999999999999999999999999999999999999999999999999999999999', 0)",
            "toDecimal256('0.5', 76)", "toDecimal256(-1, 75)", "CAST('0.5' AS Decimal(1, 1))",
            "[CAST(NULL AS Nullable(Decimal(40, 3))), 1.125]", "CAST(1.5 AS Decimal)");

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void valuesPrintLikeTheServer(ClickHouseServer.Kind kind) {
        List<String> exprs = new ArrayList<>(COMMON);
        if (kind == ClickHouseServer.Kind.MODERN) {
            exprs.addAll(MODERN);
        }
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.get(kind))) {
            assertThat(ServerTypeChecks.printMismatches(client, exprs)).isEmpty();
            List<String> many = new ArrayList<>(List.of("toDecimal64(number, 3) / 7 - 1000",
                    "toDecimal128(number, 10) * toDecimal128(-1000000000.123, 5)", "toDecimal32(number % 1000, 2) / 8"));
            if (kind == ClickHouseServer.Kind.MODERN) {
                many.add("toDecimal256(number, 20) * toDecimal256('-123456789012345678901234567890.1234', 10)");
            }
            assertThat(ServerTypeChecks.manyRowsMismatches(client, many, 20000)).isEmpty();
        }
    }

    @Test
    void bigDecimalsAndLanes() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            try (QueryResult r = client.query("SELECT toDecimal32(-1.5, 2), toDecimal64(2.125, 4), "
                    + "toDecimal128('-99999999999999999999999999999999.999999', 6), toDecimal128(-3.5, 2), "
                    + "toDecimal256('1.5', 40), CAST(1 AS Decimal(10, 2))")) {
                Block b = r.next();
                DecimalColumn d32 = (DecimalColumn) b.column(0);
                assertThat(d32.getObject(0)).isEqualTo(new BigDecimal("-1.50"));
                assertThat(d32.getBigDecimal(0).scale()).isEqualTo(2);
                assertThat(d32.getUnscaledLong(0)).isEqualTo(-150L);
                assertThat(d32.getDouble(0)).isEqualTo(-1.5);
                assertThat(d32.getLong(0)).isEqualTo(-1L);
                assertThat(d32.precision()).isEqualTo(9);
                DecimalColumn d64 = (DecimalColumn) b.column(1);
                assertThat(d64.getBigDecimal(0)).isEqualTo(new BigDecimal("2.1250"));
                DecimalColumn d128 = (DecimalColumn) b.column(2);
                assertThat(d128.unscaledFitsLong(0)).isFalse();
                BigInteger unscaled = new BigInteger("-99999999999999999999999999999999999999");
                assertThat(d128.getUnscaledLow(0)).isEqualTo(unscaled.longValue());
                assertThat(d128.getUnscaledHigh(0)).isEqualTo(unscaled.shiftRight(64).longValue());
                assertThat(d128.getUnscaledBigInteger(0)).isEqualTo(unscaled);
                assertThat(d128.getBigDecimal(0)).isEqualTo(new BigDecimal(unscaled, 6));
                assertThat(d128.getDouble(0)).isEqualTo(-1e32);
                assertThatThrownBy(() -> d128.getUnscaledLong(0)).isInstanceOf(ArithmeticException.class);
                DecimalColumn small128 = (DecimalColumn) b.column(3);
                assertThat(small128.getBigDecimal(0)).isEqualTo(new BigDecimal("-3.50"));
                assertThat(small128.getUnscaledHigh(0)).isEqualTo(-1L);
                assertThat(small128.getLong(0)).isEqualTo(-3L);
                DecimalColumn d256 = (DecimalColumn) b.column(4);
                assertThat(d256.lanes()).isEqualTo(4);
                assertThat(d256.getBigDecimal(0)).isEqualTo(new BigDecimal("1.5").setScale(40));
                assertThat(d256.getDouble(0)).isEqualTo(1.5);
                assertThat(b.column(5).type().name()).isEqualTo("Decimal(10, 2)");
                assertThat(b.column(5).getString(0)).isEqualTo("1");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void insertRoundTrips(ClickHouseServer.Kind kind) {
        ClickHouseServer server = ClickHouseServers.get(kind);
        Map<String, List<String>> types = new LinkedHashMap<>();
        types.put("Decimal(9, 2)", List.of("1.5", "-0.01", "9999999.99", "-9999999.99", "0"));
        types.put("Decimal(18, 6)", List.of("'-999999999999.999999'", "0.000001"));
        types.put("Decimal(38, 10)", List.of("'-9999999999999999999999999999.9999999999'", "'12345678901234567890.5'", "-1"));
        types.put("Decimal(10, 0)", List.of("9999999999", "-1"));
        types.put("Nullable(Decimal(12, 3))", List.of("NULL", "'-1.125'"));
        types.put("Array(Decimal(9, 4))", List.of("[1.5, -0.0001]", "[]"));
        if (kind == ClickHouseServer.Kind.MODERN) {
            types.put("Decimal(76, 20)", List.of("'-99999999999999999999999999999999999999999999999999999.99999999999999999999'",
                    "'1.00000000000000000001'"));
            types.put("Decimal(50, 0)", List.of("'-12345678901234567890123456789012345678901234567890'"));
        }
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            assertThat(ServerTypeChecks.roundTripMismatches(client, server, types)).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void javaValuesAndColumnarInsert(ClickHouseServer.Kind kind) {
        ClickHouseServer server = ClickHouseServers.get(kind);
        String t = TestClients.table("dec");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (id UInt32, a Decimal(9, 2), b Decimal(18, 4), c Decimal(38, 3)) "
                    + "ENGINE = Memory");
            try {
                client.insert(t, List.of(), List.of(
                        new Object[] {0, new BigDecimal("1.5"), 7L, "-12345678901234567890.125"},
                        new Object[] {1, 2.25, new BigDecimal("-0.0001"), new BigInteger("-99999999999999999999999999999999999")},
                        new Object[] {2, "-3", 1.1f, new BigDecimal("1E+3")}));
                String expected = kind == ClickHouseServer.Kind.MODERN
                        ? "0\t1.5\t7\t-12345678901234567890.125\n1\t2.25\t-0.0001\t-99999999999999999999999999999999999\n"
                          + "2\t-3\t1.1\t1000\n"
                        : "0\t1.50\t7.0000\t-12345678901234567890.125\n"
                          + "1\t2.25\t-0.0001\t-99999999999999999999999999999999999.000\n2\t-3.00\t1.1000\t1000.000\n";
                assertThat(server.httpQuery("SELECT * FROM " + t + " ORDER BY id FORMAT TSV")).isEqualTo(expected);
                int n = 3000;
                int[] ids = new int[n];
                List<BigDecimal> a = new ArrayList<>();
                long[] b = new long[n];
                List<String> c = new ArrayList<>();
                BigDecimal sa = BigDecimal.ZERO;
                BigDecimal sc = BigDecimal.ZERO;
                for (int i = 0; i < n; i++) {
                    ids[i] = 10 + i;
                    a.add(BigDecimal.valueOf(i * 37L - 5000, 2));
                    b[i] = i - 1500;
                    c.add(i + "." + (i % 1000));
                    sa = sa.add(a.get(i));
                    sc = sc.add(new BigDecimal(c.get(i)));
                }
                Map<String, Object> cols = new LinkedHashMap<>();
                cols.put("id", ids);
                cols.put("a", a);
                cols.put("b", b);
                cols.put("c", c);
                assertThat(client.insertColumns(t, cols)).isEqualTo(n);
                String[] got = server.httpQuery("SELECT count(), sum(a), sum(b), sum(c) FROM " + t + " WHERE id >= 10")
                        .trim().split("\t");
                assertThat(new BigDecimal(got[1])).isEqualByComparingTo(sa);
                assertThat(new BigDecimal(got[2])).isEqualByComparingTo(BigDecimal.valueOf(-1500L * n + (long) n * (n - 1) / 2));
                assertThat(new BigDecimal(got[3])).isEqualByComparingTo(sc);
                assertThatThrownBy(() -> client.insert(t, List.of(), List.<Object[]>of(new Object[] {5, new BigDecimal("1.005"), 0, 0})))
                        .isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("rounded");
                assertThatThrownBy(() -> client.insert(t, List.of(), List.<Object[]>of(new Object[] {5, 10_000_000L, 0, 0})))
                        .isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("9 significant digits");
                assertThatThrownBy(() -> client.insert(t, List.of(), List.<Object[]>of(new Object[] {5, Double.NaN, 0, 0})))
                        .isInstanceOf(ClickHouseTypeException.class);
                assertThatThrownBy(() -> client.insert(t, List.of(), List.<Object[]>of(
                        new Object[] {5, 0, 0, new BigDecimal("1E+35")})))
                        .isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("38 significant digits");
                assertThat(server.httpQuery("SELECT count() FROM " + t).trim()).isEqualTo(Integer.toString(n + 3));
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }
}
