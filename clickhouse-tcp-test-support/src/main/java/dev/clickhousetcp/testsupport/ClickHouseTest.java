package dev.clickhousetcp.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Marks a test class (or method) that runs against real ClickHouse servers: registers
 * {@link ClickHouseServerExtension}, so {@link ClickHouseServer} parameters are injected (and the
 * servers started if needed), and tags the tests {@code clickhouse} so a build can select or exclude
 * them ({@code -Dgroups=clickhouse} / {@code -DexcludedGroups=clickhouse}).
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@ExtendWith(ClickHouseServerExtension.class)
@Tag("clickhouse")
public @interface ClickHouseTest {
}
