package dev.clickhousetcp.benchmarks;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The latency of {@code Statement.cancel()}: before each single-shot iteration (untimed) a query that never
 * ends by itself ({@code SELECT count() FROM system.numbers}, one thread) is started through our driver on
 * another thread and setup waits until {@code system.processes} shows it; the timed operation is
 * {@code cancel()} from the benchmark thread until {@code executeQuery} has thrown its SQLException. The same
 * connection runs every iteration, so each one also shows it stayed usable. Milliseconds; the JSON's
 * {@code scorePercentiles} give the p99 (target: 500 ms or less).
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5)
@Measurement(iterations = 40)
@Fork(value = 1, jvmArgsAppend = {"-Xmx512m"})
@State(Scope.Benchmark)
public class JdbcCancelBenchmark {
    private final String marker = "bench_jdbc_c1_" + ProcessHandle.current().pid();

    private ClickHouseTcpClient tcp;
    private Connection jdbc;
    private Statement statement;
    private ExecutorService runner;
    private CompletableFuture<SQLException> running;

    @Setup(Level.Trial)
    public void setUp() throws SQLException {
        tcp = HttpPeer.newTcpClient(false);
        jdbc = JdbcPeers.ours();
        runner = Executors.newSingleThreadExecutor();
    }

    /** Starts the endless query and waits (up to a minute) until the server runs it. */
    @Setup(Level.Iteration)
    public void start() throws SQLException {
        statement = jdbc.createStatement();
        String sql = "SELECT count() FROM system.numbers WHERE number != 0 /* " + marker + " */"
                + " SETTINGS max_threads = 1";
        running = CompletableFuture.supplyAsync(() -> {
            try (ResultSet rs = statement.executeQuery(sql)) {
                rs.next();
                return null;
            } catch (SQLException e) {
                return e;
            }
        }, runner);
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (((Number) tcp.queryRows("SELECT count() FROM system.processes WHERE query LIKE '%/* " + marker
                + " */%' AND query NOT LIKE '%system.processes%'").get(0)[0]).longValue() == 0) {
            if (running.isDone() || System.nanoTime() > deadline) {
                throw new IllegalStateException("the query to cancel is not running: " + running.getNow(null));
            }
        }
    }

    @TearDown(Level.Iteration)
    public void closeStatement() throws SQLException {
        statement.close();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws SQLException {
        try {
            runner.shutdownNow();
            jdbc.close();
        } finally {
            tcp.close();
        }
    }

    @Benchmark
    public String cancel() throws SQLException, InterruptedException, ExecutionException {
        statement.cancel();
        SQLException e = running.get();
        if (e == null) {
            throw new IllegalStateException("the cancelled query returned a result");
        }
        return e.getSQLState();
    }
}
