package dev.clickhousetcp.spring.actuate.endpoint;

import dev.clickhousetcp.spring.actuate.endpoint.ClickHouseEndpoint.ClickHouseClientDescriptor;
import dev.clickhousetcp.spring.actuate.endpoint.ClickHouseEndpoint.ClickHouseClientsDescriptor;
import dev.clickhousetcp.spring.actuate.endpoint.ClickHouseEndpoint.EndpointDescriptor;
import dev.clickhousetcp.spring.actuate.endpoint.ClickHouseEndpoint.PoolDescriptor;
import dev.clickhousetcp.spring.actuate.endpoint.ClickHouseEndpoint.ServerDescriptor;
import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.annotation.ReflectiveRuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code clickhouse} endpoint in a native image: Spring Boot's {@code @ReadOperation} processing (the
 * {@code @Reflective} processor Spring's AOT runs over every endpoint bean) registers binding hints for
 * the whole response, nested records included, so no hints of our own are needed.
 */
class ClickHouseEndpointRuntimeHintsTests {

    @Test
    void responseTypesGetBindingHints() {
        RuntimeHints hints = new RuntimeHints();
        new ReflectiveRuntimeHintsRegistrar().registerRuntimeHints(hints, ClickHouseEndpoint.class,
                ClickHouseEndpointWebExtension.class);
        for (Class<?> type : new Class<?>[] { ClickHouseClientsDescriptor.class, ClickHouseClientDescriptor.class,
                EndpointDescriptor.class, ServerDescriptor.class, PoolDescriptor.class, ClickHouseMemoryBudget.class,
                ClickHouseMemoryBudget.Term.class }) {
            assertThat(RuntimeHintsPredicates.reflection().onType(type).withMemberCategory(
                    MemberCategory.INVOKE_DECLARED_CONSTRUCTORS)).as(type.getName()).accepts(hints);
        }
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(ServerDescriptor.class, "version"))
            .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(ClickHouseMemoryBudget.Term.class, "bytes"))
            .accepts(hints);
    }

}
