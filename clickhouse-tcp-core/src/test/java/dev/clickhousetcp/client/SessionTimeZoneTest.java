package dev.clickhousetcp.client;

import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.DateTimeColumn;
import dev.clickhousetcp.data.DateTimeType;
import dev.clickhousetcp.data.TemporalColumn;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code session_timezone} (a query setting, the client's default setting, {@code SET} in a session, a
 * SETTINGS clause) decides the zone of DateTime values without an explicit zone, exactly as on the
 * server: reads show the wall clock the server prints, inserts of wall-clock values store what the
 * server's own {@code INSERT ... VALUES} of the same text stores (compared on a twin table the server
 * fills itself), at every conversion site, and no zone outlives its query on a pooled connection.
 */
class SessionTimeZoneTest {
    private static final ZoneId TOKYO = ZoneId.of("Asia/Tokyo");
    private static final LocalDateTime MIDNIGHT = LocalDateTime.of(2024, 1, 1, 0, 0);
    /** 2024-01-01 00:00:00 in Tokyo. */
    private static final long TOKYO_MIDNIGHT = 1704034800L;
    private static final QueryOptions IN_TOKYO = QueryOptions.builder().setting("session_timezone", "Asia/Tokyo").build();
    private static final String COLUMNS = "id UInt32, d DateTime, d64 DateTime64(3), dn Nullable(DateTime), "
            + "da Array(DateTime), dm Map(String, DateTime), dt Tuple(DateTime, String), dl LowCardinality(DateTime), "
            + "day Date, day32 Date32";
    /** Every column as numbers, so the comparison itself depends on no zone. */
    private static final String AS_NUMBERS = "SELECT id, toUnixTimestamp(d), toUnixTimestamp64Milli(d64), "
            + "toUnixTimestamp(dn), arrayMap(x -> toUnixTimestamp(x), da), toUnixTimestamp(dm['k']), "
            + "toUnixTimestamp(dt.1), toUnixTimestamp(dl), toUInt16(day), toInt32(day32) FROM %s ORDER BY id FORMAT TSV";

    private static ClickHouseServer server;
    private static ClickHouseTcpClient client;

    @BeforeAll
    static void start() {
        server = ClickHouseServers.modern();
        client = TestClients.client(server);
    }

    @AfterAll
    static void stop() {
        client.close();
    }

    @Test
    void readsShowTheWallClockTheServerPrints() {
        String sql = "SELECT toDateTime('2024-01-01 00:00:00') AS d, toString(d), "
                + "toDateTime64('2024-01-01 00:00:00.123', 3) AS d64, toString(d64), "
                + "CAST(d AS Nullable(DateTime)) AS dn, toString(dn), [d, d + 3600] AS da, toString(da), "
                + "map('k', d) AS dm, toString(dm), tuple(d, 'x') AS dt, toString(dt), "
                + "CAST(d AS LowCardinality(DateTime)) AS dl, toString(dl), toDate(d) AS day, toString(day), "
                + "toTypeName(d), toUnixTimestamp(d)";
        QueryOptions opts = IN_TOKYO.toBuilder().setting("allow_suspicious_low_cardinality_types", 1).build();
        try (QueryResult r = client.query(sql, opts)) {
            Block b = r.next();
            for (int i = 0; i < 16; i += 2) {
                assertThat(b.column(i).getString(0)).as(b.name(i)).isEqualTo(b.column(i + 1).getString(0));
            }
            assertThat(b.column(1).getString(0)).isEqualTo("2024-01-01 00:00:00");
            assertThat(b.column(16).getString(0)).isEqualTo("DateTime"); // no explicit zone
            assertThat(b.column(17).getLong(0)).isEqualTo(TOKYO_MIDNIGHT);
            TemporalColumn d = (TemporalColumn) b.column(0);
            assertThat(d.zone()).isEqualTo(TOKYO);
            assertThat(d.getObject(0)).isEqualTo(ZonedDateTime.of(MIDNIGHT, TOKYO));
            assertThat(d.getLocalDateTime(0)).isEqualTo(MIDNIGHT);
            assertThat(d.getInstant(0)).isEqualTo(Instant.ofEpochSecond(TOKYO_MIDNIGHT));
            assertThat(d.getOffsetDateTime(0)).isEqualTo(OffsetDateTime.of(MIDNIGHT, ZoneOffset.ofHours(9)));
            assertThat(((TemporalColumn) b.column(2)).getLocalDateTime(0)).isEqualTo(MIDNIGHT.plusNanos(123_000_000));
            assertThat(((DateTimeType) b.column(0).type()).zone()).isEqualTo(TOKYO);
        }
        List<Object[]> rows = client.queryRows("SELECT toDateTime('2024-01-01 00:00:00'), [toDateTime('2024-01-01 00:00:00')]",
                IN_TOKYO);
        assertThat(rows.get(0)[0]).isEqualTo(ZonedDateTime.of(MIDNIGHT, TOKYO));
        assertThat(rows.get(0)[1]).isEqualTo(List.of(ZonedDateTime.of(MIDNIGHT, TOKYO)));
    }

