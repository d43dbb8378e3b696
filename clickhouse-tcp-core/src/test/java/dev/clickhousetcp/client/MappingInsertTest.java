package dev.clickhousetcp.client;

import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.mapping.ClickHouseColumn;
import dev.clickhousetcp.mapping.MappingException;
import dev.clickhousetcp.mapping.SchemaReport;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import dev.clickhousetcp.testsupport.FaultProxy;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Instant;
import java.time.LocalDate;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Inserts of objects, {@code Object[]} rows and columns read earlier, checked by the server itself:
 * every table is compared with a reference table the server generated from the same formulas.
 */
@ClickHouseTest
class MappingInsertTest {
    static final String COLUMNS = "(id UInt64, name String, price Float64, qty Nullable(Int32), day Date, "
            + "ts DateTime('UTC'), tags Array(String), kind LowCardinality(String), color Enum8('RED' = 1, 'GREEN' = 2, 'BLUE' = 3))";
    static final String REFERENCE = "SELECT number, concat('n', toString(number % 1000)), number * 0.25, "
            + "if(number % 5 = 0, NULL, toInt32(number % 1000) - 500), toDate('2024-01-01') + number % 100, "
            + "toDateTime(1700000000 + number, 'UTC'), arrayMap(x -> toString(x), range(number % 4)), "
            + "['a', 'b', 'c'][number % 3 + 1], ['RED', 'GREEN', 'BLUE'][number % 3 + 1] FROM numbers(%d)";
    static final String CHECK = "SELECT count(), sum(cityHash64(id, name, price, qty, day, ts, tags, kind, color)) FROM ";

    public enum Color { RED, GREEN, BLUE }

    public record Row(long id, String name, double price, Integer qty, LocalDate day, Instant ts, List<String> tags,
                      String kind, Color color) {
        static Row of(long i) {
            List<String> tags = new ArrayList<>();
            for (int k = 0; k < i % 4; k++) {
                tags.add(Integer.toString(k));
            }
            return new Row(i, "n" + (i % 1000), i * 0.25, i % 5 == 0 ? null : (int) (i % 1000) - 500,
                    LocalDate.of(2024, 1, 1).plusDays(i % 100), Instant.ofEpochSecond(1_700_000_000L + i), tags,
                    String.valueOf("abc".charAt((int) (i % 3))), Color.values()[(int) (i % 3)]);
        }

        Object[] toArray() {
            return new Object[] {id, name, price, qty, day, ts, tags, kind, color.name()};
        }
    }

    /** A list of {@code n} rows generated on access (no row kept). */
    static List<Row> rows(int n) {
        return new AbstractList<>() {
            @Override
            public Row get(int index) {
                return Row.of(index);
            }

            @Override
            public int size() {
                return n;
            }
        };
    }

