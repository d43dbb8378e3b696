package dev.clickhousetcp.client;

import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.mapping.AccessMode;
import dev.clickhousetcp.mapping.ClickHouseColumn;
import dev.clickhousetcp.mapping.ClickHouseConstructor;
import dev.clickhousetcp.mapping.MappingConfig;
import dev.clickhousetcp.mapping.MappingException;
import dev.clickhousetcp.mapping.UnmappedColumns;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.InetAddress;
import java.time.Duration;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Object mapping on the read side against ClickHouse 26.7: shapes, names, conversions, nulls, plan cache, errors. */
@ClickHouseTest
class MappingReadTest {

    public record Trade(long id, String symbol, double price, Integer qty, LocalDate day) {
    }

    public static class TradeBean {
        private long id;
        private String symbol;
        public double price;
        private Integer qty;
        private LocalDate day;

        public void setId(long id) {
            this.id = id;
        }

        public void setSymbol(String symbol) {
            this.symbol = symbol;
        }

        public void setQty(Integer qty) {
            this.qty = qty;
        }

        public void setDay(LocalDate day) {
            this.day = day;
        }

        Trade toRecord() {
            return new Trade(id, symbol, price, qty, day);
        }
    }

    public static final class TradeCtor {
        final long id;
        final String symbol;
        final double price;
        final Integer qty;
        final LocalDate day;

        public TradeCtor(long id, String symbol, double price, Integer qty, LocalDate day) {
            this.id = id;
            this.symbol = symbol;
            this.price = price;
            this.qty = qty;
            this.day = day;
        }

        Trade toRecord() {
            return new Trade(id, symbol, price, qty, day);
        }
    }

    public static final class Annotated {
        final long id;
        String label;

        public Annotated() {
            this(-1);
        }

        @ClickHouseConstructor
        public Annotated(@ClickHouseColumn("trade_id") long id) {
            this.id = id;
        }

        @ClickHouseColumn("display label")
        public void setLabel(String label) {
            this.label = label;
        }
    }

    static final String TRADES = "SELECT number AS id, concat('S', toString(number % 7)) AS symbol, number * 0.5 AS price, "
            + "if(number % 3 = 0, NULL, toInt32(number)) AS qty, toDate('2024-01-01') + number % 30 AS day "
            + "FROM numbers(@ROWS@) ORDER BY id";

    static String trades(int n) {
        return TRADES.replace("@ROWS@", Integer.toString(n));
    }

    @ParameterizedTest
    @EnumSource(value = AccessMode.class, names = {"LAMBDA", "METHOD_HANDLES", "REFLECTION"})
    void recordsBeansAndConstructorsAgreeWithBlocksAndRows(AccessMode mode) {
        ClickHouseServer server = ClickHouseServers.modern();
        try (ClickHouseTcpClient client = TestClients.builder(server)
                .mapping(MappingConfig.DEFAULT.withAccessMode(mode)).build()) {
            String sql = trades(200_000);
            List<Trade> records = client.query(sql, Trade.class);
            List<Trade> beans = client.query(sql, TradeBean.class).stream().map(TradeBean::toRecord).toList();
            List<Trade> ctors = client.query(sql, TradeCtor.class).stream().map(TradeCtor::toRecord).toList();
            List<Trade> rows = client.queryRows(sql).stream().map(r -> new Trade(((Number) r[0]).longValue(),
                    (String) r[1], (Double) r[2], (Integer) r[3], (LocalDate) r[4])).toList();
            List<Trade> fromBlocks = new ArrayList<>();
            try (QueryResult r = client.query(sql)) {
                for (Block b : r) {
                    for (int i = 0; i < b.rowCount(); i++) {
                        fromBlocks.add(new Trade(b.column(0).getLong(i), b.column(1).getString(i), b.column(2).getDouble(i),
                                b.column(3).isNull(i) ? null : b.column(3).getInt(i), (LocalDate) b.column(4).getObject(i)));
                    }
                }
            }
            assertThat(records).hasSize(200_000).isEqualTo(fromBlocks).isEqualTo(rows).isEqualTo(beans).isEqualTo(ctors);
            assertThat(records.get(4)).isEqualTo(new Trade(4, "S4", 2.0, 4, LocalDate.of(2024, 1, 5)));
            assertThat(records.get(3).qty()).isNull();
        }
    }