    /** A row of the test table as the mapping inserts and reads it. */
    public record Event(long id, LocalDateTime d, LocalDateTime d64, LocalDateTime dn, List<LocalDateTime> da,
                        Map<String, LocalDateTime> dm, List<Object> dt, LocalDateTime dl, Instant day, Instant day32) {
    }

    @Test
    void insertsStoreWhatTheServersOwnInsertOfTheTextStores() {
        String ours = TestClients.table("tz_ours");
        String theirs = TestClients.table("tz_theirs");
        QueryOptions lc = QueryOptions.builder().setting("allow_suspicious_low_cardinality_types", 1).build();
        client.execute("CREATE TABLE " + ours + " (" + COLUMNS + ") ENGINE = Memory", lc);
        client.execute("CREATE TABLE " + theirs + " (" + COLUMNS + ") ENGINE = Memory", lc);
        try {
            StringBuilder values = new StringBuilder();
            for (int id = 1; id <= 4; id++) {
                values.append(id == 1 ? "" : ", ").append('(').append(id).append(", '2024-01-01 00:00:00', "
                        + "'2024-01-01 00:00:00.123', '2024-01-01 00:00:00', ['2024-01-01 00:00:00', '2024-01-01 01:00:00'], "
                        + "{'k': '2024-01-01 00:00:00'}, ('2024-01-01 00:00:00', 'x'), '2024-01-01 00:00:00', "
                        + "toDate(toDateTime(1704034800)), toDate32(toDateTime(1704036600)))");
            }
            server.httpQuery("INSERT INTO " + theirs + " SETTINGS session_timezone = 'Asia/Tokyo' VALUES " + values);

            Instant day = Instant.ofEpochSecond(TOKYO_MIDNIGHT);          // still 2023-12-31 in UTC
            Instant day32 = Instant.ofEpochSecond(TOKYO_MIDNIGHT + 1800);
            Object[] row = {1, MIDNIGHT, MIDNIGHT.plusNanos(123_000_000), MIDNIGHT, List.of(MIDNIGHT, MIDNIGHT.plusHours(1)),
                Map.of("k", MIDNIGHT), List.of(MIDNIGHT, "x"), MIDNIGHT, day, day32};
            List<String> names = List.of("id", "d", "d64", "dn", "da", "dm", "dt", "dl", "day", "day32");
            client.insert(ours, names, List.<Object[]>of(row), IN_TOKYO);                         // rows

            Map<String, Object> columns = new LinkedHashMap<>();                                  // columns
            for (int i = 0; i < names.size(); i++) {
                List<Object> one = new ArrayList<>();
                one.add(i == 0 ? 2 : row[i]);
                columns.put(names.get(i), i == 1 ? new LocalDateTime[] {MIDNIGHT} : one);
            }
            client.insertColumns(ours, columns, IN_TOKYO);

            client.insert(ours, List.of(new Event(3, MIDNIGHT, MIDNIGHT.plusNanos(123_000_000), MIDNIGHT,    // objects
                    List.of(MIDNIGHT, MIDNIGHT.plusHours(1)), Map.of("k", MIDNIGHT), List.of(MIDNIGHT, "x"), MIDNIGHT,
                    day, day32)), InsertOptions.builder().queryOptions(IN_TOKYO).build());

            try (ClickHouseSession s = client.openSession()) {                                    // a session's SET
                s.execute("SET session_timezone = 'Asia/Tokyo'");
                row[0] = 4;
                s.insert(ours, names, List.<Object[]>of(row));
            }

            assertThat(server.httpQuery(String.format(AS_NUMBERS, ours)))
                    .isEqualTo(server.httpQuery(String.format(AS_NUMBERS, theirs)))
                    .startsWith("1\t" + TOKYO_MIDNIGHT + "\t" + (TOKYO_MIDNIGHT * 1000 + 123) + "\t");

            List<Event> back = client.query("SELECT * FROM " + ours + " ORDER BY id", IN_TOKYO, EventRead.class)
                    .stream().map(EventRead::toEvent).toList();
            assertThat(back).hasSize(4);
            assertThat(back.get(0).d()).isEqualTo(MIDNIGHT);
            assertThat(back.get(0).da()).containsExactly(MIDNIGHT, MIDNIGHT.plusHours(1));
        } finally {
            client.execute("DROP TABLE IF EXISTS " + ours);
            client.execute("DROP TABLE IF EXISTS " + theirs);
        }
    }

