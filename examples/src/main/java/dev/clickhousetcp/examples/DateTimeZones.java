package dev.clickhousetcp.examples;

import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.client.QueryOptions;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZonedDateTime;
import java.util.List;

/**
 * DateTime and time zones: a DateTime value is an instant; its zone decides the wall clock. The column
 * type's zone ({@code DateTime('Asia/Tokyo')}) wins; a zone-less type uses the query's
 * {@code session_timezone} setting, else the server's zone. Read as {@code ZonedDateTime},
 * {@code Instant}, {@code LocalDateTime} (the wall clock in the column's zone) or {@code OffsetDateTime}.
 */
public final class DateTimeZones {

    public static final String SQL = "SELECT toDateTime('2024-03-10 01:30:00', 'America/New_York') AS ny,"
            + " toDateTime64('2024-03-10 01:30:00.123', 3, 'Asia/Tokyo') AS tokyo,"
            + " toDateTime('2024-03-10 01:30:00') AS plain, plain AS plain_zoned";

    private DateTimeZones() {
    }

    public record Times(ZonedDateTime ny, Instant tokyo, LocalDateTime plain, ZonedDateTime plainZoned) {
    }

    public static void main(String[] args) {
        try (ClickHouseTcpClient client = ClickHouseTcpClient.builder()
                .host(System.getProperty("clickhouse.host", "127.0.0.1"))
                .port(Integer.getInteger("clickhouse.port", 19000)).build()) {
            run(client).forEach(System.out::println);
        }
    }

    /** The same SQL without a session zone and in the session zone Europe/Berlin. */
    public static List<Times> run(ClickHouseTcpClient client) {
        Times serverZone = client.query(SQL, Times.class).get(0);
        QueryOptions berlin = QueryOptions.builder().setting("session_timezone", "Europe/Berlin").build();
        Times sessionZone = client.query(SQL, berlin, Times.class).get(0);
        return List.of(serverZone, sessionZone);
    }
}
