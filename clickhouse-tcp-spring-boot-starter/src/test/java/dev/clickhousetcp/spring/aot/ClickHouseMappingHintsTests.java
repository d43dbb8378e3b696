package dev.clickhousetcp.spring.aot;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.clickhousetcp.mapping.ClickHouseColumn;
import dev.clickhousetcp.mapping.ClickHouseConstructor;
import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ClickHouseMappingHints}: what the client's reflective mappers touch is registered.
 */
class ClickHouseMappingHintsTests {

    enum Side {
        BUY, SELL
    }

    record Leg(String venue, Side side) {
    }

    record Price(double bid, double ask) {
    }

    private record Trade(long id, @ClickHouseColumn("sym") String symbol, List<Leg> legs, Map<String, Price> quotes,
            Optional<LocalDate> day, Price[] history) {
    }

    static class Base {

        private long id;

        public long getId() {
            return this.id;
        }
    }

    static class Bean extends Base {

        private String name;

        private Side side;

        Bean() {
        }

        public void setName(String name) {
            this.name = name;
        }

        public String getName() {
            return this.name;
        }

        public Side getSide() {
            return this.side;
        }
    }

    static class Bound {

        private final long id;

        @ClickHouseConstructor
        Bound(@ClickHouseColumn("id") long id) {
            this.id = id;
        }

        long id() {
            return this.id;
        }
    }

    @Test
    void recordsWithTheirNestedTypes() throws Exception {
        RuntimeHints hints = new RuntimeHints();
        ClickHouseMappingHints.registerMappedTypes(hints.reflection(), Trade.class);
        assertThat(RuntimeHintsPredicates.reflection()
            .onConstructorInvocation(Trade.class.getDeclaredConstructor(long.class, String.class, List.class,
                    Map.class, Optional.class, Price[].class))).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Trade.class, "symbol")).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onFieldAccess(Trade.class.getDeclaredField("legs")))
            .accepts(hints);
        // A Tuple column into a nested record, list elements, map values, array components, enums.
        for (Class<?> nested : List.of(Leg.class, Price.class)) {
            assertThat(RuntimeHintsPredicates.reflection().onConstructorInvocation(nested.getDeclaredConstructors()[0]))
                .accepts(hints);
        }
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Side.class, "values")).accepts(hints);
        // JDK types need nothing.
        assertThat(hints.reflection().getTypeHint(String.class)).isNull();
        assertThat(hints.reflection().getTypeHint(LocalDate.class)).isNull();
        assertThat(hints.reflection().getTypeHint(List.class)).isNull();
    }

    @Test
    void beansWithTheirSuperclassesAndConstructorBoundClasses() throws Exception {
        RuntimeHints hints = new RuntimeHints();
        ClickHouseMappingHints.registerMappedTypes(hints.reflection(), Bean.class, Bound.class);
        assertThat(RuntimeHintsPredicates.reflection().onConstructorInvocation(Bean.class.getDeclaredConstructor()))
            .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Bean.class, "setName")).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onFieldAccess(Bean.class.getDeclaredField("side")))
            .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onFieldAccess(Base.class.getDeclaredField("id")))
            .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Base.class, "getId")).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(Side.class)).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection()
            .onConstructorInvocation(Bound.class.getDeclaredConstructor(long.class))).accepts(hints);
    }

    @Test
    void jdkTypesAndPrimitivesAreSkipped() {
        RuntimeHints hints = new RuntimeHints();
        ClickHouseMappingHints.registerMappedTypes(hints.reflection(), String.class, long.class, Long[].class,
                LocalDate.class);
        assertThat(hints.reflection().typeHints()).isEmpty();
    }
}