    /** The mapping's read side of the test table. */
    public record EventRead(long id, LocalDateTime d, ZonedDateTime d64, OffsetDateTime dn, List<LocalDateTime> da,
                            LocalDate day, Instant dl) {
        Event toEvent() {
            return new Event(id, d, d64.toLocalDateTime(), dn.toLocalDateTime(), da, Map.of(), List.of(), null, null, null);
        }
    }

    @Test
    void mappedPropertiesUseTheSessionZone() {
        List<EventRead> rows = client.query("SELECT 1 AS id, toDateTime('2024-01-01 00:00:00') AS d, "
                + "toDateTime64(d, 3) AS d64, d AS dn, [d] AS da, toDate(d) AS day, d AS dl", IN_TOKYO, EventRead.class);
        EventRead e = rows.get(0);
        assertThat(e.d()).isEqualTo(MIDNIGHT);
        assertThat(e.d64()).isEqualTo(ZonedDateTime.of(MIDNIGHT, TOKYO));
        assertThat(e.dn()).isEqualTo(OffsetDateTime.of(MIDNIGHT, ZoneOffset.ofHours(9)));
        assertThat(e.da()).containsExactly(MIDNIGHT);
        assertThat(e.day()).isEqualTo(LocalDate.of(2024, 1, 1));
        assertThat(e.dl()).isEqualTo(Instant.ofEpochSecond(TOKYO_MIDNIGHT));
        record Day(LocalDate day) {
        }
        // a DateTime read into a LocalDate property: the server's toDate, in the session zone
        assertThat(client.query("SELECT toDateTime('2024-01-01 00:30:00') AS day", IN_TOKYO, Day.class))
                .containsExactly(new Day(LocalDate.of(2024, 1, 1)));
    }

    @Test
    void externalTablesReadTheirWallClockInTheSessionZone() {
        QueryOptions opts = IN_TOKYO.toBuilder().externalTable(ExternalTable.of("ext", "d DateTime, d64 DateTime64(3), day Date",
                List.<Object[]>of(new Object[] {MIDNIGHT, MIDNIGHT, Instant.ofEpochSecond(TOKYO_MIDNIGHT)}))).build();
        List<Object[]> rows = client.queryRows("SELECT toUnixTimestamp(d), toString(d), toUnixTimestamp64Milli(d64), "
                + "toString(day), toTypeName(d) FROM ext", opts);
        assertThat(rows.get(0)).containsExactly(TOKYO_MIDNIGHT, "2024-01-01 00:00:00", TOKYO_MIDNIGHT * 1000,
                "2024-01-01", "DateTime");
    }

