package dev.clickhousetcp.benchmarks;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.data.category.DefaultCategoryDataset;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns a JMH JSON result file into a Markdown table and a PNG chart.
 *
 * <pre>java -cp benchmarks.jar dev.clickhousetcp.benchmarks.Report results.json results.md results.png</pre>
 *
 * Per benchmark and parameter set: mean ± error, the best and the median measured iteration, allocation
 * per operation ({@code gc.alloc.rate.norm}) and, where the class has an {@code http*} method with the same
 * parameters, the ratio to that HTTP arm (best to best and median to median; lower is faster). The chart
 * shows the best-iteration ratios of the arms that have an HTTP baseline, or the best times otherwise.
 */
public final class Report {
    private Report() {
    }

    record Row(String clazz, String method, String params, String unit, double mean, double error, double best,
               double median, double alloc) {
        String key() {
            return clazz + "|" + params;
        }
    }

    public static void main(String[] args) throws Exception {
        Path json = Path.of(args[0]);
        Path md = Path.of(args[1]);
        Path png = Path.of(args[2]);
        List<?> results = (List<?>) new Json(Files.readString(json, StandardCharsets.UTF_8)).value();
        List<Row> rows = new ArrayList<>();
        for (Object o : results) {
            Map<?, ?> r = (Map<?, ?>) o;
            String bench = (String) r.get("benchmark");
            int dot = bench.lastIndexOf('.');
            String clazz = bench.substring(bench.lastIndexOf('.', dot - 1) + 1, dot);
            String method = bench.substring(dot + 1);
            Map<?, ?> p = (Map<?, ?>) r.get("params");
            String params = p == null ? "" : new TreeMap<>(p).toString().replaceAll("[{}]", "");
            Map<?, ?> pm = (Map<?, ?>) r.get("primaryMetric");
            List<Double> its = new ArrayList<>();
            for (Object fork : (List<?>) pm.get("rawData")) {
                for (Object v : (List<?>) fork) {
                    its.add(((Number) v).doubleValue());
                }
            }
            double[] a = its.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            double median = a.length == 0 ? Double.NaN
                    : a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
            double best = a.length == 0 ? Double.NaN : a[0];
            double alloc = Double.NaN;
            Map<?, ?> sec = (Map<?, ?>) r.get("secondaryMetrics");
            if (sec != null && sec.get("gc.alloc.rate.norm") != null) {
                alloc = num(((Map<?, ?>) sec.get("gc.alloc.rate.norm")).get("score"));
            }
            rows.add(new Row(clazz, method, params, (String) pm.get("scoreUnit"), num(pm.get("score")),
                    num(pm.get("scoreError")), best, median, alloc));
        }
        Map<String, Row> http = new LinkedHashMap<>();
        for (Row r : rows) {
            // the class's HTTP baseline: its shortest http* arm (httpJdbcV2 before httpJdbcV2Object)
            Row seen = http.get(r.key());
            if (r.method.startsWith("http") && (seen == null || r.method.length() < seen.method.length())) {
                http.put(r.key(), r);
            }
        }
        StringBuilder sb = new StringBuilder();
        sb.append("| benchmark | params | mean ± error | best | median | unit | alloc/op | ratio to HTTP (best) | ratio to HTTP (median) |\n");
        sb.append("|---|---|---:|---:|---:|---|---:|---:|---:|\n");
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        boolean anyRatio = !http.isEmpty();
        for (Row r : rows) {
            Row h = http.get(r.key());
            String rb = h == null ? "—" : String.format(Locale.ROOT, "%.2f", r.best / h.best);
            String rm = h == null ? "—" : String.format(Locale.ROOT, "%.2f", r.median / h.median);
            sb.append(String.format(Locale.ROOT, "| %s.%s | %s | %s ± %s | %s | %s | %s | %s | %s | %s |\n", r.clazz, r.method,
                    r.params.isEmpty() ? "—" : r.params, fmt(r.mean), fmt(r.error), fmt(r.best), fmt(r.median), r.unit,
                    bytes(r.alloc), rb, rm));
            String series = r.params.isEmpty() ? "—" : r.params;
            if (anyRatio) {
                if (h != null) {
                    data.addValue(r.best / h.best, series, r.clazz.replace("Benchmark", "") + "." + r.method);
                }
            } else {
                data.addValue(r.best, r.unit, r.clazz.replace("Benchmark", "") + "." + r.method + " " + series);
            }
        }
        Files.writeString(md, sb.toString(), StandardCharsets.UTF_8);
        System.setProperty("java.awt.headless", "true");
        JFreeChart chart = ChartFactory.createBarChart(
                anyRatio ? "Time relative to client-v2 (HTTP), best iteration; lower is faster" : "Best iteration",
                null, anyRatio ? "ratio to HTTP arm" : "time per operation", data, PlotOrientation.HORIZONTAL, true, false, false);
        int height = Math.max(300, 40 + 28 * data.getColumnCount() * Math.max(1, data.getRowCount()));
        ChartUtils.saveChartAsPNG(new File(png.toString()), chart, 900, Math.min(height, 2400));
        System.out.println("report: " + md + ", chart: " + png);
    }

