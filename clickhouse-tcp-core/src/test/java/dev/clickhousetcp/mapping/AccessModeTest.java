package dev.clickhousetcp.mapping;

import dev.clickhousetcp.data.DataType;
import dev.clickhousetcp.data.DataTypes;
import org.junit.jupiter.api.Test;

import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Accessor compilation per mode, and plan-time checks that need no server. */
class AccessModeTest {
    public static final class Bean {
        private long id;
        public String name;

        public void setId(long id) {
            this.id = id;
        }

        public long getId() {
            return id;
        }
    }

    private static Prop prop(List<Prop> props, String name) {
        return props.stream().filter(p -> p.name.equals(name)).findFirst().orElseThrow();
    }

    @Test
    void lambdaModeCompilesSettersNextToTheClassAndOtherModesDoNot() {
        TypeModel m = TypeModel.of(Bean.class);
        Object lambda = Accessors.setter(AccessMode.LAMBDA, prop(m.writable, "id"));
        assertThat(lambda).isInstanceOf(Access.LongSetter.class);
        assertThat(lambda.getClass().getName()).startsWith(Bean.class.getName() + "$$Lambda");
        Object mh = Accessors.setter(AccessMode.METHOD_HANDLES, prop(m.writable, "id"));
        Object refl = Accessors.setter(AccessMode.REFLECTION, prop(m.writable, "id"));
        assertThat(mh.getClass().getName()).doesNotStartWith(Bean.class.getName());
        assertThat(refl.getClass().getName()).doesNotStartWith(Bean.class.getName());
        Bean b = new Bean();
        ((Access.LongSetter) lambda).set(b, 1);
        assertThat(((Access.LongGetter) Accessors.getter(AccessMode.LAMBDA, prop(m.readable, "id"))).get(b)).isEqualTo(1);
        ((Access.LongSetter) mh).set(b, 2);
        assertThat(((Access.LongGetter) Accessors.getter(AccessMode.METHOD_HANDLES, prop(m.readable, "id"))).get(b))
                .isEqualTo(2);
        ((Access.LongSetter) refl).set(b, 3);
        assertThat(((Access.LongGetter) Accessors.getter(AccessMode.REFLECTION, prop(m.readable, "id"))).get(b))
                .isEqualTo(3);
        // fields: method handles in every mode but reflection
        ((Access.ObjectSetter) Accessors.setter(AccessMode.LAMBDA, prop(m.writable, "name"))).set(b, "x");
        assertThat(b.name).isEqualTo("x");
    }

    @Test
    void autoResolvesFromTheSystemProperty() {
        String old = System.getProperty(AccessMode.PROPERTY);
        try {
            System.setProperty(AccessMode.PROPERTY, "reflection");
            assertThat(AccessMode.AUTO.resolve()).isEqualTo(AccessMode.REFLECTION);
            System.setProperty(AccessMode.PROPERTY, "method-handles");
            assertThat(AccessMode.AUTO.resolve()).isEqualTo(AccessMode.METHOD_HANDLES);
            System.clearProperty(AccessMode.PROPERTY);
            assertThat(AccessMode.AUTO.resolve()).isEqualTo(AccessMode.LAMBDA);
        } finally {
            if (old != null) {
                System.setProperty(AccessMode.PROPERTY, old);
            }
        }
    }

    public record Two(long a, String b) {
    }

    public record Ambiguous(long userId, long user_id) {
    }

    @Test
    void plansAreCachedPerShapeAndMismatchesAreNot() {
        Mappers m = new Mappers(MappingConfig.DEFAULT);
        List<DataType> types = List.of(DataTypes.parse("Int64", ZoneOffset.UTC), DataTypes.parse("String", ZoneOffset.UTC));
        ReadPlan<Two> p1 = m.readPlan(Two.class, List.of("a", "b"), types);
        assertThat(m.readPlan(Two.class, List.of("a", "b"), types)).isSameAs(p1);
        assertThat(m.plansBuilt()).isEqualTo(1);
        assertThat(m.readPlan(Two.class, List.of("A", "B"), types)).isNotSameAs(p1);
        assertThat(m.plansBuilt()).isEqualTo(2);
        assertThatThrownBy(() -> m.readPlan(Two.class, List.of("b", "a"), types))
                .isInstanceOf(MappingException.class)
                .hasMessageContaining("column 'a' (String) -> Two.a (long, constructor parameter): "
                        + "cannot convert ClickHouse String to long");
        assertThat(m.plansBuilt()).isEqualTo(2);
        assertThatThrownBy(() -> m.readPlan(Ambiguous.class, List.of("User__Id"), types.subList(0, 1)))
                .isInstanceOf(MappingException.class).hasMessageContaining("matches several");
    }
}
