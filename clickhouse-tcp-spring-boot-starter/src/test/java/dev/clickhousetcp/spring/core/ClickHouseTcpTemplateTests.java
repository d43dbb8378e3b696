package dev.clickhousetcp.spring.core;

import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.IncorrectResultSizeDataAccessException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.dao.InvalidDataAccessResourceUsageException;
import org.springframework.dao.TypeMismatchDataAccessException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link ClickHouseTcpTemplate} against the real ClickHouse 26.7 server, in a database of its own.
 */
@ClickHouseTest
class ClickHouseTcpTemplateTests {

    private static final String DB = "spring_template_test";

    private static ClickHouseTcpClient client;

    private static ClickHouseTcpTemplate template;

    @BeforeAll
    static void connect(ClickHouseServer server) {
        client = ClickHouseTcpClient.builder().host(server.host()).port(server.tcpPort()).build();
        template = new ClickHouseTcpTemplate(client);
        template.execute("DROP DATABASE IF EXISTS " + DB);
        template.execute("CREATE DATABASE " + DB);
    }

    @AfterAll
    static void close() {
        if (template != null) {
            template.execute("DROP DATABASE IF EXISTS " + DB);
        }
        if (client != null) {
            client.close();
        }
    }

    record User(long id, String name, LocalDate joined, List<String> tags, Double score) {
    }

