/**
 * Auto-configuration of JDBC over the native protocol with {@code clickhouse-tcp-jdbc}: the driver class for
 * {@code jdbc:clickhouse:tcp://} URLs in Spring Boot's DataSource auto-configuration, native-port
 * {@code JdbcConnectionDetails} from service connections, and an opt-in {@code DataSource} over the
 * {@code clickhouse.tcp} client's own pool ({@link
 * dev.clickhousetcp.spring.autoconfigure.jdbc.ClickHouseTcpJdbcAutoConfiguration}).
 */
@NullMarked
package dev.clickhousetcp.spring.autoconfigure.jdbc;

import org.jspecify.annotations.NullMarked;
