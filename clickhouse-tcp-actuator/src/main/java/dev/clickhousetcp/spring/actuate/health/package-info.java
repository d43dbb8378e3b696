/**
 * Actuator health indicator for the ClickHouse native TCP client.
 */
@NullMarked
package dev.clickhousetcp.spring.actuate.health;

import org.jspecify.annotations.NullMarked;
