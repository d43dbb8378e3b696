/**
 * Micrometer metrics for the ClickHouse native TCP client.
 */
@NullMarked
package dev.clickhousetcp.spring.actuate.metrics;

import org.jspecify.annotations.NullMarked;
