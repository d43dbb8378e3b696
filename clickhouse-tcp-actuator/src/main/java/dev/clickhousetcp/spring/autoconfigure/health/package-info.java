/**
 * Auto-configuration for the ClickHouse native TCP client's health indicator.
 */
@NullMarked
package dev.clickhousetcp.spring.autoconfigure.health;

import org.jspecify.annotations.NullMarked;
