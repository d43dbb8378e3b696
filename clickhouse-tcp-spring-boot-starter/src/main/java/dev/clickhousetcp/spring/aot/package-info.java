/**
 * Spring AOT and GraalVM native image support: {@link dev.clickhousetcp.spring.aot.ClickHouseTcpRuntimeHints}
 * for the client's own needs, and {@link dev.clickhousetcp.spring.aot.ClickHouseMappedTypes} /
 * {@link dev.clickhousetcp.spring.aot.ClickHouseMappingHints} to register the application's mapped records and
 * beans for reflection at build time.
 */
@NullMarked
package dev.clickhousetcp.spring.aot;

import org.jspecify.annotations.NullMarked;
