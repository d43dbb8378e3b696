/**
 * Auto-configuration of the ClickHouse native TCP client's Micrometer observations:
 * {@link dev.clickhousetcp.spring.autoconfigure.observation.ClickHouseTcpObservationAutoConfiguration}.
 */
@NullMarked
package dev.clickhousetcp.spring.autoconfigure.observation;

import org.jspecify.annotations.NullMarked;
