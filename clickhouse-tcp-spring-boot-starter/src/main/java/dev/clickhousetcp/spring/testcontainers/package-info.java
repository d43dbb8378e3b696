/**
 * Testcontainers support: {@code @ServiceConnection} on a {@code ClickHouseContainer} defines the
 * {@link dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpConnectionDetails}.
 */
@NullMarked
package dev.clickhousetcp.spring.testcontainers;

import org.jspecify.annotations.NullMarked;
