package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code INSERT ... VALUES (?, ...)} batches as native Data blocks. */
@ClickHouseTest
class BatchInsertTest {

    private static long scalar(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(1);
        }
    }

    @Test
    void aBigBatchIsOneNativeInsertAndAReusedStatementSendsOnlyNewRows() throws SQLException {
        String t = JdbcTests.table("jdbc_batch");
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (id UInt64, name String, score Float64, at DateTime, note Nullable(String))"
                    + " ENGINE = MergeTree ORDER BY id");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t
                    + " (id, name, score, at, note) VALUES (?, ?, ?, ?, ?)")) {
                Instant base = Instant.parse("2024-01-01T00:00:00Z");
                for (int i = 0; i < 100_000; i++) {
                    ps.setLong(1, i);
                    ps.setString(2, "n" + i);
                    ps.setDouble(3, i / 2.0);
                    ps.setTimestamp(4, Timestamp.from(base.plusSeconds(i)));
                    if (i % 3 == 0) {
                        ps.setNull(5, Types.VARCHAR);
                    } else {
                        ps.setString(5, "x'\\" + i);
                    }
                    ps.addBatch();
                }
                int[] counts = ps.executeBatch();
                assertThat(counts).hasSize(100_000);
                assertThat(Arrays.stream(counts).allMatch(n -> n == 1)).isTrue();
                for (int i = 0; i < 10; i++) {
                    ps.setLong(1, 1_000_000 + i);
                    ps.setString(2, "again");
                    ps.setDouble(3, 0);
                    ps.setObject(4, base);
                    ps.setString(5, null);
                    ps.addBatch();
                }
                assertThat(ps.executeBatch()).hasSize(10);
                assertThat(ps.executeBatch()).isEmpty();
            }
            assertThat(scalar(s, "SELECT count() FROM " + t)).isEqualTo(100_010);
            assertThat(scalar(s, "SELECT sum(id) FROM " + t + " WHERE id < 100000")).isEqualTo(100_000L * 99_999 / 2);
            assertThat(scalar(s, "SELECT countIf(note IS NULL) FROM " + t)).isEqualTo(33_334 + 10);
            assertThat(scalar(s, "SELECT toUnixTimestamp(at) FROM " + t + " WHERE id = 99999"))
                    .isEqualTo(Instant.parse("2024-01-01T00:00:00Z").getEpochSecond() + 99_999);
            try (ResultSet rs = s.executeQuery("SELECT note FROM " + t + " WHERE id = 5")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("x'\\5");
            }
            s.execute("SYSTEM FLUSH LOGS");
            try (ResultSet rs = s.executeQuery("SELECT count(), min(written_rows), max(written_rows), "
                    + "min(ProfileEvents['InterfaceNativeReceiveBytes']) FROM system.query_log "
                    + "WHERE type = 'QueryFinish' AND query_kind = 'Insert' AND has(tables, 'default." + t + "')")) {
                rs.next();
                assertThat(rs.getLong(1)).as("one INSERT per executeBatch").isEqualTo(2);
                assertThat(rs.getLong(2)).as("the reused statement sent only its new rows").isEqualTo(10);
                assertThat(rs.getLong(3)).isEqualTo(100_000);
                assertThat(rs.getLong(4)).as("rows arrived as native blocks").isGreaterThan(0);
            }
            s.execute("DROP TABLE " + t);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void aValueTheColumnCannotTakeFailsTheBatchAndKeepsTheConnection(String kind) throws SQLException {
        String t = JdbcTests.table("jdbc_badbatch");
        try (Connection c = JdbcTests.connect(kind); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (id UInt8, name String) ENGINE = Memory");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " VALUES (?, ?)")) {
                ps.setInt(1, 1);
                ps.setString(2, "ok");
                ps.addBatch();
                ps.setInt(1, 300); // out of UInt8's range
                ps.setString(2, "bad");
                ps.addBatch();
                assertThatThrownBy(ps::executeBatch).isInstanceOf(BatchUpdateException.class)
                        .hasMessageContaining("id")
                        .satisfies(e -> assertThat(((BatchUpdateException) e).getLargeUpdateCounts())
                                .containsExactly(Statement.EXECUTE_FAILED, Statement.EXECUTE_FAILED));
                // cleared, and the connection still works
                assertThat(ps.executeBatch()).isEmpty();
                ps.setInt(1, 2);
                ps.setString(2, "single");
                assertThat(ps.executeUpdate()).isEqualTo(1);
            }
            assertThat(scalar(s, "SELECT count() FROM " + t)).isEqualTo(1);
            s.execute("DROP TABLE " + t);
        }
    }

    @Test
    void legacyServerTakesNativeBatches() throws SQLException {
        String t = JdbcTests.table("jdbc_legacybatch");
        try (Connection c = JdbcTests.connect("legacy"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (id UInt32, d Date, v Nullable(Float64)) ENGINE = Memory");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " (id, d, v) VALUES (?, ?, ?)")) {
                for (int i = 0; i < 5000; i++) {
                    ps.setInt(1, i);
                    ps.setDate(2, java.sql.Date.valueOf("2018-12-01"));
                    ps.setObject(3, i % 2 == 0 ? null : (double) i);
                    ps.addBatch();
                }
                assertThat(ps.executeBatch()).hasSize(5000);
            }
            assertThat(scalar(s, "SELECT count() FROM " + t + " WHERE v IS NULL")).isEqualTo(2500);
            assertThat(scalar(s, "SELECT sum(id) FROM " + t)).isEqualTo(5000L * 4999 / 2);
            s.execute("DROP TABLE " + t);
        }
    }

    @Test
    void batchesOfOtherStatementsRunRowByRow() throws SQLException {
        String t = JdbcTests.table("jdbc_rowbatch");
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (id UInt32, v String) ENGINE = Memory");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " SELECT ?, concat(?, '!')")) {
                for (int i = 0; i < 3; i++) {
                    ps.setInt(1, i);
                    ps.setString(2, "v" + i);
                    ps.addBatch();
                }
                assertThat(ps.executeBatch()).containsExactly(1, 1, 1);
            }
            try (ResultSet rs = s.executeQuery("SELECT groupArray(v) FROM (SELECT v FROM " + t + " ORDER BY id)")) {
                rs.next();
                assertThat((Object[]) rs.getArray(1).getArray()).containsExactly("v0!", "v1!", "v2!");
            }
            s.execute("DROP TABLE " + t);
        }
    }

    @Test
    void naturalJavaValuesOfTheCommonFamiliesRoundTrip() throws SQLException {
        String t = JdbcTests.table("jdbc_types");
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (i8 Int8, u16 UInt16, i64 Int64, u64 UInt64, f32 Float32, d Decimal(20, 4),"
                    + " b Bool, str String, fs FixedString(2), e Enum8('a' = 1, 'b' = 2), u UUID, dt Date,"
                    + " ts DateTime64(3, 'UTC'), arr Array(Int32), m Map(String, UInt8), tup Tuple(UInt8, String),"
                    + " ip IPv4, n Nullable(Int32), lc LowCardinality(String)) ENGINE = Memory");
            Object[] values = {(byte) -1, 65535, Long.MIN_VALUE, new java.math.BigInteger("18446744073709551615"), 1.5f,
                    new java.math.BigDecimal("1234.5678"), true, "ünïcode'\\", "ab", "b",
                    java.util.UUID.fromString("01234567-89ab-cdef-0123-456789abcdef"), java.sql.Date.valueOf("2024-02-29"),
                    Timestamp.from(Instant.parse("2024-01-01T12:34:56.789Z")), new int[]{1, 2, 3},
                    java.util.Map.of("k", 7), java.util.List.of(9, "nine"), "10.1.2.3", null, "low"};
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                    + " ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (int i = 0; i < values.length; i++) {
                    ps.setObject(i + 1, values[i]);
                }
                assertThat(ps.executeUpdate()).isEqualTo(1);
            }
            try (ResultSet rs = s.executeQuery("SELECT * FROM " + t)) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getObject(1)).isEqualTo((byte) -1);
                assertThat(rs.getObject(2)).isEqualTo(65535);
                assertThat(rs.getObject(3)).isEqualTo(Long.MIN_VALUE);
                assertThat(rs.getObject(4)).isEqualTo(values[3]);
                assertThat(rs.getObject(5)).isEqualTo(1.5f);
                assertThat(rs.getObject(6)).isEqualTo(values[5]);
                assertThat(rs.getObject(7)).isEqualTo(true);
                assertThat(rs.getObject(8)).isEqualTo(values[7]);
                assertThat(rs.getObject(9)).isEqualTo("ab");
                assertThat(rs.getObject(10)).isEqualTo("b");
                assertThat(rs.getObject(11)).isEqualTo(values[10]);
                assertThat(rs.getObject(12)).isEqualTo(values[11]);
                assertThat(rs.getObject(13)).isEqualTo(values[12]);
                assertThat((Object[]) rs.getArray(14).getArray()).containsExactly(1, 2, 3);
                assertThat(rs.getObject(15)).isEqualTo(java.util.Map.of("k", (short) 7));
                assertThat(((java.sql.Struct) rs.getObject(16)).getAttributes()).containsExactly((short) 9, "nine");
                assertThat(rs.getString(17)).isEqualTo("10.1.2.3");
                assertThat(rs.getObject(18)).isNull();
                assertThat(rs.getObject(19)).isEqualTo("low");
            }
            s.execute("DROP TABLE " + t);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void settersMixedInOneColumnAreEachConvertedToTheColumnType(String kind) throws SQLException {
        String t = JdbcTests.table("jdbc_mixbatch");
        try (Connection c = JdbcTests.connect(kind); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (id Int64, v Float64, d Decimal(10, 2)) ENGINE = Memory");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " VALUES (?, ?, ?)")) {
                // 20,000 rows (several of the batch's chunks) before the other setters
                // id: setLong rows, then setObject, setInt and setString in the same column mid-batch
                // v: setDouble rows, then setLong and setObject; d: setLong, then setDouble, then setBigDecimal
                for (int i = 0; i < 20_000; i++) {
                    ps.setLong(1, i);
                    ps.setDouble(2, i + 0.5);
                    ps.setLong(3, i);
                    ps.addBatch();
                }
                ps.setObject(1, java.math.BigInteger.valueOf(-5));
                ps.setLong(2, 7);
                ps.setDouble(3, 1.25);
                ps.addBatch();
                ps.setInt(1, -6);
                ps.setObject(2, "2.5");
                ps.setBigDecimal(3, new java.math.BigDecimal("3.75"));
                ps.addBatch();
                ps.setString(1, "-7");
                ps.setObject(2, 1.5f);
                ps.setLong(3, 2);
                ps.addBatch();
                ps.setLong(1, -8);
                ps.setDouble(2, 4);
                ps.setDouble(3, 0.5);
                ps.addBatch();
                assertThat(ps.executeBatch()).hasSize(20_004);
            }
            assertThat(scalar(s, "SELECT count() FROM " + t)).isEqualTo(20_004);
            assertThat(scalar(s, "SELECT sum(id) FROM " + t)).isEqualTo(19_999L * 20_000 / 2 - 26);
            assertThat(scalar(s, "SELECT toInt64(sum(v) * 100) FROM " + t)).isEqualTo((19_999L * 20_000 / 2 + 10_000 + 15) * 100);
            assertThat(scalar(s, "SELECT toInt64(sum(d) * 100) FROM " + t)).isEqualTo((long) ((19_999L * 20_000 / 2 + 7.5) * 100));
            s.execute("DROP TABLE " + t);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aNullInAColumnWithoutNullIs22004AndWritesNothing(int column) throws SQLException {
        String t = JdbcTests.table("jdbc_nullbatch");
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (id UInt64, name String) ENGINE = Memory");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " (id, name) VALUES (?, ?)")) {
                for (int i = 0; i < 5; i++) {
                    ps.setLong(1, i);
                    ps.setString(2, "n" + i);
                    if (i == 3) {
                        ps.setNull(column, column == 1 ? Types.BIGINT : Types.VARCHAR);
                    }
                    ps.addBatch();
                }
                assertThatThrownBy(ps::executeBatch).isInstanceOf(BatchUpdateException.class)
                        .hasMessageContaining("row 4")
                        .hasMessageContaining(column == 1 ? "'id'" : "'name'")
                        .satisfies(e -> assertThat(((BatchUpdateException) e).getSQLState()).isEqualTo("22004"))
                        .satisfies(e -> assertThat(((BatchUpdateException) e).getLargeUpdateCounts())
                                .hasSize(5).containsOnly(Statement.EXECUTE_FAILED));
                assertThat(ps.executeBatch()).as("the batch was cleared").isEmpty();
                ps.setLong(1, 9);
                ps.setString(2, "after");
                assertThat(ps.executeUpdate()).isEqualTo(1);
            }
            assertThat(scalar(s, "SELECT count() FROM " + t)).as("nothing of the failed batch").isEqualTo(1);
            s.execute("DROP TABLE " + t);
        }
    }

    @Test
    void aRefusedValueInALaterBlockKeepsTheBlocksSentBefore() throws SQLException {
        String t = JdbcTests.table("jdbc_lateblock");
        java.util.Properties p = new java.util.Properties();
        p.setProperty("insertBlockRows", "100");
        try (Connection c = JdbcTests.connect("modern", p); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (id UInt8, v Float64) ENGINE = Memory");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " VALUES (?, ?)")) {
                for (int i = 0; i < 250; i++) {
                    ps.setLong(1, i == 160 ? 256 : i % 200); // row 161 is out of UInt8's range
                    ps.setDouble(2, i);
                    ps.addBatch();
                }
                assertThatThrownBy(ps::executeBatch).isInstanceOf(BatchUpdateException.class)
                        .hasMessageContaining("row 161").hasMessageContaining("'id'")
                        .satisfies(e -> assertThat(((BatchUpdateException) e).getSQLState()).isEqualTo("22018"))
                        .satisfies(e -> {
                            long[] counts = ((BatchUpdateException) e).getLargeUpdateCounts();
                            assertThat(Arrays.stream(counts, 0, 100).allMatch(n -> n == Statement.SUCCESS_NO_INFO))
                                    .isTrue();
                            assertThat(Arrays.stream(counts, 100, 250).allMatch(n -> n == Statement.EXECUTE_FAILED))
                                    .isTrue();
                        });
            }
            assertThat(scalar(s, "SELECT count() FROM " + t)).as("the first block only").isEqualTo(100);
            assertThat(scalar(s, "SELECT max(v) FROM " + t)).isEqualTo(99);
            s.execute("DROP TABLE " + t);
        }
    }
}
