package dev.clickhousetcp.benchmarks;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryOptions;
import dev.clickhousetcp.client.QueryResult;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;
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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The same 1,000,000 rows (UInt64, String, Float64) through each consumer tier: block (typed column
 * access, strings as byte lengths), typed getters (strings decoded), boxed {@code getObject}, the
 * Object[] tier ({@code queryRows}) and the POCO tier ({@code query(sql, Item.class)}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class ReadTiersBenchmark {
    static final int ROWS = 1_000_000;
    static final String SQL = Data.select(ROWS);

    private ClickHouseTcpClient client;

    @Setup
    public void setUp() {
        client = BenchmarkServer.newClient();
        long expected = Data.checksum(ROWS);
        long[] n = new long[1];
        BenchmarkServer.check("block tier checksum", expected, Data.readBlocks(client, SQL, QueryOptions.DEFAULT, n));
        BenchmarkServer.check("block tier rows", ROWS, n[0]);
        BenchmarkServer.check("typed getters checksum", expected, typed());
        BenchmarkServer.check("boxed getObject checksum", expected, boxed());
        BenchmarkServer.check("Object[] tier checksum", expected, objectRows());
        BenchmarkServer.check("POCO tier checksum", expected, poco());
        BenchmarkServer.check("record tier checksum", expected, pocoRecord());
        BenchmarkServer.check("hand-written mapping checksum", expected, handMapped());
    }

    @TearDown
    public void tearDown() {
        client.close();
    }

    @Benchmark
    public long block() {
        return Data.readBlocks(client, SQL, QueryOptions.DEFAULT, null);
    }

    @Benchmark
    public long typed() {
        return Data.readBlocksDecoded(client, SQL, QueryOptions.DEFAULT);
    }

    @Benchmark
    public long boxed() {
        long sum = 0;
        double fsum = 0;
        try (QueryResult r = client.query(SQL)) {
            Block b;
            while ((b = r.next()) != null) {
                Column n = b.column(0);
                Column s = b.column(1);
                Column f = b.column(2);
                int rows = b.rowCount();
                for (int i = 0; i < rows; i++) {
                    sum += ((Number) n.getObject(i)).longValue() + ((String) s.getObject(i)).length();
                    fsum += ((Number) f.getObject(i)).doubleValue();
                }
            }
        }
        return sum + (long) fsum;
    }

    @Benchmark
    public long objectRows() {
        List<Object[]> rows = client.queryRows(SQL);
        long sum = 0;
        double fsum = 0;
        for (Object[] row : rows) {
            sum += ((Number) row[0]).longValue() + ((String) row[1]).length();
            fsum += ((Number) row[2]).doubleValue();
        }
        if (rows.size() != ROWS) {
            throw new IllegalStateException("rows: " + rows.size());
        }
        return sum + (long) fsum;
    }

    @Benchmark
    public long poco() {
        return Data.checksumOf(client.query(SQL, Data.Item.class));
    }

    /** One row as a record, for {@link #pocoRecord}. */
    public record ItemRecord(long id, String name, double value) {
    }

    /** The POCO tier into records ({@code query(sql, ItemRecord.class)}: the canonical constructor per row). */
    @Benchmark
    public long pocoRecord() {
        long sum = 0;
        double fsum = 0;
        for (ItemRecord r : client.query(SQL, ItemRecord.class)) {
            sum += r.id() + r.name().length();
            fsum += r.value();
        }
        return sum + (long) fsum;
    }

    /**
     * The floor for the POCO tier: the same beans built by hand-written code over the typed getters
     * ({@code new Item(getLong, getString, getDouble)} per row into an {@code ArrayList}).
     */
    @Benchmark
    public long handMapped() {
        List<Data.Item> out = new ArrayList<>();
        try (QueryResult r = client.query(SQL)) {
            Block b;
            while ((b = r.next()) != null) {
                Column n = b.column(0);
                Column s = b.column(1);
                Column f = b.column(2);
                int rows = b.rowCount();
                for (int i = 0; i < rows; i++) {
                    out.add(new Data.Item(n.getLong(i), s.getString(i), f.getDouble(i)));
                }
            }
        }
        return Data.checksumOf(out);
    }
}
