package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.core.simple.SimpleJdbcInsert;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Spring's JdbcTemplate, NamedParameterJdbcTemplate and JdbcClient over the driver, against 26.7. */
@ClickHouseTest
class SpringJdbcTest {
    private SingleConnectionDataSource ds;
    private JdbcTemplate jdbc;
    private String table;

    @BeforeEach
    void open() {
        ds = new SingleConnectionDataSource(JdbcTests.url(ClickHouseServers.modern()), true);
        ds.setDriverClassName(ClickHouseDriver.class.getName());
        jdbc = new JdbcTemplate(ds);
        table = JdbcTests.table("jdbc_spring");
    }

    @AfterEach
    void close() {
        try {
            jdbc.execute("DROP TABLE IF EXISTS " + table);
        } finally {
            ds.destroy();
        }
    }

    private long count() {
        return jdbc.queryForObject("SELECT count() FROM " + table, Long.class);
    }

    @Test
    void batchUpdateOfObjectArraysAndChunkedBatchesOnOneStatement() {
        jdbc.execute("CREATE TABLE " + table + " (id UInt64, name String, at DateTime64(3, 'UTC')) ENGINE = MergeTree ORDER BY id");
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            rows.add(new Object[] {i, "n" + i, Instant.ofEpochMilli(1_700_000_000_000L + i)});
        }
        int[] counts = jdbc.batchUpdate("INSERT INTO " + table + " (id, name, at) VALUES (?, ?, ?)", rows);
        assertThat(counts).hasSize(1000).containsOnly(1);
        assertThat(count()).isEqualTo(1000);