    @Test
    void queryParametersMeanWhatTheServerReadsThem() {
        QueryOptions opts = IN_TOKYO.toBuilder()
                .parameter("wall", MIDNIGHT)
                .parameter("instant", Instant.ofEpochSecond(TOKYO_MIDNIGHT))
                .parameter("epoch", Instant.EPOCH)
                .parameter("small", Instant.ofEpochMilli(1_250))
                .parameter("before", Instant.ofEpochMilli(-1_250))
                .parameter("list", List.of(Instant.ofEpochSecond(1_000), MIDNIGHT))
                .build();
        List<Object[]> rows = client.queryRows("SELECT toUnixTimestamp({wall:DateTime}), "
                + "toUnixTimestamp(toDateTime('2024-01-01 00:00:00')), toUnixTimestamp({instant:DateTime}), "
                + "toUnixTimestamp({epoch:DateTime}), toUnixTimestamp64Milli({small:DateTime64(3)}), "
                + "toUnixTimestamp64Milli({before:DateTime64(3)}), arrayMap(x -> toUnixTimestamp(x), {list:Array(DateTime)})",
                opts);
        assertThat(rows.get(0)).containsExactly(TOKYO_MIDNIGHT, TOKYO_MIDNIGHT, TOKYO_MIDNIGHT, 0L, 1_250L, -1_250L,
                List.of(1_000L, TOKYO_MIDNIGHT));
    }

    @Test
    void theClientsDefaultSettingAppliesToEveryQuery() {
        try (ClickHouseTcpClient tokyo = TestClients.builder(server).setting("session_timezone", "Asia/Tokyo").build()) {
            assertThat(readBack(tokyo, QueryOptions.DEFAULT)).isEqualTo(TOKYO);
            assertThat(tokyo.queryRows("SELECT toDateTime('2024-01-01 00:00:00')").get(0)[0])
                    .isEqualTo(ZonedDateTime.of(MIDNIGHT, TOKYO));
            // a query's own (empty) setting wins: the server's zone
            assertThat(readBack(tokyo, QueryOptions.builder().setting("session_timezone", "").build()))
                    .isEqualTo(serverZone());
            List<Object[]> rows = tokyo.queryRows("SELECT toUnixTimestamp(d) FROM ext", QueryOptions.builder()
                    .externalTable(ExternalTable.of("ext", "d DateTime", List.<Object[]>of(new Object[] {MIDNIGHT}))).build());
            assertThat(rows.get(0)[0]).isEqualTo(TOKYO_MIDNIGHT);
        }
    }

    @Test
    void aSessionsSetLastsUntilTheNextSet() {
        try (ClickHouseSession s = client.openSession()) {
            assertThat(readBack(s, QueryOptions.DEFAULT)).isEqualTo(serverZone());
            s.execute("SET session_timezone = 'Asia/Tokyo'");
            assertThat(readBack(s, QueryOptions.DEFAULT)).isEqualTo(TOKYO);
            assertThat(readBack(s, QueryOptions.DEFAULT)).isEqualTo(TOKYO);
            // a query's own setting wins for that query only; an empty one means the server's zone
            assertThat(readBack(s, QueryOptions.builder().setting("session_timezone", "Europe/Berlin").build()))
                    .isEqualTo(ZoneId.of("Europe/Berlin"));
            assertThat(readBack(s, QueryOptions.builder().setting("session_timezone", "").build())).isEqualTo(serverZone());
            assertThat(readBack(s, QueryOptions.DEFAULT)).isEqualTo(TOKYO);
            // a failed SET changes nothing
            assertThatThrownBy(() -> s.execute("SET session_timezone = 'Not/A_Zone'"))
                    .isInstanceOf(dev.clickhousetcp.ClickHouseServerException.class);
            assertThat(readBack(s, QueryOptions.DEFAULT)).isEqualTo(TOKYO);
            s.execute("SET max_threads = 2, session_timezone = 'Europe/Berlin'");
            assertThat(readBack(s, QueryOptions.DEFAULT)).isEqualTo(ZoneId.of("Europe/Berlin"));
            s.execute("SET session_timezone = DEFAULT");
            assertThat(readBack(s, QueryOptions.DEFAULT)).isEqualTo(serverZone());
            s.execute("SET session_timezone = 'Asia/Tokyo'");
            s.execute("SET session_timezone = ''");
            assertThat(readBack(s, QueryOptions.DEFAULT)).isEqualTo(serverZone());
        }
    }

