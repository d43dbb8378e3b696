/**
 * Docker compose support: a {@code clickhouse/clickhouse-server} service defines the
 * {@link dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpConnectionDetails}.
 */
@NullMarked
package dev.clickhousetcp.spring.docker.compose;

import org.jspecify.annotations.NullMarked;
