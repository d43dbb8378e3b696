package dev.clickhousetcp.spring.autoconfigure.jdbc;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import dev.clickhousetcp.jdbc.ClickHouseDriver;
import dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpConnectionDetails;
import org.jspecify.annotations.Nullable;

/** Which JDBC URLs are clickhouse-tcp-jdbc's, and the one of a {@link ClickHouseTcpConnectionDetails}. */
final class ClickHouseTcpJdbcUrls {

    private static final ClickHouseDriver DRIVER = new ClickHouseDriver();

    private ClickHouseTcpJdbcUrls() {
    }

    /**
     * Whether the driver accepts {@code url}.
     * @param url a JDBC URL, or {@code null}
     * @return {@code true} for {@code jdbc:clickhouse:tcp://}, {@code jdbc:ch:tcp://} and their {@code tcps} forms
     */
    static boolean isNative(@Nullable String url) {
        return DRIVER.acceptsURL(url);
    }

    /**
     * Whether {@code url} is a ClickHouse URL of another driver (the HTTP ones, {@code jdbc:clickhouse://host:8123}),
     * which Spring Boot maps to {@code DatabaseDriver.CLICKHOUSE} and clickhouse-tcp-jdbc declines.
     * @param url a JDBC URL, or {@code null}
     * @return {@code true} for a {@code jdbc:clickhouse:} or {@code jdbc:ch:} URL the driver declines
     */
    static boolean isOtherClickHouse(@Nullable String url) {
        if (url == null || isNative(url)) {
            return false;
        }
        String lower = url.trim().toLowerCase(Locale.ROOT);
        return lower.startsWith("jdbc:clickhouse:") || lower.startsWith("jdbc:ch:");
    }

    /**
     * The driver's URL for the nodes and database of {@code details}: {@code jdbc:clickhouse:tcp://h1:p1,h2:p2/db}
     * (the password is not part of it).
     * @param details the native connection details; without an SSL bundle
     * @return the URL
     */
    static String of(ClickHouseTcpConnectionDetails details) {
        List<ClickHouseTcpConnectionDetails.Node> nodes = details.getNodes();
        String database = details.getDatabase();
        return "jdbc:clickhouse:tcp://" + nodes.stream().map(Object::toString).collect(Collectors.joining(","))
                + "/" + ((database != null) ? database : "default");
    }

}
