package dev.clickhousetcp.benchmarks;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryOptions;
import dev.clickhousetcp.client.QueryResult;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.Float64Column;
import dev.clickhousetcp.data.StringColumn;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The shared data set: {@code number AS id, toString(number) AS name, toFloat64(number) AS value} over
 * {@code numbers(n)} (UInt64, String, Float64), its closed-form checksum, a bean usable by both our
 * mapper and client-v2's POJO reader/writer, and the columns/objects used by the insert arms.
 */
final class Data {
    private Data() {
    }

    static String select(long rows) {
        return "SELECT number AS id, toString(number) AS name, toFloat64(number) AS value FROM numbers(" + rows + ")";
    }

    static final String TABLE_COLUMNS = "(id UInt64, name String, value Float64)";

    /** sum(id) + sum(byte length of name) + (long) sum(value). */
    static long checksum(long n) {
        return 2 * BenchmarkServer.sumBelow(n) + BenchmarkServer.digitsBelow(n);
    }

    /** Block tier, strings as byte lengths (no decoding). */
    static long readBlocks(ClickHouseTcpClient client, String sql, QueryOptions options, long[] rowsOut) {
        long sum = 0;
        double fsum = 0;
        long count = 0;
        try (QueryResult r = client.query(sql, options)) {
            Block b;
            while ((b = r.next()) != null) {
                Column n = b.column(0);
                StringColumn s = (StringColumn) b.column(1);
                Float64Column f = (Float64Column) b.column(2);
                int rows = b.rowCount();
                for (int i = 0; i < rows; i++) {
                    sum += n.getLong(i) + s.length(i);
                    fsum += f.getDouble(i);
                }
                count += rows;
            }
        }
        if (rowsOut != null) {
            rowsOut[0] = count;
        }
        return sum + (long) fsum;
    }

    /** Block tier, each string decoded to a java.lang.String. */
    static long readBlocksDecoded(ClickHouseTcpClient client, String sql, QueryOptions options) {
        long sum = 0;
        double fsum = 0;
        try (QueryResult r = client.query(sql, options)) {
            Block b;
            while ((b = r.next()) != null) {
                Column n = b.column(0);
                Column s = b.column(1);
                Column f = b.column(2);
                int rows = b.rowCount();
                for (int i = 0; i < rows; i++) {
                    sum += n.getLong(i) + s.getString(i).length();
                    fsum += f.getDouble(i);
                }
            }
        }
        return sum + (long) fsum;
    }

    static long checksumOf(List<Item> items) {
        long sum = 0;
        double fsum = 0;
        for (Item it : items) {
            sum += it.getId() + it.getName().length();
            fsum += it.getValue();
        }
        return sum + (long) fsum;
    }

    /** The columns {@code id}, {@code name}, {@code value} of {@code n} rows as {@code long[]}, {@code String[]}, {@code double[]}. */
    static Map<String, Object> columns(int n) {
        Map<String, Object> columns = new LinkedHashMap<>();
        columns.put("id", ids(n));
        columns.put("name", names(n));
        columns.put("value", values(n));
        return columns;
    }

    /**
     * The rows of {@link #columns} through a JDBC {@code PreparedStatement}: {@code setLong}, {@code setString},
     * {@code setDouble} and {@code addBatch} per row, then one {@code executeBatch}; returns the summed counts.
     */
    static long batchInsert(Connection c, String table, Map<String, Object> columns) throws SQLException {
        long[] ids = (long[]) columns.get("id");
        String[] names = (String[]) columns.get("name");
        double[] values = (double[]) columns.get("value");
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id, name, value) VALUES (?, ?, ?)")) {
            for (int i = 0; i < ids.length; i++) {
                ps.setLong(1, ids[i]);
                ps.setString(2, names[i]);
                ps.setDouble(3, values[i]);
                ps.addBatch();
            }
            long total = 0;
            for (int n : ps.executeBatch()) {
                total += n;
            }
            return total;
        }
    }

    static long[] ids(int n) {
        long[] a = new long[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        return a;
    }

    static String[] names(int n) {
        String[] a = new String[n];
        for (int i = 0; i < n; i++) {
            a[i] = Integer.toString(i);
        }
        return a;
    }

    static double[] values(int n) {
        double[] a = new double[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        return a;
    }

    static List<Item> items(int n) {
        Item[] a = new Item[n];
        for (int i = 0; i < n; i++) {
            a[i] = new Item(i, Integer.toString(i), i);
        }
        return List.of(a);
    }

    /** Checks count() and the checksum of what an insert arm left in a (Memory) table. */
    static void verifyTable(ClickHouseTcpClient client, String table, long n, String arm) {
        List<Object[]> r = client.queryRows("SELECT count(), sum(id), sum(length(name)), sum(value) FROM " + table);
        Object[] row = r.get(0);
        BenchmarkServer.check(arm + ": count()", n, ((Number) row[0]).longValue());
        long sum = ((Number) row[1]).longValue() + ((Number) row[2]).longValue() + (long) ((Number) row[3]).doubleValue();
        BenchmarkServer.check(arm + ": checksum", checksum(n), sum);
    }

    /** A mutable bean: no-arg constructor, getters and setters (the shape both clients can map). */
    public static final class Item {
        private long id;
        private String name;
        private double value;

        public Item() {
        }

        public Item(long id, String name, double value) {
            this.id = id;
            this.name = name;
            this.value = value;
        }

        public long getId() {
            return id;
        }

        public void setId(long id) {
            this.id = id;
        }

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public double getValue() {
            return value;
        }

        public void setValue(double value) {
            this.value = value;
        }
    }
}