    private static double num(Object o) {
        if (o instanceof Number n) {
            return n.doubleValue();
        }
        return Double.NaN; // JMH writes "NaN" as a string
    }

    private static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        if (v >= 100) {
            return String.format(Locale.ROOT, "%,.1f", v);
        }
        return String.format(Locale.ROOT, "%.3f", v);
    }

    private static String bytes(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        if (v >= 1 << 20) {
            return String.format(Locale.ROOT, "%.1f MB", v / (1 << 20));
        }
        if (v >= 1 << 10) {
            return String.format(Locale.ROOT, "%.1f KB", v / (1 << 10));
        }
        return String.format(Locale.ROOT, "%.0f B", v);
    }

    /** A minimal JSON reader (objects, arrays, strings, numbers, literals): enough for JMH's result file. */
    static final class Json {
        private final String s;
        private int i;

        Json(String s) {
            this.s = s;
        }

        Object value() {
            ws();
            char c = s.charAt(i);
            switch (c) {
                case '{': {
                    i++;
                    Map<String, Object> m = new LinkedHashMap<>();
                    ws();
                    if (s.charAt(i) == '}') {
                        i++;
                        return m;
                    }
                    while (true) {
                        ws();
                        String k = string();
                        ws();
                        i++; // ':'
                        m.put(k, value());
                        ws();
                        if (s.charAt(i++) == '}') {
                            return m;
                        }
                    }
                }
                case '[': {
                    i++;
                    List<Object> l = new ArrayList<>();
                    ws();
                    if (s.charAt(i) == ']') {
                        i++;
                        return l;
                    }
                    while (true) {
                        l.add(value());
                        ws();
                        if (s.charAt(i++) == ']') {
                            return l;
                        }
                    }
                }
                case '"':
                    return string();
                default: {
                    int st = i;
                    while (i < s.length() && ",}] \n\r\t".indexOf(s.charAt(i)) < 0) {
                        i++;
                    }
                    String t = s.substring(st, i);
                    if (t.equals("null")) {
                        return null;
                    }
                    if (t.equals("true") || t.equals("false")) {
                        return Boolean.valueOf(t);
                    }
                    return Double.valueOf(t);
                }
            }
        }

        private String string() {
            StringBuilder b = new StringBuilder();
            i++;
            while (true) {
                char c = s.charAt(i++);
                if (c == '"') {
                    return b.toString();
                }
                if (c == '\\') {
                    char e = s.charAt(i++);
                    switch (e) {
                        case 'n': b.append('\n'); break;
                        case 't': b.append('\t'); break;
                        case 'r': b.append('\r'); break;
                        case 'b': b.append('\b'); break;
                        case 'f': b.append('\f'); break;
                        case 'u': b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; break;
                        default: b.append(e);
                    }
                } else {
                    b.append(c);
                }
            }
        }

        private void ws() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }
    }

}
