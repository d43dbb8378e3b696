package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * JDBC.md's M1: {@code getColumns(null, db, "%", "%")} over a database of 5,000 tables of four columns. Creating
 * the tables takes minutes, so the test runs only with {@code -Dclickhousetcp.m1=true}; with
 * {@code -Dclickhousetcp.m1.database=<name>} it reads that existing database instead (and leaves it). Checks every
 * row's {@code ORDINAL_POSITION} and order, prints the time of each of three calls; asserts no time.
 */
@ClickHouseTest
class MetadataScaleTest {
    private static final int TABLES = 5_000;

    @Test
    void getColumnsOverFiveThousandTables() throws SQLException {
        String existing = System.getProperty("clickhousetcp.m1.database");
        Assumptions.assumeTrue(Boolean.getBoolean("clickhousetcp.m1") || existing != null,
                "M1 runs with -Dclickhousetcp.m1=true (it creates 5,000 tables)");
        String db = existing != null ? existing : JdbcTests.table("m1");
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            if (existing == null) {
                s.execute("CREATE DATABASE " + db);
                for (int i = 0; i < TABLES; i++) {
                    s.execute("CREATE TABLE " + db + ".t" + i + " (id UInt32 COMMENT 'k', v Nullable(Decimal(10, 2)), "
                            + "s LowCardinality(String), ts DateTime64(3, 'UTC') DEFAULT now64()) ENGINE = Memory");
                }
            }
            try {
                DatabaseMetaData md = c.getMetaData();
                StringBuilder report = new StringBuilder("M1 getColumns(null, db, \"%\", \"%\") over " + TABLES
                        + " tables:");
                for (int round = 0; round < 3; round++) {
                    long t0 = System.nanoTime();
                    int rows = 0;
                    String table = null;
                    int expected = 0;
                    try (ResultSet rs = md.getColumns(null, db, "%", "%")) {
                        while (rs.next()) {
                            String t = rs.getString(3);
                            expected = t.equals(table) ? expected + 1 : 1;
                            table = t;
                            assertThat(rs.getInt(17)).isEqualTo(expected);
                            rs.getInt(5);
                            rows++;
                        }
                    }
                    report.append(' ').append((System.nanoTime() - t0) / 1_000_000).append(" ms");
                    assertThat(rows).isEqualTo(4 * TABLES);
                }
                System.out.println(report);
            } finally {
                if (existing == null) {
                    s.execute("DROP DATABASE IF EXISTS " + db);
                }
            }
        }
    }
}