    @Test
    void aSettingsClauseOfTheStatementWins() {
        assertThat(readBack(client, QueryOptions.DEFAULT, " SETTINGS session_timezone = 'Asia/Tokyo'")).isEqualTo(TOKYO);
        assertThat(readBack(client, QueryOptions.builder().setting("session_timezone", "Europe/Berlin").build(),
                " SETTINGS max_threads = 1, session_timezone = 'Asia/Tokyo'")).isEqualTo(TOKYO);
        // the clause of a subquery is not the statement's
        assertThat(readBack(client, QueryOptions.DEFAULT,
                " FROM (SELECT 1 SETTINGS session_timezone = 'Asia/Tokyo') /* SETTINGS session_timezone = 'Asia/Tokyo' */"))
                .isEqualTo(serverZone());
    }

    @Test
    void aPooledConnectionForgetsTheZoneOfTheQueryBefore() {
        try (ClickHouseTcpClient one = TestClients.builder(server).maxPoolSize(1).build()) {
            assertThat(readBack(one, IN_TOKYO)).isEqualTo(TOKYO);
            assertThat(readBack(one, QueryOptions.DEFAULT)).isEqualTo(serverZone());
            assertThat(one.withConnection(ClickHouseConnection::sessionZone)).isEqualTo(serverZone());
            assertThat(readBack(one, IN_TOKYO)).isEqualTo(TOKYO);
            List<Object[]> rows = one.queryRows("SELECT toUnixTimestamp(d) FROM ext", QueryOptions.builder()
                    .externalTable(ExternalTable.of("ext", "d DateTime", List.<Object[]>of(new Object[] {MIDNIGHT}))).build());
            assertThat(rows.get(0)[0]).isEqualTo(MIDNIGHT.toEpochSecond(ZoneOffset.UTC)); // the server's zone is UTC
        }
    }

    @Test
    void anInputQueryGetsTheZoneFromTheServersTimezoneUpdate() {
        String t = TestClients.table("tz_input");
        client.execute("CREATE TABLE " + t + " (d DateTime) ENGINE = Memory");
        try (ClickHouseSession s = client.openSession()) {
            s.execute("SET session_timezone = 'Asia/Tokyo'");
            s.withInsert("INSERT INTO " + t + " SELECT * FROM input('d DateTime')", QueryOptions.DEFAULT, ins -> {
                dev.clickhousetcp.data.ColumnWriter[] w = ins.newWriters();
                w[0].append(MIDNIGHT);
                ins.sendBlock(w, 1);
                return null;
            });
            assertThat(s.withConnection(ClickHouseConnection::sessionZone)).isEqualTo(TOKYO);
            assertThat(server.httpQuery("SELECT toUnixTimestamp(d) FROM " + t).trim()).isEqualTo(Long.toString(TOKYO_MIDNIGHT));
        } finally {
            client.execute("DROP TABLE IF EXISTS " + t);
        }
    }

