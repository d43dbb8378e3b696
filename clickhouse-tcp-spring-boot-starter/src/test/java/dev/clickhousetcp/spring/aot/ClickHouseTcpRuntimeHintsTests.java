package dev.clickhousetcp.spring.aot;

import dev.clickhousetcp.mapping.ClickHouseColumn;
import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ClickHouseTcpRuntimeHints}: the client's own reflection needs.
 */
class ClickHouseTcpRuntimeHintsTests {

    @Test
    void lz4ImplementationsAndMappingAnnotationsAreRegistered() throws Exception {
        RuntimeHints hints = new RuntimeHints();
        new ClickHouseTcpRuntimeHints().registerHints(hints, getClass().getClassLoader());
        for (String lz4 : ClickHouseTcpRuntimeHints.LZ4_CLASSES) {
            Class<?> type = Class.forName(lz4);
            assertThat(RuntimeHintsPredicates.reflection().onFieldAccess(type.getField("INSTANCE"))).accepts(hints);
        }
        assertThat(RuntimeHintsPredicates.reflection().onType(ClickHouseColumn.class)).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(ClickHouseColumn.class, "value"))
            .accepts(hints);
    }

    @Test
    void registeredThroughAotFactories() {
        assertThat(SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories")
            .load(RuntimeHintsRegistrar.class)).hasAtLeastOneElementOfType(ClickHouseTcpRuntimeHints.class);
    }
}
