package dev.clickhousetcp.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@link ClickHouseServer} parameter resolved by {@link ClickHouseServerExtension} as the
 * legacy server (ClickHouse 18.16); unmarked parameters get the modern server (ClickHouse 26.7).
 *
 * <pre>{@code
 * @ClickHouseTest
 * class TlsTest {
 *     @Test
 *     void handshake(@LegacyServer ClickHouseServer server) { ... server.tlsPort() ... }
 * }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface LegacyServer {
}
