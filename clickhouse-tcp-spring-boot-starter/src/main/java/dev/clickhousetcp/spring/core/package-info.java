/**
 * Spring-style data access over the ClickHouse native TCP client: {@link
 * dev.clickhousetcp.spring.core.ClickHouseTcpTemplate} (the operations of {@link
 * dev.clickhousetcp.spring.core.ClickHouseTcpOperations}, with immutable per-call specs) and the translation of
 * client exceptions into Spring's {@code DataAccessException} hierarchy by {@link
 * dev.clickhousetcp.spring.core.ClickHouseTcpExceptionTranslator}, whose exceptions implement {@link
 * dev.clickhousetcp.spring.core.ClickHouseErrorDetails}.
 */
@NullMarked
package dev.clickhousetcp.spring.core;

import org.jspecify.annotations.NullMarked;
