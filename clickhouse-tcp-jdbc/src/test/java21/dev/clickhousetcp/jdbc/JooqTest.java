package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.jooq.Cursor;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Meta;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.TableField;
import org.jooq.conf.Settings;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.CustomRecord;
import org.jooq.impl.CustomTable;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.types.ULong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * jOOQ's {@code SQLDialect.CLICKHOUSE} over the driver against 26.7 (AT-10 of the driver's specification): plain
 * SQL DDL, single inserts with bind values, {@code batchInsert} of 10,000 records as one INSERT, a typed select
 * into a Java record, and jOOQ's runtime meta in both database terms. jOOQ 3.20+ is compiled for Java 21, so this
 * test is compiled and run by the parent's {@code java21} profile.
 */
@ClickHouseTest
class JooqTest {
    private static final int SINGLE = 100;
    private static final int BATCH = 10_000;

    /** The table, declared by hand as jOOQ's code generator would (jOOQ needs a TableRecord for batchInsert). */
    static final class Events extends CustomTable<EventRecord> {
        static final Events EVENTS = new Events();
        final TableField<EventRecord, ULong> id = createField(DSL.name("id"), SQLDataType.BIGINTUNSIGNED.nullable(false));
        final TableField<EventRecord, String> name = createField(DSL.name("name"), SQLDataType.VARCHAR.nullable(false));
        final TableField<EventRecord, OffsetDateTime> at =
                createField(DSL.name("at"), SQLDataType.TIMESTAMPWITHTIMEZONE(3).nullable(false));
        final TableField<EventRecord, String[]> tags = createField(DSL.name("tags"), SQLDataType.VARCHAR.array());
        final TableField<EventRecord, UUID> uid = createField(DSL.name("uid"), SQLDataType.UUID.nullable(false));
        final TableField<EventRecord, BigDecimal> amount = createField(DSL.name("amount"), SQLDataType.DECIMAL(18, 4));

        private Events() {
            super(DSL.name("events"));
        }

        @Override
        public Class<EventRecord> getRecordType() {
            return EventRecord.class;
        }
    }

    static final class EventRecord extends CustomRecord<EventRecord> {
        EventRecord() {
            super(Events.EVENTS);
        }
    }

    /** What a row is read into. */
    record Event(BigInteger id, String name, Instant at, String[] tags, UUID uid, BigDecimal amount) {
    }

    private static final Events E = Events.EVENTS;

    private final ClickHouseServer server = ClickHouseServers.modern();
    private final String tag = "jooq-" + UUID.randomUUID();
    private final Queue<String> calls = new ConcurrentLinkedQueue<>();
    private String database;

