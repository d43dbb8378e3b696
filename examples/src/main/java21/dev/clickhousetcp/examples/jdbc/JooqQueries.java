package dev.clickhousetcp.examples.jdbc;

import dev.clickhousetcp.jdbc.ClickHouseDataSource;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * jOOQ's {@code SQLDialect.CLICKHOUSE} through the JDBC driver (jOOQ 3.20 or newer, which needs Java 21): a batch
 * of bound inserts (one {@code executeBatch}, so one INSERT of native blocks), then a typed query with
 * {@code where}, {@code groupBy}, {@code orderBy} and {@code limit} into a Java record. Columns are declared with
 * {@code DSL.field}; with jOOQ's code generator they would come from generated classes instead. Use
 * {@code databaseTerm=catalog} when jOOQ's runtime meta ({@code DSL.meta()}) should see the databases.
 */
public final class JooqQueries {

    private JooqQueries() {
    }

    /** Sales of one country: orders, their sum and the latest order time. */
    public record CountrySales(String country, int orders, BigDecimal total, OffsetDateTime latest) {
    }

    private static final Field<Long> ID = DSL.field(DSL.name("id"), SQLDataType.BIGINT);
    private static final Field<String> COUNTRY = DSL.field(DSL.name("country"), SQLDataType.VARCHAR);
    private static final Field<BigDecimal> AMOUNT = DSL.field(DSL.name("amount"), SQLDataType.DECIMAL(12, 2));
    private static final Field<OffsetDateTime> AT = DSL.field(DSL.name("at"), SQLDataType.TIMESTAMPWITHTIMEZONE(3));

    public static void main(String[] args) {
        String table = System.getProperty("example.table", "example_sales");
        DSLContext ctx = DSL.using(new ClickHouseDataSource("jdbc:clickhouse:tcp://"
                + System.getProperty("clickhouse.host", "127.0.0.1") + ":"
                + Integer.getInteger("clickhouse.port", 19000) + "/default?databaseTerm=catalog"),
                SQLDialect.CLICKHOUSE);
        try {
            run(ctx, table, 1_000).forEach(System.out::println);
        } finally {
            ctx.dropTableIfExists(DSL.name(table)).execute();   // also after a failure: the next run starts clean
        }
    }

    /**
     * Creates {@code table} if missing, inserts {@code rows} sales in one batch and returns the three countries
     * with the largest totals over orders of 5.00 or more.
     */
    public static List<CountrySales> run(DSLContext ctx, String table, int rows) {
        ctx.execute("CREATE TABLE IF NOT EXISTS {0} (id Int64, country LowCardinality(String), amount Decimal(12, 2),"
                + " at DateTime64(3, 'UTC')) ENGINE = MergeTree ORDER BY id", DSL.name(table));
        Table<Record> sales = DSL.table(DSL.name(table));
        String[] countries = {"NP", "DE", "BR", "JP", "CA"};
        OffsetDateTime start = OffsetDateTime.of(2024, 6, 1, 0, 0, 0, 0, ZoneOffset.UTC);
        var batch = ctx.batch(ctx.insertInto(sales, ID, COUNTRY, AMOUNT, AT).values((Long) null, null, null, null));
        for (int i = 0; i < rows; i++) {
            batch.bind((long) i, countries[i % countries.length], BigDecimal.valueOf(i % 997, 2).add(BigDecimal.ONE),
                    start.plusMinutes(i));
        }
        batch.execute();
        Field<Integer> orders = DSL.count().as("orders");
        Field<BigDecimal> total = DSL.sum(AMOUNT).as("total");
        Field<OffsetDateTime> latest = DSL.max(AT).as("latest");
        return ctx.select(COUNTRY, orders, total, latest)
                .from(sales)
                .where(AMOUNT.ge(new BigDecimal("5.00")))
                .groupBy(COUNTRY)
                .orderBy(total.desc(), COUNTRY)
                .limit(3)
                .fetchInto(CountrySales.class);
    }
}
