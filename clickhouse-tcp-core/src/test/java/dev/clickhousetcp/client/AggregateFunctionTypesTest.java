package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.AggregateFunctionColumn;
import dev.clickhousetcp.data.AggregateFunctionType;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * AggregateFunction states: read with this client, inserted back through it, then finalized and merged
 * by the server, which must give the same results as the original states.
 */
@ClickHouseTest
class AggregateFunctionTypesTest {
    static final String SOURCE = "(SELECT number % 3 AS k, number FROM numbers(100))";

    /** merge function (with parameters) -> state expression over {@code number}. */
    static Map<String, String> common() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("countMerge", "countState()");
        m.put("countMerge ", "countState(number)");
        m.put("countMerge  ", "countState(if(number % 2 = 1, number, NULL))");
        m.put("sumMerge", "sumState(number)");
        m.put("sumMerge ", "sumState(toInt8(number) - 50)");
        m.put("sumMerge  ", "sumState(toFloat32(number) / 3)");
        m.put("sumMerge   ", "sumState(toDecimal32(number, 2))");
        m.put("sumMerge    ", "sumState(toNullable(number))");
        m.put("avgMerge", "avgState(number)");
        m.put("avgMerge ", "avgState(toDecimal64(number, 3))");
        m.put("avgMerge  ", "avgState(toFloat64(number) / 7)");
        m.put("minMerge", "minState(number)");
        m.put("maxMerge", "maxState(toString(number))");
        m.put("minMerge ", "minState(toNullable(toString(number)))");
        m.put("minMerge  ", "minState(CAST(NULL AS Nullable(UInt8)))");
        m.put("maxMerge ", "maxState(if(number > 1000, toString(number), NULL))");
        m.put("anyMerge", "anyState(toDate('2020-01-01') + number)");
        m.put("anyLastMerge", "anyLastState(toInt16(number) * -3)");
        m.put("minMerge   ", "minState([number, 1])");
        m.put("maxMerge  ", "maxState(tuple(number, toString(number)))");
        m.put("minMerge    ", "minState(toFixedString(toString(number), 3))");
        m.put("maxMerge   ", "maxState(toDecimal128(number, 5))");
        m.put("minMerge     ", "minState(CAST(number % 3 AS Enum8('a' = 0, 'b' = 1, 'c' = 2)))");
        m.put("argMinMerge", "argMinState(toString(number), number)");
        m.put("argMaxMerge", "argMaxState(number, toFloat32(number))");
        m.put("argMaxMerge ", "argMaxState(toString(number), toNullable(number))");
        m.put("uniqExactMerge", "uniqExactState(number)");
        m.put("uniqExactMerge ", "uniqExactState(toString(number))");
        m.put("uniqExactMerge  ", "uniqExactState(toInt8(number % 7))");
        m.put("uniqExactMerge   ", "uniqExactState(number % 10, toString(number % 4))");
        m.put("uniqExactMerge    ", "uniqExactState(toDecimal32(number, 1))");
        m.put("uniqExactMerge     ", "uniqExactState(toNullable(number))");
        m.put("groupArrayMerge", "groupArrayState(number)");
        m.put("groupArrayMerge ", "groupArrayState(toString(number))");
        m.put("groupArrayMerge(3)", "groupArrayState(3)(number)");
        m.put("groupArrayMerge  ", "groupArrayState([number, 7])");
        m.put("groupArrayMerge   ", "groupArrayState(if(number % 2 = 1, number, NULL))");
        m.put("groupArrayMerge    ", "groupArrayState(toDecimal32(number, 2))");
        m.put("groupArrayMerge     ", "groupArrayState(toDate('2020-01-01') + number)");
        m.put("sumIfMerge", "sumIfState(number, number > 10)");
        m.put("countIfMerge", "countIfState(number > 50)");
        m.put("avgIfMerge", "avgIfState(number, number % 2 = 0)");
        m.put("uniqExactIfMerge", "uniqExactIfState(toString(number), number < 5)");
        m.put("argMaxIfMerge", "argMaxIfState(number, number, number < 10)");
        m.put("sumIfMerge ", "sumIfState(toNullable(number), number > 0)");
        m.put("countIfMerge ", "countIfState(toNullable(number), number > 0)");
        m.put("groupArrayIfMerge", "groupArrayIfState(toNullable(number), number > 90)");
        m.put("sumArrayMerge", "sumArrayState([number, 1])");
        m.put("countArrayMerge", "countArrayState([number])");
        m.put("sumArrayMerge ", "sumArrayState([toNullable(number)])");
        return m;
    }

    static Map<String, String> modernOnly() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("sumMerge", "sumState(toInt128(number) * toInt128('1000000000000000000000'))");
        m.put("sumMerge ", "sumState(toDecimal256(number, 30))");
        m.put("sumMerge  ", "sumState(toBFloat16(number))");
        m.put("avgMerge", "avgState(toInt256(number))");
        m.put("anyLastMerge", "anyLastState(toUUID(concat('00000000-0000-0000-0000-0000000000', leftPad(toString(number), 2, '0'))))");
        m.put("maxMerge", "maxState(toDateTime64(number, 3, 'UTC'))");
        m.put("minMerge", "minState(toLowCardinality(toString(number)))");
        m.put("minMerge ", "minState(toIPv6(toIPv4(number)))");
        m.put("maxMerge ", "maxState(CAST((number, -1) AS Point))");
        m.put("uniqExactMerge", "uniqExactState(toDate32(number))");
        m.put("uniqExactMerge ", "uniqExactState(toIPv4(number))");
        m.put("uniqExactMerge  ", "uniqExactState(toBFloat16(number))");
        m.put("groupArrayMerge", "groupArrayState(toTime(number))");
        m.put("groupArrayMerge ", "groupArrayState(toUInt128(number))");
        m.put("groupArrayMerge  ", "groupArrayState(map(toString(number), number))");
        m.put("sumOrNullMerge", "sumOrNullState(number)");
        m.put("sumOrDefaultMerge", "sumOrDefaultState(number)");
        m.put("minOrNullMerge", "minOrNullState(if(number > 1000, number, 0))");
        return m;
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void statesRoundTripThroughTheClient(ClickHouseServer.Kind kind) {
        ClickHouseServer server = ClickHouseServers.get(kind);
        List<Map.Entry<String, String>> cases = new ArrayList<>(common().entrySet());
        if (kind == ClickHouseServer.Kind.MODERN) {
            cases.addAll(modernOnly().entrySet());
        }
        List<String> failures = new ArrayList<>();
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            int i = 0;
            for (Map.Entry<String, String> c : cases) {
                String merge = c.getKey().trim();
                String state = c.getValue();
                String grouped = "(SELECT k, " + state + " AS s FROM " + SOURCE + " GROUP BY k)";
                String dst = TestClients.table("agg" + i++);
                try {
                    List<Object[]> rows = new ArrayList<>();
                    String type;
                    try (QueryResult r = client.query("SELECT k, s FROM " + grouped + " ORDER BY k")) {
                        type = null;
                        for (Block b : r) {
                            type = b.column(1).type().name();
                            AggregateFunctionColumn col = (AggregateFunctionColumn) b.column(1);
                            for (int row = 0; row < b.rowCount(); row++) {
                                rows.add(new Object[] {b.column(0).getObject(row), col.getObject(row)});
                            }
                        }
                    }
                    assertThat(rows).as(state).hasSize(3);
                    client.execute("CREATE TABLE " + dst + " (k UInt8, s " + type + ") ENGINE = Memory");
                    client.insert(dst, List.of("k", "s"), rows);
                    String fin = "SELECT k, toString(finalizeAggregation(s)) FROM %s ORDER BY k";
                    String expected = server.httpQuery(String.format(fin, grouped));
                    String actual = server.httpQuery(String.format(fin, dst));
                    if (!expected.equals(actual)) {
                        failures.add(state + ": finalizeAggregation gives '" + actual.trim() + "', expected '" + expected.trim() + "'");
                    }
                    String mrg = "SELECT toString(" + merge + "(s)) FROM %s";
                    expected = server.httpQuery(String.format(mrg, grouped));
                    actual = server.httpQuery(String.format(mrg, dst));
                    if (!expected.equals(actual)) {
                        failures.add(state + ": " + merge + " gives '" + actual.trim() + "', expected '" + expected.trim() + "'");
                    }
                    // the empty state of the type is what the server produces for no rows
                    try (QueryResult r = client.query("SELECT " + state + " FROM " + SOURCE + " WHERE k > 5")) {
                        for (Block b : r) {
                            AggregateFunctionColumn col = (AggregateFunctionColumn) b.column(0);
                            byte[] empty = ((AggregateFunctionType) col.type()).emptyState();
                            if (!HexFormat.of().formatHex(empty).equals(HexFormat.of().formatHex(col.getBytes(0)))) {
                                failures.add(state + ": empty state " + HexFormat.of().formatHex(empty) + ", server "
                                        + HexFormat.of().formatHex(col.getBytes(0)));
                            }
                        }
                    }
                } catch (RuntimeException ex) {
                    failures.add(state + ": " + ex);
                } finally {
                    client.execute("DROP TABLE IF EXISTS " + dst);
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void bytesMatchTheServerAndPrintLikeIt(ClickHouseServer.Kind kind) {
        ClickHouseServer server = ClickHouseServers.get(kind);
        List<String> exprs = List.of("countState()", "sumState(number)", "avgState(number)", "minState(toString(number))",
                "uniqExactState(number)", "groupArrayState(toString(number))", "argMaxState(toString(number), number)");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            for (String e : exprs) {
                String hex = server.httpQuery("SELECT hex(toString(" + e + ")) FROM numbers(300)").trim();
                try (QueryResult r = client.query("SELECT " + e + " AS v, toString(v) FROM numbers(300)")) {
                    for (Block b : r) {
                        AggregateFunctionColumn c = (AggregateFunctionColumn) b.column(0);
                        assertThat(HexFormat.of().withUpperCase().formatHex(c.getBytes(0))).as(e).isEqualTo(hex);
                        assertThat(c.getString(0)).as(e).isEqualTo(b.column(1).getString(0));
                        assertThat(c.length(0)).isEqualTo(hex.length() / 2);
                        assertThat(c.getByteBuffer(0).remaining()).isEqualTo(hex.length() / 2);
                        assertThat(c.copy().getObject(0)).isEqualTo(c.getBytes(0));
                    }
                }
            }
            // many rows and blocks
            long[] count = {0};
            try (QueryResult r = client.query("SELECT number, groupArrayState(toString(number)), uniqExactState(number), "
                    + "minState(toString(number)) FROM numbers(20000) GROUP BY number SETTINGS max_block_size = 3000")) {
                for (Block b : r) {
                    count[0] += b.rowCount();
                }
            }
            assertThat(count[0]).isEqualTo(20000);
        }
    }

    @Test
    void aggregatingMergeTreeMergesInsertedStates() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("amt");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (k UInt8, c AggregateFunction(count), s AggregateFunction(sum, UInt64), "
                    + "a AggregateFunction(avg, Float64), u AggregateFunction(uniqExact, String), "
                    + "m AggregateFunction(max, String), g AggregateFunction(groupArray, UInt64)) "
                    + "ENGINE = AggregatingMergeTree ORDER BY k");
            try {
                String q = "SELECT k, countState(), sumState(number), avgState(toFloat64(number)), uniqExactState(toString(number % 17)), "
                        + "maxState(toString(number)), groupArrayState(number) FROM " + SOURCE + " GROUP BY k ORDER BY k";
                List<Object[]> rows = client.queryRows(q);
                client.insert(t, List.of(), rows);
                client.insert(t, List.of(), rows);
                client.execute("OPTIMIZE TABLE " + t + " FINAL");
                assertThat(server.httpQuery("SELECT count() FROM " + t).trim()).isEqualTo("3");
                String doubled = "(SELECT number % 3 AS k, number FROM numbers(100) UNION ALL "
                        + "SELECT number % 3 AS k, number FROM numbers(100))";
                String expected = server.httpQuery("SELECT k, count(), sum(number), avg(toFloat64(number)), "
                        + "uniqExact(toString(number % 17)), max(toString(number)), length(groupArray(number)) FROM " + doubled
                        + " GROUP BY k ORDER BY k");
                String actual = server.httpQuery("SELECT k, countMerge(c), sumMerge(s), avgMerge(a), uniqExactMerge(u), "
                        + "maxMerge(m), length(groupArrayMerge(g)) FROM " + t + " GROUP BY k ORDER BY k");
                assertThat(actual).isEqualTo(expected);
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    @Test
    void columnarInsertAndValidation() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("aggcol");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (k UInt32, s AggregateFunction(sum, UInt64), "
                    + "m AggregateFunction(min, String)) ENGINE = Memory");
            try {
                int n = 1000;
                int[] ks = new int[n];
                List<byte[]> sums = new ArrayList<>();
                List<java.nio.ByteBuffer> mins = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    ks[i] = i;
                    byte[] s = new byte[8];
                    java.nio.ByteBuffer.wrap(s).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(i * 3L);
                    sums.add(s);
                    byte[] str = ("v" + i + "\0").getBytes(java.nio.charset.StandardCharsets.UTF_8);
                    java.nio.ByteBuffer bb = java.nio.ByteBuffer.allocate(4 + str.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                    bb.putInt(str.length).put(str).flip();
                    mins.add(bb);
                }
                Map<String, Object> cols = new LinkedHashMap<>();
                cols.put("k", ks);
                cols.put("s", sums);
                cols.put("m", mins);
                assertThat(client.insertColumns(t, cols)).isEqualTo(n);
                assertThat(server.httpQuery("SELECT sumMerge(s), minMerge(m), countIf(finalizeAggregation(m) = concat('v', toString(k))) "
                        + "FROM " + t).trim()).isEqualTo(3L * n * (n - 1) / 2 + "\tv0\t" + n);
                for (Object bad : new Object[] {new byte[7], new byte[9], "text", 5L}) {
                    assertThatThrownBy(() -> client.insert(t, List.of(), List.<Object[]>of(new Object[] {1, bad, new byte[] {-1, -1, -1, -1}})))
                            .isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("AggregateFunction(sum, UInt64)");
                }
                assertThatThrownBy(() -> client.insert(t, List.of(), List.<Object[]>of(new Object[] {1, new byte[8], new byte[] {5, 0, 0, 0, 'a'}})))
                        .isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("ends early");
                assertThat(server.httpQuery("SELECT count() FROM " + t).trim()).isEqualTo(Integer.toString(n));
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    @Test
    void unsupportedFunctionsFailClearly() {
        // reading such a state stops mid-block and discards the connection: done against the robust 18.16
        // server, never the embedded 26.7 one
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.legacy())) {
            assertThatThrownBy(() -> client.queryRows("SELECT varSampState(number) FROM numbers(10)"))
                    .isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("'varSamp'")
                    .hasMessageContaining("AggregateFunction(varSamp, UInt64)");
            assertThat(client.queryRows("SELECT 1")).hasSize(1);
        }
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("aggq");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            // an empty result of such a type is fine
            assertThat(client.queryRows("SELECT k, varSampState(number) FROM " + SOURCE + " WHERE k > 5 GROUP BY k")).isEmpty();
            client.execute("CREATE TABLE " + t + " (q AggregateFunction(varSamp, UInt64)) ENGINE = Memory");
            try {
                // the writer refuses before anything is sent
                assertThatThrownBy(() -> client.insert(t, List.of(), List.<Object[]>of(new Object[] {new byte[] {0}})))
                        .isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("'varSamp'");
                assertThat(server.httpQuery("SELECT count() FROM " + t).trim()).isEqualTo("0");
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }
}
