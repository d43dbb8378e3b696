package dev.clickhousetcp.benchmarks;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryOptions;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.springframework.core.convert.support.DefaultConversionService;
import org.springframework.jdbc.core.DataClassRowMapper;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapperResultSetExtractor;
import org.springframework.jdbc.core.SimplePropertyRowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * JDBC reads of the table users read: the {@value TableScanBenchmark#ROWS} rows of {@link TableScanBenchmark}
 * ({@code id UInt64, s String, f Float64} from a MergeTree table, created and checked there), read whole
 * through a {@code ResultSet}:
 *
 * <ul>
 *   <li>{@link #jdbcTyped}: our driver, {@code getLong}, {@code getString}, {@code getDouble};</li>
 *   <li>{@link #jdbcObject}: our driver, {@code getObject} for every column;</li>
 *   <li>{@link #jdbcClientRecords}: Spring's {@code JdbcClient.sql(sql).query(Rec.class).list()} over our driver,
 *       into the record {@link TableRowsBenchmark.Rec};</li>
 *   <li>{@link #jdbcTemplateRecords}: Spring's {@code JdbcTemplate.query(sql, new DataClassRowMapper<>(Rec.class))}
 *       over our driver;</li>
 *   <li>{@link #jdbcTemplateLambda}: {@code JdbcTemplate.query(sql, (rs, n) -> new Rec(rs.getLong(1), rs.getString(2),
 *       rs.getDouble(3)))} over our driver, the same records with a hand-written row mapper;</li>
 *   <li>{@link #springFloorTemplateRecords}, {@link #springFloorClientRecords}: the row mappers of the two arms
 *       above ({@code DataClassRowMapper}; {@code SimplePropertyRowMapper}, the one {@code JdbcClient} makes for
 *       a record) over the same rows held in memory by {@link InMemoryResultSet} (read once in setup): Spring's
 *       own share, the floor of those arms over any driver;</li>
 *   <li>{@link #records}: our client's {@code forEach(sql, Rec.class, ...)}, the floor of the two Spring arms;</li>
 *   <li>{@link #blockDecoded}: our block tier with every string decoded, what the driver reads under its
 *       {@code ResultSet} (the floor of the two arms above);</li>
 *   <li>{@link #httpJdbcV2}: ClickHouse's HTTP driver {@code com.clickhouse:jdbc-v2} 0.10.0, typed getters
 *       (configuration: {@link JdbcPeers}); the report divides every arm by it;</li>
 *   <li>{@link #httpJdbcV2Object}: jdbc-v2, {@code getObject} for every column;</li>
 *   <li>{@link #housepower}: housepower {@code clickhouse-native-jdbc} 2.7.1, typed getters.</li>
 * </ul>
 *
 * <p>All uncompressed. Every arm returns sum(id) + sum(string length) + (long) sum(f); setup checks the table
 * and then the answer of the arm about to be timed (each arm runs in its own fork). Milliseconds per full
 * read; one benchmark thread. The heap is fixed and touched at start as in {@link TableScanBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g", "-XX:+AlwaysPreTouch"})
@State(Scope.Benchmark)
public class JdbcReadBenchmark {
    private static final String SQL = TableScanBenchmark.SQL;

    private ClickHouseTcpClient tcp;
    private Connection ours;
    private Connection jdbcV2;
    private Connection housepower;
    private JdbcTemplate template;
    private JdbcClient client;
    private long[] ids;
    private String[] strings;
    private double[] floats;

    @Setup
    public void setUp(BenchmarkParams params) throws SQLException {
        tcp = HttpPeer.newTcpClient(false);
        TableScanBenchmark.ensureTable(tcp);
        String arm = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
        switch (arm) {
            case "jdbcTyped", "jdbcObject" -> ours = JdbcPeers.ours();
            case "jdbcClientRecords", "jdbcTemplateRecords", "jdbcTemplateLambda" -> {
                ours = JdbcPeers.ours();
                SingleConnectionDataSource ds = new SingleConnectionDataSource(ours, true);
                template = new JdbcTemplate(ds);
                client = JdbcClient.create(ds);
            }
            case "httpJdbcV2", "httpJdbcV2Object" -> jdbcV2 = JdbcPeers.jdbcV2();
            case "housepower" -> housepower = JdbcPeers.housepower();
            case "springFloorTemplateRecords", "springFloorClientRecords" -> loadRows();
            case "blockDecoded", "records" -> { }
            default -> throw new IllegalStateException("no connection for arm " + arm);
        }
        long actual = switch (arm) {
            case "jdbcTyped" -> jdbcTyped();
            case "jdbcObject" -> jdbcObject();
            case "jdbcClientRecords" -> jdbcClientRecords();
            case "jdbcTemplateRecords" -> jdbcTemplateRecords();
            case "jdbcTemplateLambda" -> jdbcTemplateLambda();
            case "records" -> records();
            case "springFloorTemplateRecords" -> springFloorTemplateRecords();
            case "springFloorClientRecords" -> springFloorClientRecords();
            case "httpJdbcV2" -> httpJdbcV2();
            case "httpJdbcV2Object" -> httpJdbcV2Object();
            case "housepower" -> housepower();
            default -> blockDecoded();
        };
        BenchmarkServer.check(arm + " checksum", Data.checksum(TableScanBenchmark.ROWS), actual);
    }

    /** The table's rows into the arrays of the in-memory arms, through our client's records. */
    private void loadRows() {
        ids = new long[(int) TableScanBenchmark.ROWS];
        strings = new String[ids.length];
        floats = new double[ids.length];
        int[] i = {0};
        tcp.forEach(SQL, TableRowsBenchmark.Rec.class, r -> {
            ids[i[0]] = r.id();
            strings[i[0]] = r.s();
            floats[i[0]++] = r.f();
        });
        checkRows(i[0]);
    }

    @TearDown
    public void tearDown() throws SQLException {
        try {
            for (Connection c : new Connection[] {ours, jdbcV2, housepower}) {
                if (c != null) {
                    c.close();
                }
            }
        } finally {
            tcp.close();
        }
    }

    /** Typed getters over one connection's {@code ResultSet}; checks the row count. */
    private static long typed(Connection c) throws SQLException {
        long[] n = new long[1];
        long sum = HousepowerBenchmark.read(c, SQL, n);
        checkRows(n[0]);
        return sum;
    }

    private static void checkRows(long rows) {
        if (rows != TableScanBenchmark.ROWS) {
            throw new IllegalStateException("rows: " + rows);
        }
    }

    @Benchmark
    public long jdbcTyped() throws SQLException {
        return typed(ours);
    }

    /** {@code getObject} for every column over one connection's {@code ResultSet}; checks the row count. */
    private static long objects(Connection c) throws SQLException {
        long sum = 0;
        double fsum = 0;
        long rows = 0;
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(SQL)) {
            while (rs.next()) {
                sum += ((Number) rs.getObject(1)).longValue() + ((String) rs.getObject(2)).length();
                fsum += ((Number) rs.getObject(3)).doubleValue();
                rows++;
            }
        }
        checkRows(rows);
        return sum + (long) fsum;
    }

    /** The checksum of a list of records; checks the row count. */
    private static long checksum(List<TableRowsBenchmark.Rec> recs) {
        long sum = 0;
        double fsum = 0;
        for (TableRowsBenchmark.Rec r : recs) {
            sum += r.id() + r.s().length();
            fsum += r.f();
        }
        checkRows(recs.size());
        return sum + (long) fsum;
    }

    @Benchmark
    public long jdbcObject() throws SQLException {
        return objects(ours);
    }

    @Benchmark
    public long jdbcClientRecords() {
        return checksum(client.sql(SQL).query(TableRowsBenchmark.Rec.class).list());
    }

    @Benchmark
    public long jdbcTemplateRecords() {
        return checksum(template.query(SQL, new DataClassRowMapper<>(TableRowsBenchmark.Rec.class)));
    }

    @Benchmark
    public long jdbcTemplateLambda() {
        return checksum(template.query(SQL, (rs, n) -> new TableRowsBenchmark.Rec(rs.getLong(1), rs.getString(2),
                rs.getDouble(3))));
    }

    @Benchmark
    public long springFloorTemplateRecords() throws SQLException {
        return checksum(new RowMapperResultSetExtractor<>(new DataClassRowMapper<>(TableRowsBenchmark.Rec.class))
                .extractData(new InMemoryResultSet(ids, strings, floats)));
    }

    @Benchmark
    public long springFloorClientRecords() throws SQLException {
        return checksum(new RowMapperResultSetExtractor<>(new SimplePropertyRowMapper<>(TableRowsBenchmark.Rec.class,
                DefaultConversionService.getSharedInstance())).extractData(new InMemoryResultSet(ids, strings, floats)));
    }

    @Benchmark
    public long records() {
        long[] acc = new long[1];
        double[] fsum = new double[1];
        long n = tcp.forEach(SQL, TableRowsBenchmark.Rec.class, r -> {
            acc[0] += r.id() + r.s().length();
            fsum[0] += r.f();
        });
        checkRows(n);
        return acc[0] + (long) fsum[0];
    }

    @Benchmark
    public long httpJdbcV2Object() throws SQLException {
        return objects(jdbcV2);
    }

    @Benchmark
    public long blockDecoded() {
        return Data.readBlocksDecoded(tcp, SQL, QueryOptions.DEFAULT);
    }

    @Benchmark
    public long httpJdbcV2() throws SQLException {
        return typed(jdbcV2);
    }

    @Benchmark
    public long housepower() throws SQLException {
        return typed(housepower);
    }
}
