package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.mapping.MappingConfig;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@code Object[]} row tier: {@code queryRows}, {@code forEachRow}, {@code streamRows} give the
 * values of {@code Column.getObject} for every type, stream with the lifecycle of {@code forEach} and
 * {@code stream}, and box UInt64 as exact {@code BigInteger} or, when asked, as {@code Long} raw bits.
 */
@ClickHouseTest
class RowTierTest {

    /** Boundary UInt64 values; the server's own text of each is the reference. */
    private static final String UINT64 = "SELECT toUInt64('18446744073709551615') AS max, toUInt64('9223372036854775808') AS above,"
            + " toUInt64('9223372036854775807') AS below, toUInt64(5) AS small,"
            + " CAST(NULL AS Nullable(UInt64)) AS none, toNullable(toUInt64('18446744073709551614')) AS some,"
            + " toString(max), toString(above), toString(below), toString(small), toString(some)";

    private static ClickHouseServer server(String kind) {
        return kind.equals("legacy") ? ClickHouseServers.legacy() : ClickHouseServers.modern();
    }

    private static Object[] firstStreamed(ClickHouseTcpClient client, String sql) {
        Object[][] first = new Object[1][];
        client.forEachRow(sql, r -> first[0] = r);
        try (Stream<Object[]> s = client.streamRows(sql)) {
            assertThat(s.findFirst()).get().isEqualTo(first[0]);
        }
        return first[0];
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void uint64IsAnExactBigIntegerByDefault(String kind) {
        try (ClickHouseTcpClient client = TestClients.client(server(kind))) {
            Object[] row = client.queryRows(UINT64).get(0);
            for (int i : new int[]{0, 1, 2, 3}) {
                assertThat(row[i]).isInstanceOf(BigInteger.class).isEqualTo(new BigInteger((String) row[i + 6]));
            }
            assertThat(row[4]).isNull();
            assertThat(row[5]).isEqualTo(new BigInteger((String) row[10]));
            assertThat(firstStreamed(client, UINT64)).isEqualTo(row);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void uint64AsLongGivesTheTwosComplementBits(String kind) {
        try (ClickHouseTcpClient client = TestClients.builder(server(kind))
                .mapping(MappingConfig.DEFAULT.withUint64AsLong(true)).build()) {
            Object[] row = client.queryRows(UINT64).get(0);
            assertThat(row[0]).isEqualTo(-1L);
            assertThat(row[1]).isEqualTo(Long.MIN_VALUE);
            assertThat(row[2]).isEqualTo(Long.MAX_VALUE);
            assertThat(row[3]).isEqualTo(5L);
            assertThat(row[4]).isNull();
            assertThat(row[5]).isEqualTo(-2L);
            for (int i : new int[]{0, 1, 2, 3}) {
                assertThat(Long.toUnsignedString((Long) row[i])).isEqualTo(row[i + 6]);
            }
            assertThat(Long.toUnsignedString((Long) row[5])).isEqualTo(row[10]);
            assertThat(firstStreamed(client, UINT64)).isEqualTo(row);
            Object[] viaRow = client.query(UINT64, (r, n) -> {
                assertThat(r.getObject("max")).isEqualTo(-1L);
                return r.toArray();
            }).get(0);
            assertThat(viaRow).isEqualTo(row);
            // a signed Int64 and typed reads are untouched
            assertThat(client.queryRows("SELECT toInt64(-3), toUInt32(4294967295)").get(0)).containsExactly(-3L, 4294967295L);
        }
    }

    /** Every value of the row tier equals {@code Column.getObject} of the same cell, for a wide set of types. */
    @Test
    void rowsEqualGetObjectOfEveryCell() {
        String sql = "SELECT number AS u64, toInt64(number) - 5 AS i64, toString(number) AS s, toFloat64(number) / 3 AS f64,"
                + " if(number % 3 = 0, NULL, number) AS nu64, if(number % 4 = 0, NULL, toString(number)) AS ns,"
                + " if(number % 5 = 0, NULL, number / 7) AS nf, toFloat32(number) AS f32, toUInt8(number) AS u8,"
                + " toLowCardinality(toString(number % 3)) AS lc, [number, number + 1] AS arr, (number, 'x') AS tup,"
                + " toDate('2024-01-01') + number AS d, toDecimal64(number, 2) AS dec, toUUID('00000000-0000-0000-0000-000000000001') AS id"
                + " FROM numbers(3000) SETTINGS max_block_size = 1000";
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            List<Object[]> expected = new ArrayList<>();
            try (QueryResult r = client.query(sql)) {
                for (Block b : r) {
                    for (int i = 0; i < b.rowCount(); i++) {
                        Object[] a = new Object[b.columnCount()];
                        for (int c = 0; c < a.length; c++) {
                            a[c] = b.column(c).getObject(i);
                        }
                        expected.add(a);
                    }
                }
            }
            List<Object[]> rows = client.queryRows(sql);
            assertThat(rows).hasSize(3000);
            for (int i = 0; i < rows.size(); i++) {
                assertThat(rows.get(i)).as("row %d", i).isEqualTo(expected.get(i));
            }
            List<Object[]> streamed = new ArrayList<>();
            assertThat(client.forEachRow(sql, streamed::add)).isEqualTo(3000);
            try (Stream<Object[]> s = client.streamRows(sql)) {
                List<Object[]> viaStream = s.collect(Collectors.toList());
                for (int i = 0; i < rows.size(); i++) {
                    assertThat(streamed.get(i)).isEqualTo(expected.get(i));
                    assertThat(viaStream.get(i)).isEqualTo(expected.get(i));
                }
            }
            // every array is the caller's own
            assertThat(rows.stream().map(a -> a).distinct().count()).isEqualTo(3000);
        }
    }

    @Test
    void forEachRowStreamsEveryRowAndCountsThem() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            long[] sum = {0};
            long n = client.forEachRow("SELECT number FROM numbers(200000)", QueryOptions.builder()
                    .setting("max_block_size", 7000).build(), row -> sum[0] += ((BigInteger) row[0]).longValue());
            assertThat(n).isEqualTo(200000);
            assertThat(sum[0]).isEqualTo(199999L * 200000 / 2);
            assertThat(client.forEachRow("SELECT 1 WHERE 0", row -> { throw new AssertionError(); })).isZero();
        }
    }

