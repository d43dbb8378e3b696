/**
 * Auto-configuration for the ClickHouse native TCP client's Micrometer metrics.
 */
@NullMarked
package dev.clickhousetcp.spring.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;
