package dev.clickhousetcp.benchmarks;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryResult;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.DateTimeColumn;
import dev.clickhousetcp.data.DecimalColumn;
import dev.clickhousetcp.data.UuidColumn;
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

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Stored type against projection: the same 1,000,000 rows of {@code DateTime('UTC')},
 * {@code Decimal(18, 4)}, {@code UInt32} and {@code UUID} (generated from {@code numbers()}) read on
 * the block tier with each column's typed getters, and mapped by {@code client.query(sql, Record.class)}
 * into records whose components are the columns' natural Java types ({@link Natural}:
 * {@code ZonedDateTime}, {@code BigDecimal}, {@code long}, {@code UUID}) or a projection. Each
 * projection arm changes exactly one component of {@link Natural} (DateTime as {@code Instant} or
 * {@code LocalDateTime}, Decimal as {@code double}, UInt32 as {@code int}, UUID as {@code String}), so
 * its difference from {@link #natural} is the cost of that one conversion; {@link #compact} takes the
 * cheapest projection of each column at once.
 *
 * <p>Every arm returns the same checksum: per row the epoch second, the unscaled decimal, the UInt32
 * and the two numbers packed into the UUID (see {@link #SQL}), compared in {@link #setUp} with the sum
 * computed in Java from the generating formula; the block tier's UUIDs are also checked bit for bit,
 * row by row. Rows, blocks and the server's work (including formatting and parsing the UUIDs) are the
 * same for every arm. The times include the server generating the rows and the mapped arms include
 * materializing the 1,000,000-element result list; they do not show what a column costs in
 * isolation, nor the cost on a real network.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class ProjectedReadBenchmark {
    static final int ROWS = 1_000_000;
    static final long EPOCH = 1_700_000_000L;
    /** UUID of row n: {@code (7n)-0000-4000-8000-(n)} in hex, i.e. high bits (7n << 32) | 0x4000, low bits 2^63 | n. */
    static final String SQL = "SELECT toDateTime(" + EPOCH + " + number, 'UTC') AS ts,"
            + " toDecimal64(number, 4) / 16 AS price,"
            + " toUInt32(number * 3 + 7) AS qty,"
            + " toUUID(concat(leftPad(lower(hex(number * 7)), 8, '0'), '-0000-4000-8000-',"
            + " leftPad(lower(hex(number)), 12, '0'))) AS id"
            + " FROM numbers(" + ROWS + ")";

    /** The columns' natural Java types (what {@code getObject} gives, UInt32 as a primitive long). */
    public record Natural(ZonedDateTime ts, BigDecimal price, long qty, UUID id) {
    }

    public record TsInstant(Instant ts, BigDecimal price, long qty, UUID id) {
    }

    public record TsLocalDateTime(LocalDateTime ts, BigDecimal price, long qty, UUID id) {
    }

    public record PriceDouble(ZonedDateTime ts, double price, long qty, UUID id) {
    }

    /** UInt32 into {@code int}: range-checked per value (every value here is below 2^31). */
    public record QtyInt(ZonedDateTime ts, BigDecimal price, int qty, UUID id) {
    }

    /** UUID as its text ({@code getString}). */
    public record IdString(ZonedDateTime ts, BigDecimal price, long qty, String id) {
    }

    /** The cheapest projection of each column: no zone, no BigDecimal, a 32-bit lane. */
    public record Compact(Instant ts, double price, int qty, UUID id) {
    }

    private ClickHouseTcpClient client;

    @Setup
    public void setUp() {
        client = BenchmarkServer.newClient();
        long expected = expectedChecksum(ROWS);
        verifyBlockTier();
        BenchmarkServer.check("block checksum", expected, block());
        BenchmarkServer.check("natural checksum", expected, natural());
        BenchmarkServer.check("tsInstant checksum", expected, tsInstant());
        BenchmarkServer.check("tsLocalDateTime checksum", expected, tsLocalDateTime());
        BenchmarkServer.check("priceDouble checksum", expected, priceDouble());
        BenchmarkServer.check("qtyInt checksum", expected, qtyInt());
        BenchmarkServer.check("idString checksum", expected, idString());
        BenchmarkServer.check("compact checksum", expected, compact());
    }

    @TearDown
    public void tearDown() {
        client.close();
    }

    /** Sum over n in [0, rows) of the per-row checksum, from the generating formula. */
    static long expectedChecksum(long rows) {
        long sum = 0;
        for (long n = 0; n < rows; n++) {
            sum += (EPOCH + n) + n * 625 + (3 * n + 7) + 8 * n;
        }
        return sum;
    }

    /**
     * Decimal contribution: the unscaled value at scale 4 (exact: every value is a multiple of 1/16,
     * so the double and its product with 10^4 are exact).
     */
    private static long unscaled(double price) {
        return Math.round(price * 10_000);
    }

    private static long unscaled(BigDecimal price) {
        return Math.round(price.doubleValue() * 10_000);
    }

    /** UUID contribution: the two numbers packed into it, 7n + n. */
    private static long packed(long msb, long lsb) {
        return (msb >>> 32) + (lsb & 0xFFFF_FFFF_FFFFL);
    }

    private static long packed(UUID id) {
        return packed(id.getMostSignificantBits(), id.getLeastSignificantBits());
    }

    /** The same numbers read from the text, without allocating. */
    private static long packed(String id) {
        return Long.parseLong(id, 0, 8, 16) + Long.parseLong(id, 24, 36, 16);
    }

    /** Slow, untimed: the row count and every UUID's 128 bits, row by row. */
    private void verifyBlockTier() {
        long rows = 0;
        try (QueryResult r = client.query(SQL)) {
            Block b;
            while ((b = r.next()) != null) {
                UuidColumn id = (UuidColumn) b.column(3);
                for (int i = 0, n = b.rowCount(); i < n; i++) {
                    BenchmarkServer.check("UUID high bits of row " + rows, (7 * rows) << 32 | 0x4000, id.getMostSignificantBits(i));
                    BenchmarkServer.check("UUID low bits of row " + rows, Long.MIN_VALUE | rows, id.getLeastSignificantBits(i));
                    rows++;
                }
            }
        }
        BenchmarkServer.check("row count", ROWS, rows);
    }

    /** Typed getters, no objects: epoch second, unscaled long, zero-extended UInt32, UUID halves. */
    @Benchmark
    public long block() {
        long sum = 0;
        try (QueryResult r = client.query(SQL)) {
            Block b;
            while ((b = r.next()) != null) {
                DateTimeColumn ts = (DateTimeColumn) b.column(0);
                DecimalColumn price = (DecimalColumn) b.column(1);
                Column qty = b.column(2);
                UuidColumn id = (UuidColumn) b.column(3);
                for (int i = 0, n = b.rowCount(); i < n; i++) {
                    sum += ts.getLong(i) + price.getUnscaledLong(i) + qty.getLong(i)
                            + packed(id.getMostSignificantBits(i), id.getLeastSignificantBits(i));
                }
            }
        }
        return sum;
    }

    @Benchmark
    public long natural() {
        long sum = 0;
        for (Natural r : client.query(SQL, Natural.class)) {
            sum += r.ts().toEpochSecond() + unscaled(r.price()) + r.qty() + packed(r.id());
        }
        return sum;
    }

    @Benchmark
    public long tsInstant() {
        long sum = 0;
        for (TsInstant r : client.query(SQL, TsInstant.class)) {
            sum += r.ts().getEpochSecond() + unscaled(r.price()) + r.qty() + packed(r.id());
        }
        return sum;
    }

    @Benchmark
    public long tsLocalDateTime() {
        long sum = 0;
        for (TsLocalDateTime r : client.query(SQL, TsLocalDateTime.class)) {
            sum += r.ts().toEpochSecond(ZoneOffset.UTC) + unscaled(r.price()) + r.qty() + packed(r.id());
        }
        return sum;
    }

    @Benchmark
    public long priceDouble() {
        long sum = 0;
        for (PriceDouble r : client.query(SQL, PriceDouble.class)) {
            sum += r.ts().toEpochSecond() + unscaled(r.price()) + r.qty() + packed(r.id());
        }
        return sum;
    }

    @Benchmark
    public long qtyInt() {
        long sum = 0;
        for (QtyInt r : client.query(SQL, QtyInt.class)) {
            sum += r.ts().toEpochSecond() + unscaled(r.price()) + r.qty() + packed(r.id());
        }
        return sum;
    }

    @Benchmark
    public long idString() {
        long sum = 0;
        for (IdString r : client.query(SQL, IdString.class)) {
            sum += r.ts().toEpochSecond() + unscaled(r.price()) + r.qty() + packed(r.id());
        }
        return sum;
    }

    @Benchmark
    public long compact() {
        long sum = 0;
        for (Compact r : client.query(SQL, Compact.class)) {
            sum += r.ts().getEpochSecond() + unscaled(r.price()) + r.qty() + packed(r.id());
        }
        return sum;
    }
}