    @Test
    void jsonAndDynamicValuesAreWrittenInTheSessionZone() {
        String t = TestClients.table("tz_json");
        client.execute("CREATE TABLE " + t + " (id UInt32, j JSON, v Dynamic) ENGINE = Memory");
        try {
            client.insert(t, List.of("id", "j", "v"), List.<Object[]>of(
                    new Object[] {1, Map.of("t", Instant.ofEpochSecond(TOKYO_MIDNIGHT)), MIDNIGHT}), IN_TOKYO);
            assertThat(server.httpQuery("SELECT dynamicType(j.t), toUnixTimestamp(j.t::DateTime), dynamicType(v), "
                    + "toUnixTimestamp(v::DateTime) FROM " + t + " FORMAT TSV"))
                    .isEqualTo("DateTime\t" + TOKYO_MIDNIGHT + "\tDateTime\t" + TOKYO_MIDNIGHT + "\n");
            String select = "SELECT j.t, v, j FROM " + t;
            assertThat(tsv(client.query(select, IN_TOKYO,
                    (row, n) -> row.getString(0) + "\t" + row.getString(1) + "\t" + row.getString(2))))
                    .isEqualTo(server.httpQuery(select + " SETTINGS session_timezone = 'Asia/Tokyo' FORMAT TSV"))
                    .startsWith("2024-01-01 00:00:00\t2024-01-01 00:00:00\t");
        } finally {
            client.execute("DROP TABLE IF EXISTS " + t);
        }
    }

    @Test
    void wallClockTimesInGapsAndOverlapsStoreWhatTheServerStores() {
        List<String> times = List.of("2024-03-10 01:59:59", "2024-03-10 02:00:00", "2024-03-10 02:30:00",
                "2024-03-10 03:00:00", "2024-11-03 00:59:59", "2024-11-03 01:00:00", "2024-11-03 01:30:00",
                "2024-11-03 02:00:00", "2024-03-31 02:00:00", "2024-03-31 02:30:00", "2024-03-31 03:00:00",
                "2024-10-27 02:00:00", "2024-10-27 02:30:00", "2024-10-27 03:00:00");
        for (String zone : List.of("America/New_York", "Europe/Berlin", "America/Santiago", "America/Havana")) {
            String ours = TestClients.table("tz_dst_ours");
            String theirs = TestClients.table("tz_dst_theirs");
            client.execute("CREATE TABLE " + ours + " (id UInt32, d DateTime, d64 DateTime64(3)) ENGINE = Memory");
            client.execute("CREATE TABLE " + theirs + " (id UInt32, d DateTime, d64 DateTime64(3)) ENGINE = Memory");
            try {
                QueryOptions opts = QueryOptions.builder().setting("session_timezone", zone).build();
                List<Object[]> rows = new ArrayList<>();
                StringBuilder values = new StringBuilder();
                for (int i = 0; i < times.size(); i++) {
                    LocalDateTime w = LocalDateTime.parse(times.get(i).replace(' ', 'T'));
                    rows.add(new Object[] {i, w, w.plusNanos(5_000_000)});
                    values.append(i == 0 ? "" : ", ").append('(').append(i).append(", '").append(times.get(i))
                            .append("', '").append(times.get(i)).append(".005')");
                }
                client.insert(ours, List.of("id", "d", "d64"), rows, opts);
                server.httpQuery("INSERT INTO " + theirs + " SETTINGS session_timezone = '" + zone + "' VALUES " + values);
                String q = "SELECT id, toUnixTimestamp(d), toUnixTimestamp64Milli(d64) FROM %s ORDER BY id FORMAT TSV";
                assertThat(server.httpQuery(String.format(q, ours))).as(zone).isEqualTo(server.httpQuery(String.format(q, theirs)));
                // and read back, the wall clock is what the server's output format prints in that session zone
                String select = "SELECT d, d64 FROM " + ours + " ORDER BY id";
                assertThat(tsv(client.query(select, opts, (row, n) -> row.getString(0) + "\t" + row.getString(1))))
                        .as(zone).isEqualTo(server.httpQuery(select + " SETTINGS session_timezone = '" + zone + "' FORMAT TSV"));
            } finally {
                client.execute("DROP TABLE IF EXISTS " + ours);
                client.execute("DROP TABLE IF EXISTS " + theirs);
            }
        }
        // the server's rule is not java.time's: New York's 02:30 on the spring-forward day is 01:30 EST
        String stored = server.httpQuery("SELECT toUnixTimestamp(toDateTime('2024-03-10 02:30:00', 'America/New_York'))").trim();
        assertThat(Long.parseLong(stored))
                .isEqualTo(LocalDateTime.of(2024, 3, 10, 1, 30).atZone(ZoneId.of("America/New_York")).toEpochSecond())
                .isNotEqualTo(LocalDateTime.of(2024, 3, 10, 2, 30).atZone(ZoneId.of("America/New_York")).toEpochSecond());
    }

