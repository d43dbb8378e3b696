package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Insert round trips: values the server produced are read with {@code getObject}, inserted into a
 * second table through the client, and the server compares both tables.
 */
@ClickHouseTest
class InsertTest {

    /** type -> expressions producing values of it (valid on both servers). */
    static Map<String, List<String>> common() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        m.put("Int8", List.of("-128", "127", "0"));
        m.put("UInt8", List.of("0", "255"));
        m.put("Int16", List.of("-32768", "32767"));
        m.put("UInt16", List.of("65535", "1"));
        m.put("Int32", List.of("-2147483648", "2147483647"));
        m.put("UInt32", List.of("4294967295", "0"));
        m.put("Int64", List.of("-9223372036854775808", "9223372036854775807"));
        m.put("UInt64", List.of("18446744073709551615", "0", "9223372036854775808"));
        m.put("Float32", List.of("0.5", "-3.25", "1e10"));
        m.put("Float64", List.of("0.1", "-1e300", "123456.789"));
        m.put("String", List.of("'hello'", "''", "'üñí©ødé'", "'a\\tb\\nc\\\\d\\'e'"));
        m.put("FixedString(4)", List.of("'ab'", "'abcd'"));
        m.put("Date", List.of("'2024-02-29'", "'1970-01-02'"));
        m.put("DateTime", List.of("'2024-01-02 03:04:05'", "'2001-09-09 01:46:40'"));
        m.put("DateTime('Asia/Kolkata')", List.of("'2024-01-02 03:04:05'"));
        m.put("UUID", List.of("'123e4567-e89b-12d3-a456-426614174000'", "'00000000-0000-0000-0000-000000000001'"));
        m.put("Nullable(Int32)", List.of("NULL", "7"));
        m.put("Nullable(String)", List.of("NULL", "'x'", "''"));
        m.put("Array(Int32)", List.of("[1, 2, 3]", "[]"));
        m.put("Array(String)", List.of("['a', 'b''c']", "[]"));
        m.put("Array(Nullable(UInt8))", List.of("[NULL, 1]", "[]"));
        m.put("Array(Array(UInt16))", List.of("[[1], [], [2, 3]]", "[[4]]"));
        m.put("Array(DateTime)", List.of("['2024-01-02 03:04:05']"));
        m.put("Enum8('a' = 1, 'b' = 2)", List.of("'a'", "'b'"));
        m.put("Enum16('x' = -1000, 'y' = 1000)", List.of("'x'", "'y'"));
        m.put("Tuple(UInt8, String)", List.of("(1, 'a')"));
        return m;
    }

    static Map<String, List<String>> modernOnly() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        m.put("Bool", List.of("true", "false"));
        m.put("Date32", List.of("'1900-01-01'", "'2299-12-31'"));
        m.put("DateTime64(3)", List.of("'2024-01-02 03:04:05.123'", "'1969-12-31 23:59:59.999'"));
        m.put("DateTime64(9, 'UTC')", List.of("'2200-01-01 00:00:00.000000001'"));
        m.put("DateTime64(6, 'America/New_York')", List.of("'2024-03-10 02:30:00.5'"));
        m.put("Nullable(DateTime64(3))", List.of("NULL", "'2024-01-02 03:04:05.123'"));
        m.put("Array(Nullable(String))", List.of("[NULL, 'a']", "[]"));
        m.put("LowCardinality(String)", List.of("'a'", "'b'", "'a'"));
        m.put("LowCardinality(Nullable(String))", List.of("NULL", "'b'", "'b'"));
        m.put("Array(LowCardinality(String))", List.of("['x', 'y', 'x']", "[]"));
        m.put("Map(String, UInt64)", List.of("map('a', 1, 'b', 2)", "map()"));
        m.put("Map(String, Array(Nullable(Int8)))", List.of("map('k', [NULL, 1])"));
        m.put("Tuple(a UInt8, b Nullable(String))", List.of("(1, NULL)", "(2, 'x')"));
        m.put("Variant(String, UInt64)", List.of("'a'", "toUInt64(5)", "NULL"));
        m.put("Dynamic", List.of("toInt64(-5)", "'s'", "[1, 2]", "map('k', 'v')", "NULL"));
        m.put("JSON", List.of("'{\"a\":1,\"b\":{\"c\":[\"x\",null]}}'", "'{}'"));
        m.put("Geometry", List.of("tuple(1.5, 2.5)::Point", "NULL"));
        return m;
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void roundTripOfEveryType(ClickHouseServer.Kind kind) {
        ClickHouseServer server = ClickHouseServers.get(kind);
        Map<String, List<String>> types = common();
        if (kind == ClickHouseServer.Kind.MODERN) {
            types.putAll(modernOnly());
        }
        List<String> failures;
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            failures = ServerTypeChecks.roundTripMismatches(client, server, types);
        }
        assertThat(failures).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void javaValuesOfEveryShape(ClickHouseServer.Kind kind) {
        ClickHouseServer server = ClickHouseServers.get(kind);
        String t = TestClients.table("shapes");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (i Int32, u UInt64, f Float64, s String, d Date, dt DateTime('UTC'), "
                    + "id UUID, arr Array(Int64), n Nullable(String), e Enum8('a' = 1, 'b' = 2)) ENGINE = Memory");
            try {
                List<Object[]> rows = List.of(
                        new Object[] {1, 5L, 1.5, "x", LocalDate.of(2024, 1, 2), Instant.parse("2024-01-02T03:04:05Z"),
                            UUID.fromString("123e4567-e89b-12d3-a456-426614174000"), new long[] {1, 2}, null, "a"},
                        new Object[] {(short) -2, new java.math.BigInteger("18446744073709551615"), 2.0f, "y".getBytes(),
                            "2024-01-03", LocalDateTime.of(2024, 1, 2, 3, 4, 5), "123e4567-e89b-12d3-a456-426614174001",
                            List.of(3L), "n", 2});
                assertThat(client.insert(t, List.of(), rows)).isEqualTo(2);
                assertThat(server.httpQuery("SELECT * FROM " + t + " ORDER BY i FORMAT TSV")).isEqualTo(
                        "-2\t18446744073709551615\t2\ty\t2024-01-03\t2024-01-02 03:04:05\t123e4567-e89b-12d3-a456-426614174001\t[3]\tn\tb\n"
                        + "1\t5\t1.5\tx\t2024-01-02\t2024-01-02 03:04:05\t123e4567-e89b-12d3-a456-426614174000\t[1,2]\t\\N\ta\n");
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void millionRowsColumnarAndRowInserts(ClickHouseServer.Kind kind) {
        ClickHouseServer server = ClickHouseServers.get(kind);
        String t = TestClients.table("big");
        int n = 1_000_000;
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (id UInt64, name String, x Float64) ENGINE = Memory");
            try {
                long[] ids = new long[n];
                double[] xs = new double[n];
                List<String> names = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    ids[i] = i;
                    xs[i] = i * 0.5;
                    names.add("name-" + i);
                }
                Map<String, Object> cols = new LinkedHashMap<>();
                cols.put("id", ids);
                cols.put("name", names);
                cols.put("x", xs);
                assertThat(client.insertColumns(t, cols)).isEqualTo(n);
                List<Object[]> rows = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    rows.add(new Object[] {(long) (n + i), "row-" + i, i * 0.25});
                }
                assertThat(client.insert(t, List.of("id", "name", "x"), rows)).isEqualTo(n);
                assertThat(server.httpQuery("SELECT count(), sum(id), sum(x), countIf(startsWith(name, 'name-')), "
                        + "uniqExact(name) FROM " + t).trim())
                        .isEqualTo((2L * n) + "\t" + ((2L * n) * (2L * n - 1) / 2) + "\t" + TextFormatCheck.sum(n) + "\t" + n
                                + "\t" + (2 * n));
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    /** Expected sum(x) text: sum of i*0.5 plus sum of i*0.25 for i in [0, n), exact in binary. */
    static final class TextFormatCheck {
        static String sum(int n) {
            double s = (double) n * (n - 1) / 2 * 0.75;
            return s == Math.rint(s) ? Long.toString((long) s) : Double.toString(s);
        }
    }

    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void badValuesFailBeforeAnythingIsWritten(ClickHouseServer.Kind kind) {
        ClickHouseServer server = ClickHouseServers.get(kind);
        String t = TestClients.table("bad");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (id UInt8, s String) ENGINE = Memory");
            try {
                assertThatThrownBy(() -> client.insert(t, List.of(), List.of(new Object[] {1, "a"}, new Object[] {300, "b"})))
                        .isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("row 1")
                        .hasMessageContaining("'id'").hasMessageContaining("UInt8");
                assertThatThrownBy(() -> client.insert(t, List.of(), List.<Object[]>of(new Object[] {1})))
                        .isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("expected 2");
                assertThatThrownBy(() -> client.insert(t, List.of(), List.<Object[]>of(new Object[] {null, "a"})))
                        .isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("NULL");
                assertThatThrownBy(() -> client.insert(t, List.of("id", "nope"), List.<Object[]>of(new Object[] {1, "a"})))
                        .isInstanceOf(ClickHouseServerException.class).satisfies(e ->
                                assertThat(((ClickHouseServerException) e).code()).isIn(16, 47));
                assertThat(server.httpQuery("SELECT count() FROM " + t).trim()).isEqualTo("0");
                // the pool discarded abandoned inserts and still works
                assertThat(client.insert(t, List.of(), List.<Object[]>of(new Object[] {2, "ok"}))).isEqualTo(1);
                assertThat(server.httpQuery("SELECT count() FROM " + t).trim()).isEqualTo("1");
                assertThat(client.poolStats().active()).isZero();
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    @Test
    void sparseColumnsFromMergeTreeAreExpanded() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("sparse");
        // one connection: its decode counts cover the query
        try (ClickHouseTcpClient client = TestClients.builder(server).maxPoolSize(1).build()) {
            client.execute("CREATE TABLE " + t + " (id UInt64, v UInt64, s String, n Nullable(Int32), "
                    + "t Tuple(a UInt32, b String)) ENGINE = MergeTree ORDER BY id "
                    + "SETTINGS ratio_of_defaults_for_sparse_serialization = 0.5, min_bytes_for_wide_part = 0, "
                    + "compute_exact_num_defaults_for_sparse_columns = 1");
            try {
                client.execute("INSERT INTO " + t + " SELECT number, if(number % 10 = 0, number, 0), "
                        + "if(number % 10 = 0, toString(number), ''), if(number % 10 = 0, toInt32(number), NULL), "
                        + "(if(number % 10 = 0, number, 0), if(number % 10 = 0, 'x', '')) FROM numbers(100000)");
                assertThat(server.httpQuery("SELECT countIf(serialization_kind = 'Sparse') FROM system.parts_columns "
                        + "WHERE table = '" + t + "' AND active").trim()).isNotEqualTo("0");
                long sparseBefore = client.withConnection(ClickHouseConnection::sparseColumnsRead);
                long[] sums = new long[3];
                try (QueryResult r = client.query("SELECT id, v, s, n, t FROM " + t + " ORDER BY id")) {
                    for (dev.clickhousetcp.data.Block b : r) {
                        for (int i = 0; i < b.rowCount(); i++) {
                            long id = b.column(0).getLong(i);
                            long expect = id % 10 == 0 ? id : 0;
                            assertThat(b.column(1).getLong(i)).isEqualTo(expect);
                            assertThat(b.column(2).getString(i)).isEqualTo(id % 10 == 0 ? Long.toString(id) : "");
                            assertThat(b.column(3).isNull(i)).isEqualTo(id % 10 != 0);
                            assertThat(b.column(4).getString(i)).isEqualTo(id % 10 == 0 ? "(" + id + ",'x')" : "(0,'')");
                            sums[0] += b.column(1).getLong(i);
                            sums[1]++;
                        }
                    }
                }
                assertThat(sums[1]).isEqualTo(100000);
                assertThat(client.withConnection(ClickHouseConnection::sparseColumnsRead)).isGreaterThan(sparseBefore);
                assertThat(Long.toString(sums[0])).isEqualTo(server.httpQuery("SELECT sum(v) FROM " + t).trim());
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    /**
     * Blocks of 1,000,000 rows (a large {@code max_block_size}) of eight sparse columns that are almost
     * all defaults decode at the default {@code DecodeLimits}: their dense form, about 12 MB per
     * column, stays within the default expansion limit ({@code maxExpansionBytes}, 256 MiB per block).
     */
    @Test
    void millionRowBlocksOfSparseColumnsDecodeAtTheDefaultExpansionLimit() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("sparse_big");
        StringBuilder cols = new StringBuilder("id UInt64");
        StringBuilder values = new StringBuilder("number");
        for (int c = 0; c < 8; c++) {
            cols.append(", v").append(c).append(" UInt64");
            values.append(", if(number % 1000 = ").append(c).append(", number, 0)");
        }
        // one connection: its decode counts cover the query
        try (ClickHouseTcpClient client = TestClients.builder(server).maxPoolSize(1).build()) {
            client.execute("CREATE TABLE " + t + " (" + cols + ") ENGINE = MergeTree ORDER BY id "
                    + "SETTINGS ratio_of_defaults_for_sparse_serialization = 0.9, min_bytes_for_wide_part = 0");
            try {
                client.execute("INSERT INTO " + t + " SELECT " + values + " FROM numbers(1000000)");
                assertThat(server.httpQuery("SELECT countIf(serialization_kind = 'Sparse') FROM system.parts_columns "
                        + "WHERE table = '" + t + "' AND active").trim()).isEqualTo("8");
                long sparseBefore = client.withConnection(ClickHouseConnection::sparseColumnsRead);
                long rows = 0;
                long maxBlock = 0;
                long[] sums = new long[8];
                try (QueryResult r = client.query("SELECT * FROM " + t + " SETTINGS max_block_size = 1000000, "
                        + "preferred_block_size_bytes = 0, max_threads = 1")) {
                    for (dev.clickhousetcp.data.Block b : r) {
                        rows += b.rowCount();
                        maxBlock = Math.max(maxBlock, b.rowCount());
                        for (int c = 0; c < 8; c++) {
                            dev.clickhousetcp.data.Column col = b.column(c + 1);
                            for (int i = 0; i < b.rowCount(); i++) {
                                sums[c] += col.getLong(i);
                            }
                        }
                    }
                }
                assertThat(rows).isEqualTo(1_000_000);
                assertThat(maxBlock).as("rows of the largest block").isGreaterThanOrEqualTo(500_000);
                assertThat(client.withConnection(ClickHouseConnection::sparseColumnsRead) - sparseBefore)
                        .as("sparse columns received").isGreaterThanOrEqualTo(8);
                for (int c = 0; c < 8; c++) {
                    assertThat(Long.toString(sums[c])).as("sum of v%d", c)
                            .isEqualTo(server.httpQuery("SELECT sum(v" + c + ") FROM " + t).trim());
                }
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    /**
     * A hash join whose left rows match many right rows sends the left columns replicated
     * ({@code enable_lazy_columns_replication}, on by default in 26.7): each row an index into the left
     * block. They decode at the default {@code DecodeLimits} to the joined values.
     */
    @Test
    void replicatedColumnsFromJoinsDecodeAtTheDefaultExpansionLimit() {
        ClickHouseServer server = ClickHouseServers.modern();
        // one connection: its decode counts cover the query
        try (ClickHouseTcpClient client = TestClients.builder(server).maxPoolSize(1).build()) {
            long before = client.withConnection(ClickHouseConnection::replicatedColumnsRead);
            long rows = 0;
            long length = 0;
            try (QueryResult r = client.query("SELECT l.s, l.k, r.v FROM (SELECT number % 10 AS k, "
                    + "repeat(toString(number), 100) AS s FROM numbers(100)) AS l INNER JOIN (SELECT number % 10 AS k, "
                    + "number AS v FROM numbers(10000)) AS r ON l.k = r.k SETTINGS enable_lazy_columns_replication = 1, "
                    + "join_algorithm = 'hash', max_threads = 1")) {
                for (dev.clickhousetcp.data.Block b : r) {
                    for (int i = 0; i < b.rowCount(); i++) {
                        String s = b.column(0).getString(i);
                        assertThat(s).hasSizeGreaterThanOrEqualTo(100);
                        assertThat(Long.parseLong(s.substring(0, s.length() / 100)) % 10).isEqualTo(b.column(1).getLong(i));
                        assertThat(b.column(2).getLong(i) % 10).isEqualTo(b.column(1).getLong(i));
                        length += s.length();
                    }
                    rows += b.rowCount();
                }
            }
            assertThat(rows).isEqualTo(100_000);
            assertThat(Long.toString(length)).isEqualTo(server.httpQuery("SELECT sum(length(repeat(toString(number), 100)))"
                    + " * 1000 FROM numbers(100)").trim());
            assertThat(client.withConnection(ClickHouseConnection::replicatedColumnsRead)).as("replicated columns received")
                    .isGreaterThan(before);
        }
    }

    /**
     * Columnar inserts of whole arrays (serialized from the caller's arrays) and of flattened Array
     * columns arrive exactly: the server's own sums and text of what was inserted.
     */
    @ParameterizedTest
    @EnumSource(ClickHouseServer.Kind.class)
    void columnarArraysAndFlatArrays(ClickHouseServer.Kind kind) {
        ClickHouseServer server = ClickHouseServers.get(kind);
        String t = TestClients.table("flat");
        int rows = 100_000;
        long[] ids = new long[rows];
        double[] values = new double[rows];
        int[] small = new int[rows];
        String[] names = new String[rows];
        int[] ends = new int[rows];
        long[] flat = new long[rows * 2];
        int e = 0;
        for (int i = 0; i < rows; i++) {
            ids[i] = Long.MAX_VALUE - i;
            values[i] = i / 4.0;
            small[i] = -i;
            names[i] = i % 3 == 0 ? "ü" + i : "n" + i;
            for (int k = 0; k < i % 3; k++) {
                flat[e++] = i * 10L + k;
            }
            ends[i] = e;
        }
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (id UInt64, v Float64, s Int32, n String, a Array(UInt64), "
                    + "aa Array(Array(String))) ENGINE = Memory");
            try {
                Map<String, Object> columns = new LinkedHashMap<>();
                columns.put("id", ids);
                columns.put("v", values);
                columns.put("s", small);
                columns.put("n", names);
                columns.put("a", dev.clickhousetcp.data.FlatArray.of(java.util.Arrays.copyOf(flat, e), ends));
                String[] words = new String[rows];
                int[] inner = new int[rows];
                int[] outer = new int[rows];
                for (int i = 0; i < rows; i++) {
                    words[i] = "w" + i;
                    inner[i] = i + 1;
                    outer[i] = i + 1;
                }
                columns.put("aa", dev.clickhousetcp.data.FlatArray.of(
                        dev.clickhousetcp.data.FlatArray.of(words, inner), outer));
                assertThat(client.insertColumns(t, columns)).isEqualTo(rows);
                assertThat(server.httpQuery("SELECT count(), sum(id % 1000), sum(v), sum(s), sum(length(n)), "
                        + "sum(length(a)), sum(arraySum(a)), sum(length(aa)) FROM " + t).trim())
                        .isEqualTo(server.httpQuery("SELECT count(), sum((9223372036854775807 - number) % 1000), "
                                + "sum(number / 4), sum(-number), sum(length(if(number % 3 = 0, concat('ü', toString(number)), "
                                + "concat('n', toString(number))))), sum(number % 3), "
                                + "sum(arraySum(arrayMap(k -> number * 10 + k, range(number % 3)))), count() "
                                + "FROM numbers(" + rows + ")").trim());
                assertThat(server.httpQuery("SELECT id, n, a, aa FROM " + t + " WHERE id = " + (Long.MAX_VALUE - 5)).trim())
                        .isEqualTo(Long.MAX_VALUE - 5 + "\tn5\t[50,51]\t[['w5']]");
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }
}