        List<Long> ids = new ArrayList<>();
        for (long i = 1000; i < 3500; i++) {
            ids.add(i);
        }
        int[][] chunks = jdbc.batchUpdate("INSERT INTO " + table + " (id, name, at) VALUES (?, ?, ?)", ids, 1000,
                (PreparedStatement ps, Long id) -> {
                    ps.setLong(1, id);
                    ps.setString(2, "c" + id);
                    ps.setObject(3, Instant.ofEpochSecond(id));
                });
        assertThat(chunks).hasNumberOfRows(3);
        assertThat(chunks[2]).hasSize(500);
        // the one PreparedStatement never sends an earlier chunk again
        assertThat(count()).isEqualTo(3500);
        assertThat(jdbc.queryForObject("SELECT uniqExact(id) FROM " + table, Long.class)).isEqualTo(3500);
        assertThat(jdbc.queryForObject("SELECT name FROM " + table + " WHERE id = 2345", String.class)).isEqualTo("c2345");
    }

    @Test
    void aStreamClosedEarlyLeavesTheConnectionForTheNextQuery() {
        jdbc.execute("CREATE TEMPORARY TABLE session_mark (x UInt8)");
        jdbc.execute("INSERT INTO session_mark VALUES (7)");
        List<Long> first;
        try (Stream<Long> s = jdbc.queryForStream("SELECT number FROM numbers(10000000000)", (rs, i) -> rs.getLong(1))) {
            first = s.limit(10).toList();
        }
        assertThat(first).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
        // same connection, same session: the temporary table is still there
        assertThat(jdbc.queryForObject("SELECT x FROM session_mark", Integer.class)).isEqualTo(7);
        assertThat(jdbc.queryForObject("SELECT count() FROM numbers(1000)", Long.class)).isEqualTo(1000L);
    }

    record Event(long id, BigInteger big, String name, LocalDate day, LocalDateTime wall, OffsetDateTime offset,
                 Instant at, UUID uuid, List<String> tags, Map<String, Long> counts, boolean flag) {
    }

    @Test
    void jdbcClientRecordsWithJavaTimeUnderAnotherJvmZone() {
        TimeZone saved = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone("Asia/Kathmandu"));
        try {
            jdbc.execute("CREATE TABLE " + table + " (id Int64, big UInt64, name String, day Date32,"
                    + " wall DateTime64(3, 'America/New_York'), offset DateTime64(3, 'America/New_York'),"
                    + " at DateTime64(3, 'America/New_York'), uuid UUID, tags Array(String), counts Map(String, Int64),"
                    + " flag Bool) ENGINE = MergeTree ORDER BY id");
            JdbcClient client = JdbcClient.create(ds);
            Instant at = Instant.parse("2024-03-10T07:30:00.123Z"); // 02:30 would not exist in New York (DST): 03:30 EDT
            LocalDateTime wall = LocalDateTime.parse("2024-11-03T01:30:00.250"); // the repeated hour in New York
            UUID uuid = UUID.randomUUID();
            client.sql("INSERT INTO " + table + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                    .params(1L, new BigInteger("18446744073709551615"), "a'b\\c", LocalDate.of(1969, 7, 20), wall,
                            OffsetDateTime.parse("2024-06-01T12:00:00.5+02:00"), at, uuid, List.of("x", "y"),
                            Map.of("k", 5L), true)
                    .update();
            Event e = client.sql("SELECT * FROM " + table + " WHERE id = :id AND at = :at")
                    .param("id", 1L).param("at", at).query(Event.class).single();
            assertThat(e.big()).isEqualTo(new BigInteger("18446744073709551615"));
            assertThat(e.name()).isEqualTo("a'b\\c");
            assertThat(e.day()).isEqualTo(LocalDate.of(1969, 7, 20));
            assertThat(e.wall()).isEqualTo(wall); // the column's wall clock, not the JVM zone's
            assertThat(e.offset().toInstant()).isEqualTo(Instant.parse("2024-06-01T10:00:00.5Z"));
            assertThat(e.at()).isEqualTo(at);
            assertThat(e.uuid()).isEqualTo(uuid);
            assertThat(e.tags()).containsExactly("x", "y");
            assertThat(e.counts()).containsExactlyEntriesOf(Map.of("k", 5L));
            assertThat(e.flag()).isTrue();
            // the server's own view of what was stored
            assertThat(jdbc.queryForObject("SELECT toString(wall) || '|' || toString(toUnixTimestamp64Milli(at)) FROM "
                    + table, String.class)).isEqualTo("2024-11-03 01:30:00.250|" + at.toEpochMilli());
            // named parameters with a list and a hostile string
            NamedParameterJdbcTemplate named = new NamedParameterJdbcTemplate(ds);
            assertThat(named.queryForObject("SELECT count() FROM " + table + " WHERE id IN (:ids) AND name = :n",
                    new MapSqlParameterSource("ids", List.of(1L, 2L, 3L)).addValue("n", "a'b\\c"), Long.class))
                    .isEqualTo(1L);
            assertThat(named.queryForObject("SELECT count() FROM " + table + " WHERE name = :n",
                    Map.of("n", "' OR 1 = 1 -- ?{fn x}$$"), Long.class)).isZero();
        } finally {
            TimeZone.setDefault(saved);
        }
    }

    @Test
    void keyHolderFailsWithSpringsOwnNoKeyError() {
        jdbc.execute("CREATE TABLE " + table + " (id UInt64) ENGINE = MergeTree ORDER BY id");
        KeyHolder keys = new GeneratedKeyHolder();
        int n = jdbc.update(c -> {
            PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " VALUES (?)", Statement.RETURN_GENERATED_KEYS);
            ps.setLong(1, 4L);
            return ps;
        }, keys);
        // the prepare with keys and the insert worked: there are simply no keys
        assertThat(n).isEqualTo(1);
        assertThat(keys.getKeyList()).isEmpty();
        assertThat(keys.getKey()).isNull();
        KeyHolder named = new GeneratedKeyHolder();
        JdbcClient.create(ds).sql("INSERT INTO " + table + " VALUES (:id)").param("id", 5L).update(named, "id");
        assertThat(named.getKeyList()).isEmpty();
        assertThat(count()).isEqualTo(2L);
        SimpleJdbcInsert insert = new SimpleJdbcInsert(ds).withTableName(table).usingColumns("id")
                .usingGeneratedKeyColumns("gid").withoutTableColumnMetaDataAccess();
        assertThatThrownBy(() -> insert.executeAndReturnKey(Map.of("id", 6L)))
                .isInstanceOf(DataAccessException.class)
                .hasMessageContaining("getGeneratedKeys");
    }

    @Test
    void exceptionsTranslateBySubclass() {
        jdbc.execute("CREATE TABLE " + table + " (id UInt8, d Date) ENGINE = MergeTree ORDER BY id");
        assertThatThrownBy(() -> jdbc.execute("SELEC 1")).isInstanceOf(BadSqlGrammarException.class)
                .satisfies(e -> assertThat(((BadSqlGrammarException) e).getSQLException().getErrorCode()).isEqualTo(62));
        assertThatThrownBy(() -> jdbc.execute("CREATE TABLE " + table + " (id UInt8) ENGINE = Memory"))
                .isInstanceOf(BadSqlGrammarException.class);
        assertThatThrownBy(() -> jdbc.queryForObject("SELECT * FROM no_such_table_" + table, Long.class))
                .isInstanceOf(BadSqlGrammarException.class);
        // 53 TYPE_MISMATCH, 27 CANNOT_PARSE_INPUT_ASSERTION_FAILED, a bad date
        assertThatThrownBy(() -> jdbc.execute("SELECT [1, 2][toUInt8(1)] = 'a'"))
                .isInstanceOf(DataIntegrityViolationException.class);
        assertThatThrownBy(() -> jdbc.update("INSERT INTO " + table + " (id, d) VALUES (1, 'not a date')"))
                .isInstanceOf(DataIntegrityViolationException.class);
        assertThatThrownBy(() -> jdbc.queryForObject("SELECT toUInt8('x1')", Integer.class))
                .isInstanceOf(DataIntegrityViolationException.class);
        JdbcTemplate timed = new JdbcTemplate(ds);
        timed.setQueryTimeout(1);
        assertThatThrownBy(() -> timed.queryForObject("SELECT count() FROM numbers(10000000000000)", Long.class))
                .isInstanceOf(QueryTimeoutException.class);
        // the connection is still good
        assertThat(jdbc.queryForObject("SELECT 42", Integer.class)).isEqualTo(42);
    }

    @Test
    void legacyServerThroughSpring() throws SQLException {
        SingleConnectionDataSource legacy = new SingleConnectionDataSource(JdbcTests.url(ClickHouseServers.legacy()), true);
        try {
            JdbcTemplate t = new JdbcTemplate(legacy);
            t.execute("CREATE TABLE " + table + " (id UInt64, name String) ENGINE = MergeTree ORDER BY id");
            try {
                List<Object[]> rows = new ArrayList<>();
                for (int i = 0; i < 300; i++) {
                    rows.add(new Object[] {i, "l" + i});
                }
                t.batchUpdate("INSERT INTO " + table + " (id, name) VALUES (?, ?)", rows, 100,
                        (PreparedStatement ps, Object[] r) -> {
                            ps.setObject(1, r[0]);
                            ps.setObject(2, r[1]);
                        });
                assertThat(t.queryForObject("SELECT count() FROM " + table + " WHERE name LIKE ?", Long.class, "l%"))
                        .isEqualTo(300L);
            } finally {
                t.execute("DROP TABLE IF EXISTS " + table);
            }
            try (Stream<Long> st = t.queryForStream("SELECT number FROM system.numbers", (rs, i) -> rs.getLong(1))) {
                assertThat(st.limit(3).toList()).containsExactly(0L, 1L, 2L);
            }
            assertThat(t.queryForObject("SELECT count() FROM numbers(77)", Long.class)).isEqualTo(77L);
            try (Connection c = legacy.getConnection()) {
                assertThat(c.isValid(2)).isTrue();
            }
        } finally {
            legacy.destroy();
        }
    }

    @Test
    void hostileStringsRoundTripThroughLiteralsOn1816AndParametersOn267() {
        String[] hostile = {"\\", "'", "\\'", "''", "a\u0000b", "line\nbreak\r\t", "?", "{fn now()}", "$$x$$",
                "-- c", "/* c */", "\u00fc\u20ac\ud83d\ude00", "\\N", "\u0001\u001f\u007f", "' OR '1'='1"};
        for (String url : new String[] {JdbcTests.url(ClickHouseServers.legacy()), JdbcTests.url(ClickHouseServers.modern())}) {
            SingleConnectionDataSource one = new SingleConnectionDataSource(url, true);
            try {
                JdbcTemplate t = new JdbcTemplate(one);
                for (String h : hostile) {
                    Map<String, Object> row = t.queryForMap("SELECT ? AS v, length(?) AS n", h, h);
                    assertThat(row.get("v")).as(url + " " + h).isEqualTo(h);
                    assertThat(((Number) row.get("n")).longValue()).as(url + " " + h)
                            .isEqualTo(h.getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
                }
            } finally {
                one.destroy();
            }
        }
    }
}