    @Test
    void millionRowsInEveryShapeReadBackIdentical() {
        ClickHouseServer server = ClickHouseServers.modern();
        int n = 1_000_000;
        String ref = TestClients.table("ref");
        String pojo = TestClients.table("pojo");
        String rowsT = TestClients.table("rows");
        String cols = TestClients.table("cols");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            for (String t : List.of(ref, pojo, rowsT, cols)) {
                client.execute("CREATE TABLE " + t + " " + COLUMNS + " ENGINE = MergeTree ORDER BY id");
            }
            try {
                client.execute("INSERT INTO " + ref + " " + REFERENCE.replace("%d", Integer.toString(n)));
                String expected = server.httpQuery(CHECK + ref);
                assertThat(expected).startsWith(n + "\t");

                assertThat(client.insert(pojo, rows(n))).isEqualTo(n);
                assertThat(server.httpQuery(CHECK + pojo)).isEqualTo(expected);

                Iterable<Object[]> arrays = () -> rows(n).stream().map(Row::toArray).iterator();
                assertThat(client.insert(rowsT, List.of("id", "name", "price", "qty", "day", "ts", "tags", "kind", "color"),
                        arrays, InsertOptions.builder().maxRowsPerBlock(50_000).build())).isEqualTo(n);
                assertThat(server.httpQuery(CHECK + rowsT)).isEqualTo(expected);

                // columnar: the blocks of one query re-sent as they arrive, columns copied in their native layout
                try (QueryResult r = client.query("SELECT * FROM " + ref)) {
                    assertThat(client.insertBlocks(cols, r, InsertOptions.DEFAULT)).isEqualTo(n);
                }
                assertThat(server.httpQuery(CHECK + cols)).isEqualTo(expected);

                // and read back through the object tier: the same rows
                List<Row> back = client.query("SELECT * FROM " + pojo + " ORDER BY id LIMIT 1000", Row.class);
                assertThat(back).isEqualTo(rows(1000));
            } finally {
                for (String t : List.of(ref, pojo, rowsT, cols)) {
                    client.execute("DROP TABLE IF EXISTS " + t);
                }
            }
        }
    }

    @Test
    void columnsOfEveryLayoutAreResentAsTheyAre() {
        ClickHouseServer server = ClickHouseServers.modern();
        String src = TestClients.table("csrc");
        String dst = TestClients.table("cdst");
        String schema = "(id UInt32, n Nullable(String), a Array(Nullable(Int16)), aa Array(Array(String)), "
                + "lc LowCardinality(Nullable(String)), m Map(String, Array(UInt8)), t Tuple(a UInt8, b Nullable(String)), "
                + "fs FixedString(3), d DateTime64(3, 'UTC'), u UUID, e Enum16('x' = -1000, 'y' = 1000), b Bool)";
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + src + " " + schema + " ENGINE = MergeTree ORDER BY id");
            client.execute("CREATE TABLE " + dst + " " + schema + " ENGINE = MergeTree ORDER BY id");
            try {
                client.execute("INSERT INTO " + src + " SELECT number, if(number % 3 = 0, NULL, toString(number)), "
                        + "arrayMap(x -> if(x % 2 = 0, NULL, toInt16(x)), range(number % 5)), "
                        + "[arrayMap(x -> toString(x), range(number % 3)), ['z']], "
                        + "if(number % 4 = 0, NULL, concat('v', toString(number % 50))), "
                        + "map('k', [toUInt8(number % 256)], concat('j', toString(number % 7)), []), "
                        + "(number % 256, if(number % 2 = 0, NULL, 'q')), toFixedString(toString(number % 1000), 3), "
                        + "toDateTime64(number / 1000, 3, 'UTC'), generateUUIDv4(), if(number % 2 = 0, 'x', 'y'), "
                        + "number % 2 = 0 FROM numbers(300000)");
                List<Block> copies = new ArrayList<>();
                try (QueryResult r = client.query("SELECT * FROM " + src + " ORDER BY id")) {
                    for (Block b : r) {
                        copies.add(b.copy());
                    }
                }
                long n = 0;
                for (Block b : copies) {
                    n += client.insertBlock(dst, b);
                }
                assertThat(n).isEqualTo(300_000);
                String check = "SELECT count(), sum(cityHash64(*)) FROM ";
                assertThat(server.httpQuery(check + dst)).isEqualTo(server.httpQuery(check + src));
                // one column copied, another converted (Int64 column -> UInt32 table column)
                java.util.Map<String, Object> one = new java.util.LinkedHashMap<>();
                Block first = copies.get(0);
                one.put("id", client.query("SELECT toInt64(number) + 1000000 AS id FROM numbers(" + first.rowCount() + ")",
                        Long.class).stream().mapToLong(Long::longValue).toArray());
                for (String c : first.names()) {
                    if (!c.equals("id")) {
                        one.put(c, first.column(c));
                    }
                }
                assertThat(client.insertColumns(dst, one)).isEqualTo(first.rowCount());
                assertThat(server.httpQuery("SELECT count() FROM " + dst + " WHERE id >= 1000000").trim())
                        .isEqualTo(Integer.toString(first.rowCount()));
            } finally {
                client.execute("DROP TABLE IF EXISTS " + src);
                client.execute("DROP TABLE IF EXISTS " + dst);
            }
        }
    }

    public record Light(long id, String name, double x) {
    }

    @Test
    void fiveMillionRowsFromALazyStreamKeepTheHeapBounded() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("stream5m");
        int n = 5_000_000;
        MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (id UInt64, name String, x Float64) ENGINE = MergeTree ORDER BY id");
            try {
                System.gc();
                long baseline = mem.getHeapMemoryUsage().getUsed();
                long[] peak = {0};
                Stream<Light> source = LongStream.range(0, n).mapToObj(i -> {
                    if (i % 500_000 == 250_000) {
                        System.gc();
                        peak[0] = Math.max(peak[0], mem.getHeapMemoryUsage().getUsed() - baseline);
                    }
                    return new Light(i, "name-" + i, i * 0.5);
                });
                assertThat(client.insert(t, Light.class, source, InsertOptions.DEFAULT)).isEqualTo(n);
                System.out.println("5M-row stream insert: retained heap above baseline at most " + (peak[0] >> 20) + " MiB");
                assertThat(peak[0]).as("retained heap above baseline").isLessThan(64L << 20);
                assertThat(server.httpQuery("SELECT count(), sum(id), sum(x), uniqExact(name) FROM " + t).trim())
                        .isEqualTo(n + "\t" + (long) n * (n - 1) / 2 + "\t" + (long) n * (n - 1) / 4 + "\t" + n);
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    @Test
    void safeRetryAfterADroppedConnectionNeitherLosesNorDuplicates() throws Exception {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("dedup");
        int n = 200_000;
        int blockRows = 10_000;
        try (ClickHouseTcpClient admin = TestClients.client(server);
             FaultProxy proxy = new FaultProxy(server.host(), server.tcpPort());
             ClickHouseTcpClient client = TestClients.builder(server).port(proxy.port()).build()) {
            admin.execute("CREATE TABLE " + t + " (id UInt64, name String, x Float64) ENGINE = MergeTree ORDER BY id "
                    + "SETTINGS non_replicated_deduplication_window = 1000");
            try {
                AtomicBoolean dropOnce = new AtomicBoolean(true);
                // re-iterable, lazily generated; the first pass drops the connection inside block 8
                Iterable<Light> source = () -> new Iterator<>() {
                    private long i;

                    @Override
                    public boolean hasNext() {
                        return i < n;
                    }

                    @Override
                    public Light next() {
                        if (i == 8L * blockRows + 1234 && dropOnce.getAndSet(false)) {
                            proxy.dropAllGracefully();
                        }
                        long v = i++;
                        return new Light(v, "name-" + v, v * 0.5);
                    }
                };
                InsertOptions opts = InsertOptions.builder().deduplicationToken("load-42").tokenPerBlock(true)
                        .maxRowsPerBlock(blockRows).build();
                assertThatThrownBy(() -> client.insert(t, Light.class, source, opts))
                        .isInstanceOf(dev.clickhousetcp.ClickHouseConnectionException.class);
                // the blocks sent before the drop are committed
                assertThat(server.httpQuery("SELECT count() FROM " + t).trim()).isEqualTo(Long.toString(8L * blockRows));
                // retry from the start with the same token and block size
                assertThat(client.insert(t, Light.class, source, opts)).isEqualTo(n);
                assertThat(server.httpQuery("SELECT count(), uniqExact(id), sum(id) FROM " + t).trim())
                        .isEqualTo(n + "\t" + n + "\t" + (long) n * (n - 1) / 2);
                // automatic retries: the same drop once more, maxAttempts = 3, new token
                dropOnce.set(true);
                admin.execute("TRUNCATE TABLE " + t);
                InsertOptions auto = InsertOptions.builder().deduplicationToken("load-43").tokenPerBlock(true)
                        .maxRowsPerBlock(blockRows).maxAttempts(3).build();
                assertThat(client.insert(t, Light.class, source, auto)).isEqualTo(n);
                assertThat(dropOnce.get()).isFalse();
                assertThat(server.httpQuery("SELECT count(), uniqExact(id), sum(id) FROM " + t).trim())
                        .isEqualTo(n + "\t" + n + "\t" + (long) n * (n - 1) / 2);
                // the same token again inserts nothing new
                client.insert(t, Light.class, source, auto);
                assertThat(server.httpQuery("SELECT count() FROM " + t).trim()).isEqualTo(Integer.toString(n));
            } finally {
                admin.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    public record WithDefaults(long id, String name) {
    }

    public record Extra(long id, String name, String nickname) {
    }

    public record WrongTypes(long id, List<String> name, LocalDate when) {
    }

    @Test
    void mismatchesFailBeforeAnyRowIsSent() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("mism");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (id UInt64, name String, created DateTime DEFAULT now(), "
                    + "score Float64 DEFAULT 1.5, code String, when UUID) ENGINE = MergeTree ORDER BY id");
            try {
                assertThatThrownBy(() -> client.insert(t, List.of(new WithDefaults(1, "a"))))
                        .isInstanceOf(MappingException.class)
                        .hasMessageContaining("column 'code' (String) has no default and no property")
                        .hasMessageContaining("column 'when' (UUID) has no default");
                assertThatThrownBy(() -> client.insert(t, List.of(new Extra(1, "a", "b"))))
                        .isInstanceOf(MappingException.class).hasMessageContaining("Extra.nickname (String, getter) has no column");
                assertThatThrownBy(() -> client.insert(t, List.of(new WrongTypes(1, List.of("x"), LocalDate.now()))))
                        .isInstanceOf(MappingException.class)
                        .hasMessageContaining("column 'name' (String) <- WrongTypes.name")
                        .hasMessageContaining("column 'when' (UUID) <- WrongTypes.when");
                assertThat(server.httpQuery("SELECT count() FROM " + t).trim()).isEqualTo("0");
                assertThat(client.poolStats().active()).isZero();
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    public static class Bean {
        private long id;
        private String userName;
        private Optional<Integer> score = Optional.empty();
        private Color color;
        private boolean active;

        public Bean() {
        }

        Bean(long id, String userName, Integer score, Color color, boolean active) {
            this.id = id;
            this.userName = userName;
            this.score = Optional.ofNullable(score);
            this.color = color;
            this.active = active;
        }

        public long getId() {
            return id;
        }

        public void setId(long id) {
            this.id = id;
        }

        @ClickHouseColumn("user")
        public String getUserName() {
            return userName;
        }

        @ClickHouseColumn("user")
        public void setUserName(String userName) {
            this.userName = userName;
        }

        public Optional<Integer> getScore() {
            return score;
        }

        public void setScore(Optional<Integer> score) {
            this.score = score;
        }

        public Color getColor() {
            return color;
        }

        public void setColor(Color color) {
            this.color = color;
        }

        public boolean isActive() {
            return active;
        }

        public void setActive(boolean active) {
            this.active = active;
        }
    }

    @Test
    void beansWithDefaultsOptionalsEnumsAndAsyncInsert() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("beans");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (id UInt64, user String, score Nullable(Int32), color String, "
                    + "active Bool, inserted DateTime DEFAULT now()) ENGINE = MergeTree ORDER BY id");
            try {
                List<Bean> beans = List.of(new Bean(1, "ann", 5, Color.RED, true), new Bean(2, "bob", null, Color.BLUE, false));
                assertThat(client.insert(t, Bean.class, beans, InsertOptions.builder().asyncInsert(true, true).build()))
                        .isEqualTo(2);
                assertThat(server.httpQuery("SELECT id, user, score, color, active FROM " + t + " ORDER BY id FORMAT TSV"))
                        .isEqualTo("1\tann\t5\tRED\ttrue\n2\tbob\t\\N\tBLUE\tfalse\n");
                List<Bean> back = client.query("SELECT id, user, score, color, active FROM " + t + " ORDER BY id", Bean.class);
                assertThat(back).extracting(Bean::getId, Bean::getUserName, Bean::getScore, Bean::getColor, Bean::isActive)
                        .containsExactly(org.assertj.core.groups.Tuple.tuple(1L, "ann", Optional.of(5), Color.RED, true),
                                org.assertj.core.groups.Tuple.tuple(2L, "bob", Optional.empty(), Color.BLUE, false));
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    public record Checked(long id, List<String> code, String missing, @ClickHouseColumn("mat") long mat) {
    }

    @Test
    void schemaCheckReportsEveryMismatchAtOnce() {
        ClickHouseServer server = ClickHouseServers.modern();
        String t = TestClients.table("schema");
        try (ClickHouseTcpClient client = TestClients.client(server)) {
            client.execute("CREATE TABLE " + t + " (id UInt64, code String, required Int32, opt Int32 DEFAULT 0, "
                    + "mat UInt64 MATERIALIZED id * 2) ENGINE = MergeTree ORDER BY id");
            try {
                SchemaReport r = client.checkSchema(Checked.class, t);
                assertThat(r.ok()).isFalse();
                assertThat(r.problems()).extracting(SchemaReport.Problem::kind).containsExactlyInAnyOrder(
                        SchemaReport.Kind.NOT_WRITABLE, SchemaReport.Kind.NOT_READABLE,
                        SchemaReport.Kind.COLUMN_WITHOUT_PROPERTY, SchemaReport.Kind.NOT_INSERTABLE,
                        SchemaReport.Kind.PROPERTY_WITHOUT_COLUMN, SchemaReport.Kind.PARAMETER_WITHOUT_COLUMN);
                assertThat(r.toString()).contains("column 'required' (Int32) has no default")
                        .contains("Checked.missing (String, getter) has no column")
                        .contains("MATERIALIZED column 'mat'");
                assertThat(client.checkSchema(WithDefaultsAndCode.class, t).ok()).isTrue();
            } finally {
                client.execute("DROP TABLE IF EXISTS " + t);
            }
        }
    }

    public record WithDefaultsAndCode(long id, String code, int required) {
    }
}
