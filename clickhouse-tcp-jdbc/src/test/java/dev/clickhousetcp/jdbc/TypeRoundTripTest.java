package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Struct;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** setObject then getObject and getString of each family's edge values, checked against the server's toString. */
@ClickHouseTest
class TypeRoundTripTest {
    private static final String COLUMNS = "u64 UInt64, i128 Int128, i256 Int256, d76 Decimal(76, 10), fs FixedString(4),"
            + " e Enum8('a' = 1, 'b' = -2), e2 Enum16('x' = 1000), ip4 IPv4, ip6 IPv6, id UUID, d Date, d32 Date32,"
            + " dt DateTime64(9, 'Asia/Kolkata'), an Array(Nullable(Int32)), am Array(Map(String, String)),"
            + " tn Tuple(a UInt8, b String), tu Tuple(UInt8, String), m Map(String, UInt64), n Nullable(String),"
            + " lc LowCardinality(String), lcn LowCardinality(Nullable(String))";

    private static void insertAndCheck(Connection c, String t, Object[] row) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                + " ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (int i = 0; i < row.length; i++) {
                if (row[i] == null) {
                    ps.setNull(i + 1, Types.NULL);
                } else {
                    ps.setObject(i + 1, row[i]);
                }
            }
            ps.addBatch();
            ps.executeBatch();
        }
    }

    @Test
    void edgeValuesRoundTripAndGetStringIsTheServersText() throws Exception {
        String t = JdbcTests.table("jdbc_types");
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + t + " (k UInt8, " + COLUMNS + ") ENGINE = MergeTree ORDER BY k");
            try {
                Instant dt = Instant.parse("2024-02-29T18:29:59.123456789Z");
                Map<String, BigInteger> m = new LinkedHashMap<>();
                m.put("z", new BigInteger("18446744073709551615"));
                m.put("a", BigInteger.ZERO);
                Object[] max = {1, new BigInteger("18446744073709551615"),
                        new BigInteger("-170141183460469231731687303715884105728"),
                        new BigInteger("57896044618658097711785492504343953926634992332820282019728792003956564819967"),
                        new BigDecimal("-123456789012345678901234567890123456789012345678901234567890123456.0123456789"),
                        new byte[] {'a', 0, (byte) 0xff, 0}, "b", 1000, InetAddress.getByName("255.255.255.255"),
                        InetAddress.getByName("2001:db8::ff00:42:8329"), new UUID(-1L, 1L), LocalDate.of(2149, 6, 6),
                        LocalDate.of(2299, 12, 31), dt, new Integer[] {1, null, -3},
                        List.of(Map.of("k", "v"), Map.of()), new Object[] {255, "ü'\\"}, List.of(7, "x"), m, null,
                        "lc", null};
                Object[] min = {2, BigInteger.ZERO, new BigInteger("170141183460469231731687303715884105727"),
                        BigInteger.ONE.negate(), new BigDecimal("0.0000000001"), "ab", 1, 1000,
                        InetAddress.getByName("0.0.0.0"), InetAddress.getByName("::"), new UUID(0, 0),
                        LocalDate.of(1970, 1, 1), LocalDate.of(1900, 1, 1),
                        LocalDateTime.of(1970, 1, 1, 5, 30, 0, 1), new Integer[0], List.of(), List.of(0, ""),
                        new Object[] {0, ""}, Map.of(), "", "", ""};
                // Enum by name (max row) and by code (min row: 1 is 'a')
                insertAndCheck(c, t, max);
                insertAndCheck(c, t, min);

                String[] names = {"u64", "i128", "i256", "d76", "fs", "e", "e2", "ip4", "ip6", "id", "d", "d32", "dt",
                        "an", "am", "tn", "tu", "m", "n", "lc", "lcn"};
                StringBuilder oracle = new StringBuilder("SELECT ");
                for (int i = 0; i < names.length; i++) {
                    String col = names[i];
                    oracle.append(i == 0 ? "" : ", ").append("toString(").append(col).append(")");
                }
                try (Statement o = c.createStatement();
                     ResultSet expected = o.executeQuery(oracle + " FROM " + t + " ORDER BY k");
                     Statement q = c.createStatement();
                     ResultSet rs = q.executeQuery("SELECT * EXCEPT k FROM " + t + " ORDER BY k")) {
                    List<String[]> texts = new java.util.ArrayList<>();
                    while (expected.next()) {
                        String[] row = new String[names.length];
                        for (int i = 0; i < names.length; i++) {
                            row[i] = expected.getString(i + 1);
                        }
                        texts.add(row);
                    }
                    int r = 0;
                    while (rs.next()) {
                        for (int i = 0; i < names.length; i++) {
                            if (rs.getObject(i + 1) == null) {
                                assertThat(texts.get(r)[i]).as(names[i]).isIn("\\N", "NULL", null);
                            } else if (!names[i].equals("fs")) { // getString of FixedString keeps its zero bytes
                                assertThat(rs.getString(i + 1)).as(names[i] + " row " + r).isEqualTo(texts.get(r)[i]);
                            }
                        }
                        r++;
                    }
                    assertThat(r).isEqualTo(2);
                }
                try (ResultSet rs = s.executeQuery("SELECT * EXCEPT k FROM " + t + " WHERE k = 1")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getObject("u64")).isEqualTo(max[1]);
                    assertThat(rs.getObject("i128")).isEqualTo(max[2]);
                    assertThat(rs.getObject("i256")).isEqualTo(max[3]);
                    assertThat(rs.getBigDecimal("d76")).isEqualTo(max[4]);
                    assertThat(rs.getBytes("fs")).containsExactly((byte[]) max[5]);
                    assertThat(rs.getObject("e")).isEqualTo("b");
                    assertThat(rs.getInt("e")).isEqualTo(-2);
                    assertThat(rs.getObject("ip4")).isEqualTo(max[8]);
                    assertThat(rs.getObject("ip6")).isEqualTo(max[9]);
                    assertThat(rs.getObject("id")).isEqualTo(max[10]);
                    assertThat(rs.getObject("d", LocalDate.class)).isEqualTo(max[11]);
                    assertThat(rs.getObject("d32", LocalDate.class)).isEqualTo(max[12]);
                    assertThat(rs.getObject("dt", Instant.class)).isEqualTo(dt);
                    assertThat(rs.getTimestamp("dt").toInstant()).isEqualTo(dt);
                    assertThat(rs.getObject("dt", LocalDateTime.class))
                            .isEqualTo(LocalDateTime.ofInstant(dt, ZoneId.of("Asia/Kolkata")));
                    Array an = rs.getArray("an");
                    assertThat((Object[]) an.getArray()).containsExactly(1, null, -3);
                    assertThat(rs.getObject("am", List.class)).containsExactly(Map.of("k", "v"), Map.of());
                    Struct tn = (Struct) rs.getObject("tn");
                    assertThat(tn.getAttributes()).containsExactly((short) 255, "ü'\\");
                    assertThat(rs.getObject("tu", Object[].class)).containsExactly((short) 7, "x");
                    assertThat(rs.getObject("m", Map.class)).containsExactlyEntriesOf(m);
                    assertThat(rs.getObject("n")).isNull();
                    assertThat(rs.getString("lc")).isEqualTo("lc");
                    assertThat(rs.getString("lcn")).isNull();
                    assertThat(rs.wasNull()).isTrue();
                }
                try (ResultSet rs = s.executeQuery("SELECT e, fs, d, d32, dt FROM " + t + " WHERE k = 2")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString("e")).isEqualTo("a");
                    assertThat(rs.getBytes("fs")).containsExactly('a', 'b', 0, 0);
                    assertThat(rs.getObject("d32", LocalDate.class)).isEqualTo(LocalDate.of(1900, 1, 1));
                    assertThat(rs.getObject("dt", LocalDateTime.class)).isEqualTo(LocalDateTime.of(1970, 1, 1, 5, 30, 0, 1));
                }
                // server parameters (no native insert) carry the same values
                try (PreparedStatement ps = c.prepareStatement("SELECT count() FROM " + t
                        + " WHERE u64 = ? AND i256 = ? AND d76 = ? AND ip6 = ? AND id = ? AND d32 = ? AND dt = ? AND m = ?")) {
                    Object[] keys = {max[1], max[3], max[4], max[9], max[10], max[12], dt, m};
                    for (int i = 0; i < keys.length; i++) {
                        ps.setObject(i + 1, keys[i]);
                    }
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        assertThat(rs.getLong(1)).isEqualTo(1);
                    }
                }
                assertThat(Arrays.asList(names)).hasSize(21);
            } finally {
                s.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }
}