    @BeforeEach
    void createDatabase() throws Exception {
        database = JdbcTests.table("jdbc_jooq");
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + database);
        }
    }

    @AfterEach
    void dropDatabase() throws Exception {
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + database);
        }
    }

    /** A DataSource on the test database whose queries carry {@code log_comment} and whose JDBC calls are logged. */
    private DataSource dataSource(String databaseTerm, String logComment) {
        ClickHouseDataSource ds = new ClickHouseDataSource("jdbc:clickhouse:tcp://" + server.host() + ":"
                + server.tcpPort() + "/" + database + "?databaseTerm=" + databaseTerm);
        ds.setProperty("setting.log_comment", logComment);
        return (DataSource) Proxy.newProxyInstance(JooqTest.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> logged(invoke(ds, method, args)));
    }

    private Object logged(Object target) {
        for (Class<?> type : List.of(PreparedStatement.class, Statement.class, Connection.class, ResultSet.class,
                DatabaseMetaData.class)) {
            if (type.isInstance(target)) {
                return Proxy.newProxyInstance(JooqTest.class.getClassLoader(), new Class<?>[] {type},
                        (proxy, method, args) -> {
                            calls.add(type.getSimpleName() + "." + method.getName() + "/" + (args == null ? 0 : args.length));
                            return logged(invoke(target, method, args));
                        });
            }
        }
        return target;
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private long logged(String logComment, String kind) throws Exception {
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count() FROM system.query_log WHERE log_comment = '" + logComment
                     + "' AND type = 'QueryFinish'" + (kind == null ? "" : " AND query_kind = '" + kind + "'"))) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private long writtenRows(String logComment) throws Exception {
        try (Connection c = JdbcTests.connect("modern"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT sum(written_rows) FROM system.query_log WHERE log_comment = '"
                     + logComment + "' AND type = 'QueryFinish' AND query_kind = 'Insert'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static Event event(long id, String name) {
        BigInteger bigId = id < 0 ? BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE) : BigInteger.valueOf(id);
        Instant at = Instant.ofEpochMilli(1_767_225_600_123L + Math.abs(id) * 1001);
        String[] tags = id % 3 == 0 ? new String[0] : new String[] {"t" + id, "quote ' back \\ ?", "ü"};
        BigDecimal amount = id % 4 == 0 ? null : BigDecimal.valueOf(Math.abs(id) * 12345 + 6, 4);
        return new Event(bigId, name, at, tags, UUID.nameUUIDFromBytes(("u" + id).getBytes()), amount);
    }

    private static EventRecord record(DSLContext ctx, Event e) {
        EventRecord r = ctx.newRecord(E);
        r.set(E.id, ULong.valueOf(e.id()));
        r.set(E.name, e.name());
        // written with another offset than the column's zone: the instant is what must come back
        r.set(E.at, e.at().atOffset(ZoneOffset.ofHoursMinutes(5, 45)));
        r.set(E.tags, e.tags());
        r.set(E.uid, e.uid());
        r.set(E.amount, e.amount());
        return r;
    }

    @Test
    void roundTripInCatalogMode() throws Exception {
        DSLContext ctx = DSL.using(dataSource("catalog", tag), SQLDialect.CLICKHOUSE);
        ctx.execute("CREATE TABLE events (id UInt64, name String, at DateTime64(3, 'UTC'), tags Array(String), "
                + "uid UUID, amount Nullable(Decimal(18, 4))) ENGINE = MergeTree ORDER BY id");

        List<Event> written = new ArrayList<>();
        for (int i = 0; i < SINGLE; i++) {
            Event e = event(i == 0 ? -1 : i, "single-" + i);
            written.add(e);
            assertThat(ctx.insertInto(E).set(record(ctx, e)).execute()).isEqualTo(1);
        }
        List<EventRecord> batch = new ArrayList<>();
        for (int i = 0; i < BATCH; i++) {
            Event e = event(1000 + i, "batch-" + i);
            written.add(e);
            batch.add(record(ctx, e));
        }
        DSLContext batchCtx = DSL.using(dataSource("catalog", tag + "-batch"), SQLDialect.CLICKHOUSE);
        int[] counts = batchCtx.batchInsert(batch).execute();
        assertThat(counts).hasSize(BATCH).containsOnly(1);

        server.httpQuery("SYSTEM FLUSH LOGS");
        assertThat(logged(tag, "Insert")).isEqualTo(SINGLE);
        assertThat(logged(tag + "-batch", null)).as("every query of the batch").isEqualTo(1);
        assertThat(logged(tag + "-batch", "Insert")).isEqualTo(1);
        assertThat(writtenRows(tag + "-batch")).isEqualTo(BATCH);

        written.sort(Comparator.comparing(Event::id));
        List<Event> read = ctx.select(E.id, E.name, E.at, E.tags, E.uid, E.amount).from(E)
                .where(E.id.between(ULong.valueOf(10), ULong.valueOf(5000))).and(E.name.notLike("%-7%"))
                .orderBy(E.id.desc()).limit(50).fetchInto(Event.class);
        List<Event> expected = written.stream()
                .filter(e -> e.id().compareTo(BigInteger.TEN) >= 0 && e.id().compareTo(BigInteger.valueOf(5000)) <= 0)
                .filter(e -> !e.name().contains("-7")).sorted(Comparator.comparing(Event::id).reversed()).limit(50)
                .toList();
        assertThat(read).hasSize(50).usingRecursiveFieldByFieldElementComparator().containsExactlyElementsOf(expected);

        List<Event> all = ctx.selectFrom(E).orderBy(E.id).fetchInto(Event.class);
        assertThat(all).hasSize(SINGLE + BATCH).usingRecursiveFieldByFieldElementComparator()
                .containsExactlyElementsOf(written);
        assertThat(all.get(all.size() - 1).id()).isEqualTo(new BigInteger("18446744073709551615"));

        Event first = written.get(0);
        OffsetDateTime at = ctx.select(E.at).from(E).where(E.id.eq(ULong.valueOf(first.id()))).fetchSingle(E.at);
        assertThat(at.toInstant()).isEqualTo(first.at());
        assertThat(at.getOffset()).as("the column's zone").isEqualTo(ZoneOffset.UTC);

        Meta meta = ctx.meta();
        List<Table<?>> tables = meta.getTables().stream()
                .filter(t -> t.getSchema() != null && t.getSchema().getName().equals(database)).toList();
        assertThat(tables).extracting(Table::getName).containsExactly("events");
        Table<?> events = tables.get(0);
        assertThat(events.fields()).extracting(Field::getName)
                .containsExactly("id", "name", "at", "tags", "uid", "amount");
        assertThat(events.getPrimaryKey().getFields()).extracting(Field::getName).containsExactly("id");

        assertThat(calls).isNotEmpty().noneMatch(c -> c.contains("GeneratedKeys"))
                .filteredOn(c -> c.startsWith("Connection.prepareStatement/")).containsOnly("Connection.prepareStatement/1");
    }

    /** The other query shapes docs/jdbc.md names, and what it says does not work. */
    @Test
    void otherShapesAndTheLimits() {
        DataSource ds = dataSource("catalog&multiStatement=split", tag);
        DSLContext ctx = DSL.using(ds, SQLDialect.CLICKHOUSE,
                new Settings().withFetchSize(100).withQueryTimeout(30).withMaxRows(1000));
        ctx.execute("CREATE TABLE events (id UInt64, name String) ENGINE = MergeTree ORDER BY id");
        Table<org.jooq.Record> events = DSL.table(DSL.name("events"));
        Field<Long> id = DSL.field(DSL.name("id"), SQLDataType.BIGINT);
        Field<String> name = DSL.field(DSL.name("name"), SQLDataType.VARCHAR);
        ctx.batch(ctx.insertInto(events, id, name).values((Long) null, null)).bind(1L, "a").bind(2L, "b").execute();

        assertThat(ctx.select(DSL.row(id, name)).from(events).orderBy(id).fetch(r -> r.value1().intoList()))
                .containsExactly(List.of(1L, "a"), List.of(2L, "b"));
        try (Cursor<org.jooq.Record1<Long>> endless = ctx.select(DSL.field(DSL.name("number"), SQLDataType.BIGINT))
                .from(DSL.table(DSL.name("system", "numbers"))).fetchLazy()) {
            assertThat(endless.fetchNext().value1()).isZero();   // closing it cancels the endless query
        }
        assertThat(ctx.selectFrom(events).orderBy(id).limit(1).fetchStream().map(r -> r.get(0, Long.class)).toList())
                .containsExactly(1L);
        assertThat(ctx.fetchMany("SELECT 1; SELECT 2")).extracting(r -> r.get(0).get(0, Integer.class))
                .containsExactly(1, 2);
        assertThat(calls).contains("PreparedStatement.setFetchSize/1", "PreparedStatement.setQueryTimeout/1",
                "PreparedStatement.setMaxRows/1");

        assertThatThrownBy(() -> ctx.update(events).set(name, "c").where(id.eq(1L)).execute())
                .isInstanceOf(DataAccessException.class).hasMessageContaining("Code: 48");
        assertThatThrownBy(() -> ctx.select(id, DSL.multiset(DSL.select(name).from(events))).from(events).fetch())
                .isInstanceOf(DataAccessException.class).hasMessageContaining("Code: 62");
        assertThat(ctx.createTable("t").column(DSL.field("at", SQLDataType.TIMESTAMPWITHTIMEZONE(3))).getSQL())
                .contains("timestamp(3) with time zone");
    }

    /**
     * With {@code databaseTerm=schema} jOOQ's runtime meta (which reads ClickHouse databases as JDBC catalogs, as it
     * reads MySQL's) finds no catalogs, so it sees one unnamed schema holding the tables of every database.
     */
    @Test
    void schemaModeMetaSeesOneUnnamedSchema() {
        DSLContext ctx = DSL.using(dataSource("schema", tag), SQLDialect.CLICKHOUSE);
        ctx.execute("CREATE TABLE events (id UInt64) ENGINE = MergeTree ORDER BY id");
        Meta meta = ctx.meta();
        assertThat(meta.getSchemas()).extracting(s -> s.getName()).containsExactly("");
        assertThat(meta.getTables("events")).isNotEmpty().allMatch(t -> t.getSchema().getName().isEmpty());
    }
}
