/**
 * Spring-style data access over the ClickHouse native TCP client: {@link
 * dev.clickhousetcp.spring.core.ClickHouseTcpTemplate} and the translation of client exceptions into
 * Spring's {@code DataAccessException} hierarchy.
 */
@NullMarked
package dev.clickhousetcp.spring.core;

import org.jspecify.annotations.NullMarked;
