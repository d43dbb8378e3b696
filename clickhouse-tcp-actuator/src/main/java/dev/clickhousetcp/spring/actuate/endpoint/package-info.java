/**
 * Actuator endpoint {@code clickhouse} for the ClickHouse native TCP client: servers, pools,
 * configuration and memory budget of every client.
 */
@NullMarked
package dev.clickhousetcp.spring.actuate.endpoint;

import org.jspecify.annotations.NullMarked;