    @Test
    void anExceptionInTheActionCancelsTheQueryAndIsRethrown() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            long[] seen = {0};
            IllegalStateException boom = new IllegalStateException("stop");
            assertThatThrownBy(() -> client.forEachRow("SELECT number FROM numbers(100000000)", row -> {
                if (++seen[0] == 10) {
                    throw boom;
                }
            })).isSameAs(boom);
            assertThat(seen[0]).isEqualTo(10);
            assertThat(client.poolStats().active()).isZero();
            assertThat(client.queryRows("SELECT 42").get(0)).containsExactly((short) 42);
        }
    }

    @Test
    void aServerErrorPartWayIsThrownNotAShortResult() {
        String sql = "SELECT throwIf(number = 150000, 'late failure') AS x FROM numbers(300000) SETTINGS max_block_size = 10000";
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            long[] seen = {0};
            assertThatThrownBy(() -> client.forEachRow(sql, row -> seen[0]++))
                    .isInstanceOf(ClickHouseServerException.class).hasMessageContaining("late failure");
            assertThat(seen[0]).isLessThan(300000);
            assertThatThrownBy(() -> client.queryRows(sql)).isInstanceOf(ClickHouseServerException.class);
            assertThatThrownBy(() -> {
                try (Stream<Object[]> s = client.streamRows(sql)) {
                    s.count();
                }
            }).isInstanceOf(ClickHouseServerException.class);
            assertThat(client.poolStats().active()).isZero();
            assertThat(client.queryRows("SELECT 1").get(0)).containsExactly((short) 1);
        }
    }

    @Test
    void streamRowsIsLazyAndClosingItEarlyCancelsTheQuery() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            try (Stream<Object[]> s = client.streamRows("SELECT number FROM numbers(5000000000)")) {
                assertThat(s.limit(3).map(r -> ((BigInteger) r[0]).longValue()).collect(Collectors.toList()))
                        .containsExactly(0L, 1L, 2L);
                assertThat(client.poolStats().active()).isEqualTo(1);
            }
            assertThat(client.poolStats().active()).isZero();
            // the connection came back usable (drained) or was dropped: either way the next query works
            assertThat(client.queryRows("SELECT 7").get(0)).containsExactly((short) 7);
            try (Stream<Object[]> s = client.streamRows("SELECT number, toString(number) FROM numbers(10)")) {
                assertThat(s.map(r -> r[1]).collect(Collectors.toList()))
                        .containsExactly("0", "1", "2", "3", "4", "5", "6", "7", "8", "9");
            }
            assertThat(client.poolStats().active()).isZero();
        }
    }

    @Test
    void aSessionStreamsRowsOnItsConnection() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern());
             ClickHouseSession session = client.openSession()) {
            session.execute("CREATE TEMPORARY TABLE t_rows (n UInt64)");
            session.execute("INSERT INTO t_rows SELECT number FROM numbers(5)");
            List<Object[]> seen = new ArrayList<>();
            assertThat(session.forEachRow("SELECT n FROM t_rows ORDER BY n", seen::add)).isEqualTo(5);
            assertThat(seen.stream().map(r -> r[0]).collect(Collectors.toList()))
                    .containsExactly(BigInteger.ZERO, BigInteger.ONE, BigInteger.TWO, BigInteger.valueOf(3), BigInteger.valueOf(4));
            try (Stream<Object[]> s = session.streamRows("SELECT n FROM t_rows ORDER BY n")) {
                assertThat(s.map(Arrays::toString).collect(Collectors.joining())).isEqualTo("[0][1][2][3][4]");
            }
        }
    }
}
