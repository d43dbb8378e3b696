/**
 * Auto-configuration for the {@code clickhouse} actuator endpoint.
 */
@NullMarked
package dev.clickhousetcp.spring.autoconfigure.endpoint;

import org.jspecify.annotations.NullMarked;