    @Test
    void zoneNamesTheJdkLacksAreTheZonesTheServerLinksThemTo() {
        for (String zone : List.of("EST", "MST", "HST", "ROC", "Factory")) {
            QueryOptions opts = QueryOptions.builder().setting("session_timezone", zone).build();
            String sql = "SELECT arrayJoin([-2000000000, -800000000, 0, 1710052200]) AS x, toDateTime64(x, 0) AS s, "
                    + "toString(s), toDateTime64(x, 0, '" + zone + "') AS e, toString(e)";
            for (String[] r : client.query(sql, opts, (row, n) -> new String[] {row.getString(1), row.getString(2),
                row.getString(3), row.getString(4)})) {
                assertThat(r[0]).as(zone).isEqualTo(r[1]);
                assertThat(r[2]).as(zone).isEqualTo(r[3]);
            }
        }
    }

    @Test
    void theLegacyServerKeepsItsOwnZone() {
        ClickHouseServer legacy = ClickHouseServers.legacy();
        try (ClickHouseTcpClient c = TestClients.client(legacy)) {
            String zone = legacy.httpQuery("SELECT timezone()").trim();
            try (QueryResult r = c.query("SELECT toDateTime('2024-01-01 00:00:00') AS d, toString(d)")) {
                Block b = r.next();
                assertThat(((DateTimeColumn) b.column(0)).zone()).isEqualTo(ZoneId.of(zone));
                assertThat(b.column(0).getString(0)).isEqualTo(b.column(1).getString(0));
            }
        }
    }

    /**
     * A table's DateTime columns print in the session zone, like the server's own output formats. (The
     * server's functions do not all agree: {@code toString(d)}, {@code toDate(d)} or {@code toHour(d)}
     * of a table column keep the zone its type had when the table was loaded.)
     */
    @Test
    void tableColumnsPrintLikeTheServersOutputFormat() {
        String t = TestClients.table("tz_table");
        client.execute("CREATE TABLE " + t + " (d DateTime, d64 DateTime64(3), a Array(Nullable(DateTime))) ENGINE = Memory");
        try {
            server.httpQuery("INSERT INTO " + t + " VALUES (1704034800, 1704034800.5, [1704034800, NULL])");
            String select = "SELECT d, d64, a FROM " + t;
            assertThat(tsv(client.query(select, IN_TOKYO,
                    (row, n) -> row.getString(0) + "\t" + row.getString(1) + "\t" + row.getString(2))))
                    .isEqualTo(server.httpQuery(select + " SETTINGS session_timezone = 'Asia/Tokyo' FORMAT TSV"))
                    .isEqualTo("2024-01-01 00:00:00\t2024-01-01 00:00:00.500\t['2024-01-01 00:00:00',NULL]\n");
        } finally {
            client.execute("DROP TABLE IF EXISTS " + t);
        }
    }

    private static String tsv(List<String> lines) {
        return String.join("\n", lines) + "\n";
    }

    /** The zone of a DateTime column without an explicit zone, checked against the server's text of it. */
    private static ZoneId readBack(QueryOperations ops, QueryOptions options) {
        return readBack(ops, options, "");
    }

    private static ZoneId readBack(QueryOperations ops, QueryOptions options, String tail) {
        try (QueryResult r = ops.query("SELECT toDateTime(1704034800) AS d, toString(d), timezone()" + tail, options)) {
            Block b = r.next();
            Column d = b.column(0);
            assertThat(d.getString(0)).as("client vs server text").isEqualTo(b.column(1).getString(0));
            ZoneId zone = ((TemporalColumn) d).zone();
            assertThat(zone).as("client zone vs server timezone()").isEqualTo(ZoneId.of(b.column(2).getString(0)));
            r.drain();
            return zone;
        }
    }

    private static ZoneId serverZone() {
        return ZoneId.of(server.httpQuery("SELECT timezone()").trim());
    }
}
