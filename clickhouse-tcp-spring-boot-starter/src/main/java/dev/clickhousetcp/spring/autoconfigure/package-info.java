/**
 * Auto-configuration for the ClickHouse native TCP client: {@link
 * dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpAutoConfiguration}, the {@code clickhouse.tcp.*}
 * {@link dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpProperties properties}, {@link
 * dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpConnectionDetails connection details} and
 * {@link dev.clickhousetcp.spring.autoconfigure.ClickHouseTcpClientBuilderCustomizer builder
 * customizers}.
 */
@NullMarked
package dev.clickhousetcp.spring.autoconfigure;

import org.jspecify.annotations.NullMarked;