    @Test
    void constructorAnnotationAndColumnNames() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            List<Annotated> a = client.query("SELECT 7 AS trade_id, 'x' AS `display label`", Annotated.class);
            assertThat(a.get(0).id).isEqualTo(7);
            assertThat(a.get(0).label).isEqualTo("x");
        }
    }

    public record Names(long userId, String firstName, String URL, int count) {
    }

    @Test
    void nameMatchingExactCaseInsensitiveAndSnakeCase() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            Names n = client.query("SELECT 1 AS user_id, 'a' AS FIRSTNAME, 'u' AS url, 3 AS count", Names.class).get(0);
            assertThat(n).isEqualTo(new Names(1, "a", "u", 3));
        }
    }

    @Test
    void planIsBuiltOncePerShape() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            long before = client.mappers().plansBuilt();
            client.query(trades(10), Trade.class);
            assertThat(client.mappers().plansBuilt()).isEqualTo(before + 1);
            client.query(trades(1000), Trade.class);
            try (Stream<Trade> s = client.stream(trades(100), Trade.class)) {
                assertThat(s.count()).isEqualTo(100);
            }
            assertThat(client.mappers().plansBuilt()).isEqualTo(before + 1);
            // another shape (qty is Int64 here) is another plan
            client.query("SELECT 1 AS id, 'a' AS symbol, 0.5 AS price, toInt64(5) AS qty, today() AS day", Trade.class);
            assertThat(client.mappers().plansBuilt()).isEqualTo(before + 2);
        }
    }

    @Test
    void streamIsLazyAndClosesTheQuery() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            try (Stream<Trade> s = client.stream(trades(5_000_000), Trade.class)) {
                assertThat(s.limit(3).map(Trade::id).collect(Collectors.toList())).containsExactly(0L, 1L, 2L);
            }
            assertThat(client.poolStats().active()).isZero();
            long[] sum = {0};
            assertThat(client.forEach(trades(1000), Trade.class, t -> sum[0] += t.id())).isEqualTo(1000);
            assertThat(sum[0]).isEqualTo(999 * 1000 / 2);
        }
    }

    @Test
    void scalarResults() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            assertThat(client.query("SELECT count() FROM numbers(10)", Long.class)).containsExactly(10L);
            assertThat(client.query("SELECT toString(number) FROM numbers(2)", String.class)).containsExactly("0", "1");
            assertThat(client.query("SELECT [1, 2]", long[].class).get(0)).containsExactly(1, 2);
        }
    }

    public enum Color { RED, GREEN, BLUE }

    public record Point(int x, String label) {
    }

    public record Everything(
            byte i8, short u8, short i16, int u16, int i32, long u32, long i64, BigInteger u64, long u64small,
            float f32, double f64, boolean flag, String s, byte[] fs, LocalDate d, LocalDate d32,
            Instant dt, LocalDateTime dtLocal, ZonedDateTime dtZoned, OffsetDateTime dt64, UUID uuid,
            Color color, String colorName, Color colorFromString, Long nullableSome, Long nullableNone,
            Optional<String> optSome, Optional<String> optNone, int prim, List<Long> list, long[] longs,
            String[] strings, Set<Integer> set, List<Optional<String>> nullableElems, Map<String, List<Integer>> map,
            Point tuple, List<Object> tupleList, String lc, Color lcEnum, Optional<String> lcNullable, Object any) {
    }

    public record Newer(BigDecimal dec, double decDouble, java.net.InetAddress ip4, java.net.Inet6Address ip6,
                        BigInteger i128, long i128small) {
    }

    @Test
    void conversionsOfNewerTypes() {
        try {
            dev.clickhousetcp.data.DataTypes.parse("Decimal(9, 2)", java.time.ZoneOffset.UTC);
            dev.clickhousetcp.data.DataTypes.parse("IPv6", java.time.ZoneOffset.UTC);
        } catch (dev.clickhousetcp.ClickHouseTypeException e) {
            org.junit.jupiter.api.Assumptions.abort("Decimal/IPv6 decoding not available yet");
        }
        String sql = "SELECT toDecimal64('12.345', 3) AS dec, toDecimal32('1.5', 2) AS dec_double, toIPv4('10.1.2.3') AS ip4, "
                + "toIPv6('2001:db8::1') AS ip6, toInt128('-170141183460469231731687303715884105728') AS i128, "
                + "toUInt128(77) AS i128small";
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            Newer e = client.query(sql, Newer.class).get(0);
            Object[] row = client.queryRows(sql).get(0);
            assertThat(e.dec()).isEqualTo(new BigDecimal("12.345")).isEqualTo(row[0]);
            assertThat(e.decDouble()).isEqualTo(1.5);
            assertThat(e.ip4().getHostAddress()).isEqualTo("10.1.2.3");
            assertThat(e.ip6().getHostAddress()).isEqualTo("2001:db8:0:0:0:0:0:1");
            assertThat(e.i128()).isEqualTo(BigInteger.ONE.shiftLeft(127).negate()).isEqualTo(row[4]);
            assertThat(e.i128small()).isEqualTo(77);
        }
    }

    /** Targets chosen by the column's family (its parsed type), never by its name's spelling. */
    record ByFamily(double bf, float bfFloat, Number bfNumber, Object nothing, Duration time, Duration time64,
                    BigDecimal i256, double dec128, InetAddress ip6, Number dec) {
    }

    @Test
    void targetsFollowTheFamilyOfEveryColumn() {
        String sql = "SELECT toBFloat16(1.5) AS bf, toBFloat16(-2) AS bf_float, toBFloat16(0.25) AS bf_number, "
                + "NULL AS nothing, CAST('12:34:56' AS Time) AS time, CAST('-01:02:03.250' AS Time64(3)) AS time64, "
                + "toInt256('-57896044618658097711785492504343953926634992332820282019728792003956564819968') AS i256, "
                + "toDecimal128('3.25', 10) AS dec128, toIPv6('::ffff:10.1.2.3') AS ip6, toDecimal256('1.5', 30) AS dec "
                + "SETTINGS enable_time_time64_type = 1";
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            ByFamily e = client.query(sql, ByFamily.class).get(0);
            Object[] row = client.queryRows(sql).get(0);
            assertThat(e.bf()).isEqualTo(1.5);
            assertThat(e.bfFloat()).isEqualTo(-2f);
            assertThat(e.bfNumber()).isEqualTo(row[2]);
            assertThat(e.nothing()).isNull();
            assertThat(e.time()).isEqualTo(Duration.ofHours(12).plusMinutes(34).plusSeconds(56)).isEqualTo(row[4]);
            assertThat(e.time64()).isEqualTo(Duration.ofHours(1).plusMinutes(2).plusSeconds(3).plusMillis(250).negated())
                    .isEqualTo(row[5]);
            assertThat(e.i256()).isEqualTo(new BigDecimal(BigInteger.ONE.shiftLeft(255).negate()));
            assertThat(e.dec128()).isEqualTo(3.25);
            assertThat(e.ip6()).isEqualTo(row[8]);
            assertThat(e.dec()).isEqualTo(row[9]).isEqualTo(new BigDecimal("1.5").setScale(30));
        }
    }

    @Test
    void conversionsOfEveryFamilyAgreeWithGetObject() {
        String sql = "SELECT toInt8(-5) AS i8, toUInt8(200) AS u8, toInt16(-300) AS i16, toUInt16(60000) AS u16, "
                + "toInt32(-7) AS i32, toUInt32(4000000000) AS u32, toInt64(-9) AS i64, "
                + "toUInt64('18446744073709551615') AS u64, toUInt64(42) AS u64small, toFloat32(1.5) AS f32, "
                + "toFloat64(0.1) AS f64, true AS flag, 'héllo' AS s, toFixedString('ab', 4) AS fs, "
                + "toDate('2024-02-29') AS d, toDate32('1900-01-01') AS d32, "
                + "toDateTime('2024-01-02 03:04:05', 'Asia/Kolkata') AS dt, toDateTime('2024-01-02 03:04:05', 'Asia/Kolkata') AS dt_local, "
                + "toDateTime('2024-01-02 03:04:05', 'Asia/Kolkata') AS dt_zoned, "
                + "toDateTime64('2024-01-02 03:04:05.123456', 6, 'America/New_York') AS dt64, "
                + "toUUID('123e4567-e89b-12d3-a456-426614174000') AS uuid, "
                + "CAST('GREEN' AS Enum8('RED' = 1, 'GREEN' = 2, 'BLUE' = 3)) AS color, "
                + "CAST('BLUE' AS Enum16('RED' = -1000, 'GREEN' = 0, 'BLUE' = 1000)) AS color_name, "
                + "'RED' AS color_from_string, CAST(5 AS Nullable(Int64)) AS nullable_some, "
                + "CAST(NULL AS Nullable(Int64)) AS nullable_none, CAST('x' AS Nullable(String)) AS opt_some, "
                + "CAST(NULL AS Nullable(String)) AS opt_none, toInt32(9) AS prim, [1, 2, 3] AS list, "
                + "[toInt64(4), 5] AS longs, ['a', 'b'] AS strings, [1, 2, 2] AS set, [NULL, 'q'] AS nullable_elems, "
                + "map('k', [1, 2], 'l', []) AS map, (3, 'p') AS tuple, (4, 'r') AS tuple_list, "
                + "toLowCardinality('lc') AS lc, toLowCardinality('BLUE') AS lc_enum, "
                + "CAST(NULL AS LowCardinality(Nullable(String))) AS lc_nullable, [1, 2] AS any";
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            Everything e = client.query(sql, Everything.class).get(0);
            Object[] row = client.queryRows(sql).get(0);
            assertThat(e.i8()).isEqualTo((byte) -5).isEqualTo(row[0]);
            assertThat(e.u8()).isEqualTo((short) 200).isEqualTo(row[1]);
            assertThat(e.i16()).isEqualTo((short) -300).isEqualTo(row[2]);
            assertThat(e.u16()).isEqualTo(60000).isEqualTo(row[3]);
            assertThat(e.i32()).isEqualTo(-7).isEqualTo(row[4]);
            assertThat(e.u32()).isEqualTo(4_000_000_000L).isEqualTo(row[5]);
            assertThat(e.i64()).isEqualTo(-9L).isEqualTo(row[6]);
            assertThat(e.u64()).isEqualTo(new BigInteger("18446744073709551615")).isEqualTo(row[7]);
            assertThat(e.u64small()).isEqualTo(42L);
            assertThat(e.f32()).isEqualTo(1.5f).isEqualTo(row[9]);
            assertThat(e.f64()).isEqualTo(0.1).isEqualTo(row[10]);
            assertThat(e.flag()).isTrue().isEqualTo(row[11]);
            assertThat(e.s()).isEqualTo("héllo").isEqualTo(row[12]);
            assertThat(e.fs()).containsExactly('a', 'b', 0, 0);
            assertThat(e.d()).isEqualTo(LocalDate.of(2024, 2, 29)).isEqualTo(row[14]);
            assertThat(e.d32()).isEqualTo(LocalDate.of(1900, 1, 1)).isEqualTo(row[15]);
            ZonedDateTime kolkata = ZonedDateTime.of(2024, 1, 2, 3, 4, 5, 0, ZoneId.of("Asia/Kolkata"));
            assertThat(e.dt()).isEqualTo(kolkata.toInstant());
            assertThat(e.dtLocal()).isEqualTo(LocalDateTime.of(2024, 1, 2, 3, 4, 5));
            assertThat(e.dtZoned()).isEqualTo(kolkata).isEqualTo(row[18]);
            assertThat(e.dt64()).isEqualTo(ZonedDateTime.of(2024, 1, 2, 3, 4, 5, 123_456_000, ZoneId.of("America/New_York"))
                    .toOffsetDateTime());
            assertThat(e.uuid()).isEqualTo(UUID.fromString("123e4567-e89b-12d3-a456-426614174000")).isEqualTo(row[20]);
            assertThat(e.color()).isEqualTo(Color.GREEN);
            assertThat(e.colorName()).isEqualTo("BLUE").isEqualTo(row[22]);
            assertThat(e.colorFromString()).isEqualTo(Color.RED);
            assertThat(e.nullableSome()).isEqualTo(5L).isEqualTo(row[24]);
            assertThat(e.nullableNone()).isNull();
            assertThat(row[25]).isNull();
            assertThat(e.optSome()).contains("x");
            assertThat(e.optNone()).isEmpty();
            assertThat(e.prim()).isEqualTo(9);
            assertThat(e.list()).containsExactly(1L, 2L, 3L);
            assertThat(e.longs()).containsExactly(4, 5);
            assertThat(e.strings()).containsExactly("a", "b").isEqualTo(((List<?>) row[31]).toArray());
            assertThat(e.set()).containsExactly(1, 2);
            assertThat(e.nullableElems()).containsExactly(Optional.empty(), Optional.of("q"));
            assertThat(e.map()).isEqualTo(Map.of("k", List.of(1, 2), "l", List.of()));
            assertThat(e.tuple()).isEqualTo(new Point(3, "p"));
            assertThat(e.tupleList()).containsExactly((short) 4, "r").isEqualTo(row[36]);
            assertThat(e.lc()).isEqualTo("lc").isEqualTo(row[37]);
            assertThat(e.lcEnum()).isEqualTo(Color.BLUE);
            assertThat(e.lcNullable()).isEmpty();
            assertThat(e.any()).isEqualTo(row[40]);
        }
    }

    public record AsObject(Object v) {
    }

    public record AsText(String v) {
    }

    public record AsOptional(Optional<Object> v) {
    }

    /** For every type family of the insert round-trip test: object tier = Object[] tier = block getters. */
    @Test
    void everyTypeFamilyAgreesAcrossTiers() {
        java.util.Map<String, List<String>> types = InsertTest.common();
        types.putAll(InsertTest.modernOnly());
        List<String> failures = new ArrayList<>();
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            for (java.util.Map.Entry<String, List<String>> e : types.entrySet()) {
                StringBuilder sql = new StringBuilder();
                for (int i = 0; i < e.getValue().size(); i++) {
                    sql.append(i == 0 ? "" : " UNION ALL ").append("SELECT ").append(i).append(" AS k, CAST(")
                            .append(e.getValue().get(i)).append(" AS ").append(e.getKey()).append(") AS v");
                }
                String q = "SELECT v FROM (" + sql + ") ORDER BY k";
                List<Object> blockObjects = new ArrayList<>();
                List<String> blockText = new ArrayList<>();
                try (QueryResult r = client.query(q)) {
                    for (Block b : r) {
                        for (int i = 0; i < b.rowCount(); i++) {
                            blockObjects.add(b.column(0).getObject(i));
                            blockText.add(b.column(0).getString(i));
                        }
                    }
                }
                List<Object> rows = client.queryRows(q).stream().map(r -> r[0]).toList();
                List<Object> objects = client.query(q, AsObject.class).stream().map(AsObject::v).toList();
                List<String> text = client.query(q, AsText.class).stream().map(AsText::v).toList();
                List<Object> optional = client.query(q, AsOptional.class).stream().map(a -> a.v().orElse(null)).toList();
                List<Object> scalar = client.query(q, Object.class);
                if (!blockObjects.equals(rows) || !rows.equals(objects) || !objects.equals(optional)
                        || !objects.equals(scalar) || !blockText.equals(text)) {
                    failures.add(e.getKey() + ": block " + blockObjects + " / " + blockText + ", rows " + rows
                            + ", objects " + objects + ", text " + text);
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    public record Prim(long v) {
    }

    public record Small(byte v) {
    }

    public record Unsigned(long v) {
    }

    @Test
    void nullIntoPrimitiveAndOutOfRangeFailNamingColumnAndProperty() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            assertThatThrownBy(() -> client.query("SELECT if(number = 2, NULL, number) AS v FROM numbers(5)", Prim.class))
                    .isInstanceOf(MappingException.class).hasMessageContaining("column 'v' (Nullable(UInt64))")
                    .hasMessageContaining("Prim.v (long").hasMessageContaining("row 2").hasMessageContaining("NULL");
            assertThatThrownBy(() -> client.query("SELECT toInt32(number * 100) AS v FROM numbers(5)", Small.class))
                    .isInstanceOf(MappingException.class).hasMessageContaining("value 200 of Int32 does not fit byte")
                    .hasMessageContaining("Small.v");
            assertThatThrownBy(() -> client.query("SELECT toUInt64('18446744073709551615') AS v", Unsigned.class))
                    .isInstanceOf(MappingException.class).hasMessageContaining("18446744073709551615")
                    .hasMessageContaining("UInt64");
            assertThat(client.poolStats().active()).isZero();
        }
    }

    public record NeedsB(long a, long b) {
    }

    public record WrongType(LocalDate a, List<String> b) {
    }

    @Test
    void mismatchesFailWhenThePlanIsBuiltNamingColumnTypeAndProperty() {
        try (ClickHouseTcpClient client = TestClients.client(ClickHouseServers.modern())) {
            long before = client.mappers().plansBuilt();
            assertThatThrownBy(() -> client.query("SELECT 1 AS a", NeedsB.class))
                    .isInstanceOf(MappingException.class).hasMessageContaining("NeedsB.b (long, constructor parameter)")
                    .hasMessageContaining("no column");
            assertThatThrownBy(() -> client.query("SELECT 'x' AS a, 5 AS b", WrongType.class))
                    .isInstanceOf(MappingException.class)
                    .hasMessageContaining("column 'a' (String) -> WrongType.a (java.time.LocalDate")
                    .hasMessageContaining("column 'b' (UInt8) -> WrongType.b (java.util.List<String>");
            assertThat(client.mappers().plansBuilt()).isEqualTo(before);
            try (ClickHouseTcpClient strict = TestClients.builder(ClickHouseServers.modern())
                    .mapping(MappingConfig.DEFAULT.withUnmappedColumns(UnmappedColumns.FAIL)).build()) {
                assertThatThrownBy(() -> strict.query("SELECT 1 AS a, 2 AS b, 3 AS c", NeedsB.class))
                        .isInstanceOf(MappingException.class).hasMessageContaining("column 'c' (UInt8) has no property");
            }
            assertThat(client.query("SELECT 1 AS a, 2 AS b, 3 AS c", NeedsB.class)).containsExactly(new NeedsB(1, 2));
        }
    }
}
