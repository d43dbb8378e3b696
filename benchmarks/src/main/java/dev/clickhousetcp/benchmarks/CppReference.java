package dev.clickhousetcp.benchmarks;

import com.clickhouse.client.api.Client;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryOptions;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Macro harness (not JMH): wall time of the C++ native client
 * {@code clickhouse-client --query "SELECT number, toString(number), toFloat64(number) FROM numbers(N) FORMAT Native" > /dev/null}
 * (the whole process: start, connect, receive, write, exit) against warm in-process reads of the same
 * rows by our block tier (strings as byte lengths, and decoded), client-v2 (uncompressed HTTP) and
 * housepower native JDBC; then the same rows inserted into a {@code Null}-engine table by
 * {@code clickhouse-client --query "INSERT INTO t FORMAT Native" < file} (the whole process, from a file
 * the C++ client wrote with the SELECT above) against our warm columnar insert ({@code insertColumns}) of
 * them. Prints best and median of the repetitions as Markdown tables and writes them to the file given as
 * the first argument.
 *
 * <pre>java -cp benchmarks.jar dev.clickhousetcp.benchmarks.CppReference out.md [rows] [repetitions]</pre>
 */
public final class CppReference {
    private CppReference() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "cpp-reference.md");
        long rows = args.length > 1 ? Long.parseLong(args[1]) : 5_000_000L;
        int reps = args.length > 2 ? Integer.parseInt(args[2]) : 7;
        String sql = "SELECT number, toString(number), toFloat64(number) FROM numbers(" + rows + ")";
        long expected = Data.checksum(rows);
        List<String> lines = new ArrayList<>();
        lines.add("| reader (" + String.format(Locale.ROOT, "%,d", rows) + " rows of UInt64, String, Float64) | best (s) | median (s) | ratio of best to C++ best | runs |");
        lines.add("|---|---:|---:|---:|---:|");

        // C++: check the output once (its size must hold every value), then time runs to /dev/null.
        List<String> cmd = List.of("clickhouse-client", "--host", BenchmarkServer.host(), "--port",
                Integer.toString(BenchmarkServer.port()), "--query", sql + " FORMAT Native");
        File tmp = File.createTempFile("cpp-native", ".bin");
        try {
            Process p = new ProcessBuilder(cmd).redirectOutput(tmp).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            if (p.waitFor() != 0) {
                throw new IllegalStateException("clickhouse-client failed");
            }
            long minBytes = rows * 8 + rows + BenchmarkServer.digitsBelow(rows) + rows * 8;
            if (tmp.length() < minBytes) {
                throw new IllegalStateException("clickhouse-client wrote " + tmp.length() + " bytes, fewer than the " + minBytes
                        + " the values need");
            }
        } finally {
            Files.deleteIfExists(tmp.toPath());
        }
        double[] cpp = new double[reps];
        for (int i = 0; i < reps; i++) {
            long t0 = System.nanoTime();
            Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            if (p.waitFor() != 0) {
                throw new IllegalStateException("clickhouse-client failed");
            }
            cpp[i] = (System.nanoTime() - t0) / 1e9;
        }
        double cppBest = min(cpp);
        lines.add(row("C++ clickhouse-client 18.16, FORMAT Native > /dev/null (whole process)", cpp, cppBest));

        try (ClickHouseTcpClient tcp = BenchmarkServer.newClient()) {
            double[] t = time(reps, () -> {
                long[] n = new long[1];
                long sum = Data.readBlocks(tcp, sql, QueryOptions.DEFAULT, n);
                BenchmarkServer.check("tcp rows", rows, n[0]);
                return sum;
            }, expected);
            lines.add(row("clickhouse-tcp block tier, warm, in-process", t, cppBest));
            t = time(reps, () -> Data.readBlocksDecoded(tcp, sql, QueryOptions.DEFAULT), expected);
            lines.add(row("clickhouse-tcp block tier, strings decoded, warm, in-process", t, cppBest));
        }
        try (Client http = HttpPeer.newHttpClient(false)) {
            double[] t = time(reps, () -> HttpPeer.read(http, sql, null), expected);
            lines.add(row("client-v2 0.10.0 RowBinary reader, uncompressed, warm", t, cppBest));
        }
        try (Connection c = HousepowerBenchmark.openJdbc()) {
            double[] t = time(reps, () -> HousepowerBenchmark.read(c, sql, null), expected);
            lines.add(row("housepower clickhouse-native-jdbc 2.7.1 ResultSet, warm", t, cppBest));
        }
        insert(rows, reps, lines);
        String text = String.join("\n", lines) + "\n";
        System.out.print(text);
        Files.writeString(out, text, StandardCharsets.UTF_8);
    }

    /**
     * The insert comparison: a Native file of the rows written once by the C++ client, inserted by it
     * {@code reps} times into a {@code Null} table (each run a whole process), against our columnar insert of the
     * same values; the rows arriving are checked once through a {@code Memory} table for each client.
     */
    private static void insert(long rows, int reps, List<String> lines) throws Exception {
        int n = Math.toIntExact(rows);
        String select = "SELECT number AS id, toString(number) AS name, toFloat64(number) AS value FROM numbers(" + n + ")";
        String nullTable = "bench_cpp_null_" + ProcessHandle.current().pid();
        String checkTable = "bench_cpp_check_" + ProcessHandle.current().pid();
        File file = File.createTempFile("cpp-insert", ".native");
        try (ClickHouseTcpClient tcp = BenchmarkServer.newClient()) {
            tcp.execute("CREATE TABLE " + nullTable + " " + Data.TABLE_COLUMNS + " ENGINE = Null");
            tcp.execute("CREATE TABLE " + checkTable + " " + Data.TABLE_COLUMNS + " ENGINE = Memory");
            try {
                run(client(select + " FORMAT Native"), null, file);
                run(client("INSERT INTO " + checkTable + " FORMAT Native"), file, null);
                Data.verifyTable(tcp, checkTable, n, "C++ INSERT FORMAT Native");
                tcp.execute("TRUNCATE TABLE " + checkTable);
                Map<String, Object> columns = new LinkedHashMap<>();
                columns.put("id", Data.ids(n));
                columns.put("name", Data.names(n));
                columns.put("value", Data.values(n));
                tcp.insertColumns(checkTable, columns);
                Data.verifyTable(tcp, checkTable, n, "insertColumns");
                tcp.execute("DROP TABLE IF EXISTS " + checkTable);

                double[] cpp = new double[reps];
                for (int i = 0; i < reps; i++) {
                    long t0 = System.nanoTime();
                    run(client("INSERT INTO " + nullTable + " FORMAT Native"), file, null);
                    cpp[i] = (System.nanoTime() - t0) / 1e9;
                }
                double[] ours = time(reps, () -> tcp.insertColumns(nullTable, columns), rows);
                lines.add("");
                lines.add("| writer (" + String.format(Locale.ROOT, "%,d", rows)
                        + " rows of UInt64, String, Float64 into a Null table) | best (s) | median (s) | ratio of best to C++ best | runs |");
                lines.add("|---|---:|---:|---:|---:|");
                lines.add(row("C++ clickhouse-client 18.16, INSERT FORMAT Native < file (whole process)", cpp, min(cpp)));
                lines.add(row("clickhouse-tcp insertColumns, warm, in-process", ours, min(cpp)));
            } finally {
                tcp.execute("DROP TABLE IF EXISTS " + nullTable);
                tcp.execute("DROP TABLE IF EXISTS " + checkTable);
                Files.deleteIfExists(file.toPath());
            }
        }
    }

    private static List<String> client(String query) {
        return List.of("clickhouse-client", "--host", BenchmarkServer.host(), "--port",
                Integer.toString(BenchmarkServer.port()), "--query", query);
    }

    /** Runs {@code cmd} with standard input from {@code in} and output to {@code out} (null: none, discarded). */
    private static void run(List<String> cmd, File in, File out) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT)
                .redirectOutput(out == null ? ProcessBuilder.Redirect.DISCARD : ProcessBuilder.Redirect.to(out));
        if (in != null) {
            pb.redirectInput(in);
        }
        Process p = pb.start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("clickhouse-client failed: " + cmd.get(cmd.size() - 1));
        }
    }

    interface Read {
        long run() throws Exception;
    }

    /** Three untimed warm-up reads, then {@code reps} timed ones; every read's checksum is checked. */
    private static double[] time(int reps, Read read, long expected) throws Exception {
        for (int i = 0; i < 3; i++) {
            BenchmarkServer.check("warm-up checksum", expected, read.run());
        }
        double[] t = new double[reps];
        for (int i = 0; i < reps; i++) {
            long t0 = System.nanoTime();
            long sum = read.run();
            t[i] = (System.nanoTime() - t0) / 1e9;
            BenchmarkServer.check("checksum", expected, sum);
        }
        return t;
    }

    private static double min(double[] a) {
        return Arrays.stream(a).min().orElseThrow();
    }

    private static double median(double[] a) {
        double[] s = a.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static String row(String name, double[] t, double cppBest) throws IOException {
        return String.format(Locale.ROOT, "| %s | %.3f | %.3f | %.2f× | %d |", name, min(t), median(t), min(t) / cppBest, t.length);
    }
}
