package dev.clickhousetcp.benchmarks;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.Compression;
import dev.clickhousetcp.client.QueryOptions;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The block-tier read and the columnar insert of 1,000,000 (UInt64, String, Float64) rows with the
 * connection's compression off, LZ4 or ZSTD (level 1). On loopback compression only costs CPU; it
 * pays on a real network, which this benchmark does not have.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class CompressionBenchmark {
    static final int ROWS = 1_000_000;
    static final String SQL = Data.select(ROWS);

    @Param({"NONE", "LZ4", "ZSTD"})
    public String codec;

    private final String table = "bench_compression_null_" + ProcessHandle.current().pid();
    private final String checkTable = "bench_compression_check_" + ProcessHandle.current().pid();
    private ClickHouseTcpClient client;
    private Map<String, Object> columns;

    static Compression compression(String name) {
        switch (name) {
            case "NONE":
                return Compression.NONE;
            case "LZ4":
                return Compression.LZ4;
            case "ZSTD":
                return Compression.ZSTD;
            default:
                throw new IllegalArgumentException(name);
        }
    }

    @Setup
    public void setUp() {
        client = BenchmarkServer.track(BenchmarkServer.builder().compression(compression(codec)).build());
        client.ping();
        long[] n = new long[1];
        BenchmarkServer.check(codec + " read checksum", Data.checksum(ROWS), Data.readBlocks(client, SQL, QueryOptions.DEFAULT, n));
        BenchmarkServer.check(codec + " read rows", ROWS, n[0]);
        columns = new LinkedHashMap<>();
        columns.put("id", Data.ids(ROWS));
        columns.put("name", Data.names(ROWS));
        columns.put("value", Data.values(ROWS));
        client.execute("DROP TABLE IF EXISTS " + checkTable);
        client.execute("CREATE TABLE " + checkTable + " " + Data.TABLE_COLUMNS + " ENGINE = Memory");
        try {
            client.insertColumns(checkTable, columns);
            Data.verifyTable(client, checkTable, ROWS, codec + " columnar insert");
        } finally {
            client.execute("DROP TABLE IF EXISTS " + checkTable);
        }
        client.execute("DROP TABLE IF EXISTS " + table);
        client.execute("CREATE TABLE " + table + " " + Data.TABLE_COLUMNS + " ENGINE = Null");
    }

    @TearDown
    public void tearDown() {
        try {
            client.execute("DROP TABLE IF EXISTS " + table);
        } finally {
            client.close();
        }
    }

    @Benchmark
    public long read() {
        return Data.readBlocks(client, SQL, QueryOptions.DEFAULT, null);
    }

    @Benchmark
    public long insert() {
        return client.insertColumns(table, columns);
    }
}