    @Test
    void roundTrip() {
        String table = DB + ".users";
        template.execute("CREATE TABLE " + table + " (id UInt64, name String, joined Date, tags Array(String), "
                + "score Nullable(Float64), at DateTime64(3, 'UTC')) ENGINE = MergeTree ORDER BY id");
        Instant at = Instant.parse("2024-05-06T07:08:09.123Z");
        long inserted = template.insert(table, List.of("id", "name", "joined", "tags", "score", "at"),
                List.of(new Object[] { 1L, "Alice", LocalDate.of(2024, 1, 2), List.of("a", "b"), 1.5, at },
                        new Object[] { 2L, "O'Brien", LocalDate.of(2024, 2, 3), List.of(), null, at },
                        new Object[] { 3L, "back\\slash\ttab", LocalDate.of(2024, 3, 4), List.of("c"), 3.0, at }));
        assertThat(inserted).isEqualTo(3);

        List<User> users = template.query("SELECT id, name, joined, tags, score FROM " + table + " ORDER BY id",
                (row, rowNum) -> new User(row.getLong("id"), row.getString("name"),
                        (LocalDate) row.getObject("joined"), stringList(row.getObject("tags")),
                        row.isNull("score") ? null : row.getDouble("score")));
        assertThat(users).containsExactly(new User(1, "Alice", LocalDate.of(2024, 1, 2), List.of("a", "b"), 1.5),
                new User(2, "O'Brien", LocalDate.of(2024, 2, 3), List.of(), null),
                new User(3, "back\\slash\ttab", LocalDate.of(2024, 3, 4), List.of("c"), 3.0));

        assertThat(template.queryForObject("SELECT count() FROM " + table, Long.class)).isEqualTo(3L);
        assertThat(template.queryForObject("SELECT count() FROM " + table, BigInteger.class))
            .isEqualTo(BigInteger.valueOf(3));
        assertThat(template.queryForObject("SELECT count() FROM " + table, int.class)).isEqualTo(3);
        assertThat(template.queryForObject("SELECT max(at) FROM " + table, Instant.class)).isEqualTo(at);
        assertThat(template.queryForObject("SELECT max(at) FROM " + table, LocalDateTime.class))
            .isEqualTo(LocalDateTime.ofInstant(at, ZoneOffset.UTC));
        assertThat(template.queryForObject("SELECT max(at) FROM " + table, String.class))
            .isEqualTo("2024-05-06 07:08:09.123");
        assertThat(template.queryForObject("SELECT score FROM " + table + " WHERE id = 2", Double.class)).isNull();

        // Parameters, including a string with a quote, a backslash and a tab.
        assertThat(template.queryForObject("SELECT id FROM " + table + " WHERE name = {name:String}",
                Map.of("name", "O'Brien"), Long.class)).isEqualTo(2L);
        assertThat(template.queryForObject("SELECT id FROM " + table + " WHERE name = {name:String}",
                Map.of("name", "back\\slash\ttab"), Long.class)).isEqualTo(3L);
        assertThat(template.query("SELECT name FROM " + table + " WHERE id IN {ids:Array(UInt64)} ORDER BY id",
                Map.of("ids", List.of(1, 3)), (row, rowNum) -> row.getString(0)))
            .containsExactly("Alice", "back\\slash\ttab");
        assertThat(template.queryForObject("SELECT count() FROM " + table
                + " WHERE joined >= {from:Date} AND at = {at:DateTime64(3)}",
                Map.of("from", LocalDate.of(2024, 2, 1), "at", at), Long.class)).isEqualTo(2L);

        List<Map<String, Object>> rows = template.queryForList(
                "SELECT id, name, score FROM " + table + " WHERE id <= {max:UInt64} ORDER BY id", Map.of("max", 2));
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0)).containsExactly(Map.entry("id", BigInteger.ONE), Map.entry("name", "Alice"),
                Map.entry("score", 1.5));
        assertThat(new ArrayList<>(rows.get(1).keySet())).containsExactly("id", "name", "score");
        assertThat(rows.get(1).get("score")).isNull();

        String upper = template.queryForObject("SELECT name FROM " + table + " WHERE id = {id:UInt64}",
                Map.of("id", 1), (row, rowNum) -> row.getString(0).toUpperCase());
        assertThat(upper).isEqualTo("ALICE");
    }

    @Test
    void insertColumnsAndInsertSelectProgress() {
        String table = DB + ".numbers";
        template.execute("CREATE TABLE " + table + " (n Int64, label String) ENGINE = MergeTree ORDER BY n");
        long inserted = template.insertColumns(table,
                Map.of("n", new long[] { 1, 2, 3 }, "label", List.of("one", "two", "three")));
        assertThat(inserted).isEqualTo(3);
        template.execute("INSERT INTO " + table + " SELECT number + 10, toString(number) FROM numbers({n:UInt32})",
                Map.of("n", 5));
        assertThat(template.queryForObject("SELECT sum(n) FROM " + table, Long.class))
            .isEqualTo(6L + 10 + 11 + 12 + 13 + 14);
    }

    @Test
    void parameterValuesOfManyTypesRoundTrip() {
        UUID uuid = UUID.randomUUID();
        Map<String, Object> params = new HashMap<>();
        params.put("s", "quote ' backslash \\ tab \t newline \n unicode \u00e9\u4e2d");
        params.put("i", -42);
        params.put("u", new BigInteger("18446744073709551615"));
        params.put("f", 1.0e-5);
        params.put("b", true);
        params.put("uuid", uuid);
        params.put("ldt", LocalDateTime.of(2024, 1, 2, 3, 4, 5));
        params.put("inst", Instant.parse("2024-01-02T03:04:05.250Z"));
        params.put("zdt", ZonedDateTime.parse("2024-01-02T12:04:05+09:00[Asia/Tokyo]"));
        params.put("epoch", Instant.EPOCH);
        params.put("small", Instant.ofEpochMilli(1_250));
        params.put("n", null);
        params.put("arr", new String[] { "it's", "b\\c", null });
        params.put("map", Map.of("k'", 1));
        params.put("nested", List.of(List.of(1, 2), List.of()));
        Map<String, Object> row = template.queryForList("SELECT {s:String} AS s, {i:Int32} AS i, {u:UInt64} AS u, "
                + "{f:Float64} AS f, {b:Bool} AS b, {uuid:UUID} AS uuid, "
                + "toString({ldt:DateTime('UTC')}) AS ldt, toString({inst:DateTime64(3, 'UTC')}) AS inst, "
                + "toString({zdt:DateTime('UTC')}) AS zdt, toUnixTimestamp({epoch:DateTime}) AS epoch, "
                + "toString({small:DateTime64(3, 'UTC')}) AS small, {n:Nullable(String)} AS n, "
                + "{arr:Array(Nullable(String))} AS arr, {map:Map(String, Int32)}['k\\''] AS map, "
                + "{nested:Array(Array(UInt8))} AS nested", params).get(0);
        assertThat(row.get("s")).isEqualTo(params.get("s"));
        assertThat(row.get("i")).isEqualTo(-42);
        assertThat(row.get("u")).isEqualTo(params.get("u"));
        assertThat(row.get("f")).isEqualTo(1.0e-5);
        assertThat(row.get("b")).isEqualTo(true);
        assertThat(row.get("uuid")).isEqualTo(uuid);
        assertThat(row.get("ldt")).isEqualTo("2024-01-02 03:04:05");
        assertThat(row.get("inst")).isEqualTo("2024-01-02 03:04:05.250");
        assertThat(row.get("zdt")).isEqualTo("2024-01-02 03:04:05");
        assertThat(row.get("epoch")).isEqualTo(0L);
        assertThat(row.get("small")).isEqualTo("1970-01-01 00:00:01.250");
        assertThat(row.get("n")).isNull();
        assertThat(row.get("arr")).isEqualTo(Arrays.asList("it's", "b\\c", null));
        assertThat(row.get("map")).isEqualTo(1);
        assertThat(row.get("nested")).asString().isEqualTo("[[1, 2], []]");
    }

    @Test
    void queryForObjectRejectsWrongResultSizes() {
        assertThatExceptionOfType(IncorrectResultSizeDataAccessException.class)
            .isThrownBy(() -> template.queryForObject("SELECT number FROM numbers(0)", Long.class))
            .satisfies((ex) -> assertThat(ex.getActualSize()).isZero());
        assertThatExceptionOfType(IncorrectResultSizeDataAccessException.class)
            .isThrownBy(() -> template.queryForObject("SELECT number FROM numbers(1000000)", Long.class));
        assertThatExceptionOfType(InvalidDataAccessApiUsageException.class)
            .isThrownBy(() -> template.queryForObject("SELECT 1, 2", Long.class))
            .withMessageContaining("one column");
        assertThatExceptionOfType(IncorrectResultSizeDataAccessException.class)
            .isThrownBy(() -> template.queryForObject("SELECT number FROM numbers(2)", (row, rowNum) -> row.getLong(0)));
        // The connection is still good after the early close.
        assertThat(template.queryForObject("SELECT 7", Integer.class)).isEqualTo(7);
    }

    @Test
    void queryForObjectConversionErrors() {
        assertThatExceptionOfType(TypeMismatchDataAccessException.class)
            .isThrownBy(() -> template.queryForObject("SELECT toUInt64(18446744073709551615)", Long.class));
        assertThatExceptionOfType(TypeMismatchDataAccessException.class)
            .isThrownBy(() -> template.queryForObject("SELECT 'x'", LocalDate.class));
        assertThat(template.queryForObject("SELECT 1 = 1", Boolean.class)).isTrue();
        assertThat(template.queryForObject("SELECT '42'", Long.class)).isEqualTo(42L);
    }

    @Test
    void errorsAreTranslated() {
        assertThatExceptionOfType(InvalidDataAccessResourceUsageException.class)
            .isThrownBy(() -> template.execute("SELEKT 1"))
            .withMessageContaining("SELEKT 1")
            .withCauseInstanceOf(ClickHouseServerException.class);
        assertThatExceptionOfType(InvalidDataAccessResourceUsageException.class)
            .isThrownBy(() -> template.queryForList("SELECT * FROM " + DB + ".no_such_table"));
        assertThatExceptionOfType(InvalidDataAccessApiUsageException.class)
            .isThrownBy(() -> template.execute("SELECT {missing:String}"));
        assertThatExceptionOfType(DataIntegrityViolationException.class)
            .isThrownBy(() -> template.execute("SELECT toInt32('abc')"));
        assertThatExceptionOfType(InvalidDataAccessApiUsageException.class)
            .isThrownBy(() -> template.execute("SELECT {p:String}", Map.of("p", new Object())))
            .withMessageContaining("'p'");
        assertThatExceptionOfType(TypeMismatchDataAccessException.class).isThrownBy(() -> {
            template.execute("CREATE TABLE IF NOT EXISTS " + DB + ".small (v UInt8) ENGINE = Memory");
            template.insert(DB + ".small", List.of("v"), List.<Object[]>of(new Object[] { 1000 }));
        });
        try (ClickHouseTcpClient closed = ClickHouseTcpClient.builder().host("127.0.0.1").port(1).build()) {
            assertThatExceptionOfType(DataAccessResourceFailureException.class)
                .isThrownBy(() -> new ClickHouseTcpTemplate(closed).execute("SELECT 1"));
        }
        // The pooled connections survived the server errors.
        assertThat(template.queryForObject("SELECT 1", Integer.class)).isEqualTo(1);
    }

    private static List<String> stringList(Object value) {
        List<String> out = new ArrayList<>();
        for (Object o : (List<?>) value) {
            out.add((String) o);
        }
        return out;
    }
}
