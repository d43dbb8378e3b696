package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseTypeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.ZoneId;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TypeNodeTest {

    @ParameterizedTest
    @ValueSource(strings = {"UInt64", "Array(Nullable(String))", "DateTime64(3, 'Asia/Tokyo')", "FixedString(16)",
        "Enum8('a' = 1, 'b\\'c' = -2)", "Tuple(id UInt64, name String)", "Map(String, Array(LowCardinality(String)))",
        "LowCardinality(Nullable(String))", "Tuple(UInt8, Array(Tuple(a Int8, b String)))", "DateTime('UTC')"})
    void parsesAndPrintsBack(String name) {
        assertThat(TypeNode.parse(name).toString()).isEqualTo(name);
        assertThat(DataTypes.parse(name, ZoneOffset.UTC).name()).isEqualTo(name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Array(Int32", "Array(Int32))", "Nullable()", "Enum8('a' = )", "DateTime('UTC",
        "Tuple(a UInt8,)", "(UInt8)", "Array(Int32) x"})
    void malformedNamesAreTypedErrors(String name) {
        assertThatThrownBy(() -> DataTypes.parse(name, ZoneOffset.UTC)).isInstanceOf(ClickHouseTypeException.class)
                .hasMessageContaining(name.isEmpty() ? "empty" : name.substring(0, 4));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Foo", "Array(Foo)", "FixedString(x)", "DateTime('Nowhere/Zone')", "Nullable(Array(Int8))",
        "UInt8(3)", "Map(String)"})
    void unsupportedOrInvalidTypesAreTypedErrors(String name) {
        assertThatThrownBy(() -> DataTypes.parse(name, ZoneOffset.UTC)).isInstanceOf(ClickHouseTypeException.class);
    }

    @Test
    void deepNestingIsBounded() {
        String deep = "Array(".repeat(100) + "UInt8" + ")".repeat(100);
        assertThatThrownBy(() -> TypeNode.parse(deep)).isInstanceOf(ClickHouseTypeException.class)
                .hasMessageContaining("deeper");
    }

    @Test
    void dateTimeWithoutZoneUsesTheServerZone() {
        DateTimeType t = (DateTimeType) DataTypes.parse("DateTime", ZoneId.of("Europe/Berlin"));
        assertThat(t.zone()).isEqualTo(ZoneId.of("Europe/Berlin"));
        DateTime64Type t64 = (DateTime64Type) DataTypes.parse("DateTime64(6, 'UTC')", ZoneId.of("Europe/Berlin"));
        assertThat(t64.zone()).isEqualTo(ZoneId.of("UTC"));
        assertThat(t64.scale()).isEqualTo(6);
    }

    @Test
    void aCachedTypeIsStillCheckedAgainstStricterLimits() {
        String name = "Array(Array(Array(UInt8)))";
        assertThat(DataTypes.parse(name, ZoneOffset.UTC).name()).isEqualTo(name); // cached under the defaults
        DecodeLimits shallow = DecodeLimits.DEFAULT.withTypeNameLimits(1 << 20, 2, 1 << 17);
        assertThatThrownBy(() -> DataTypes.parse(name, ZoneOffset.UTC, shallow))
                .isInstanceOf(ClickHouseTypeException.class).hasMessageContaining("deeper");
        DecodeLimits shortNames = DecodeLimits.DEFAULT.withTypeNameLimits(10, 64, 1 << 17);
        assertThatThrownBy(() -> DataTypes.parse(name, ZoneOffset.UTC, shortNames))
                .isInstanceOf(ClickHouseTypeException.class);
        assertThat(DataTypes.parse(name, ZoneOffset.UTC).name()).isEqualTo(name);
    }
}
