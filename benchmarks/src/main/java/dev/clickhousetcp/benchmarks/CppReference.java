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
import java.util.Locale;

/**
 * Macro harness (not JMH): wall time of the C++ native client
 * {@code clickhouse-client --query "SELECT number, toString(number), toFloat64(number) FROM numbers(N) FORMAT Native" > /dev/null}
 * (the whole process: start, connect, receive, write, exit) against warm in-process reads of the same
 * rows by our block tier, client-v2 (uncompressed HTTP) and housepower native JDBC. Prints best and
 * median of the repetitions as a Markdown table and writes it to the file given as the first argument.
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
        }
        try (Client http = HttpPeer.newHttpClient(false)) {
            double[] t = time(reps, () -> HttpPeer.read(http, sql, null), expected);
            lines.add(row("client-v2 0.10.0 RowBinary reader, uncompressed, warm", t, cppBest));
        }
        try (Connection c = HousepowerBenchmark.openJdbc()) {
            double[] t = time(reps, () -> HousepowerBenchmark.read(c, sql, null), expected);
            lines.add(row("housepower clickhouse-native-jdbc 2.7.1 ResultSet, warm", t, cppBest));
        }
        String text = String.join("\n", lines) + "\n";
        System.out.print(text);
        Files.writeString(out, text, StandardCharsets.UTF_8);
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
