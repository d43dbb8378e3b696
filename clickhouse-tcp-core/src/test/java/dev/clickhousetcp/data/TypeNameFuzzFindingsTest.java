package dev.clickhousetcp.data;

import org.junit.jupiter.api.Test;

import java.time.ZoneId;

import static org.assertj.core.api.Assertions.assertThat;

/** Findings of {@link TypeNameFuzzTest}, with minimal inputs. */
class TypeNameFuzzFindingsTest {
    private static final ZoneId UTC = ZoneId.of("UTC");

    /**
     * crash-db320418...: a Tuple element whose name needs back-quotes (here a space, a digit first, a
     * back-quote) lost them in the type's printed name, so the name did not parse back to the same
     * type, and an INSERT that sends the header's type name back would have sent a broken one.
     * Names are printed as ClickHouse's {@code backQuoteIfNeed} prints them, and read back with its
     * escapes.
     */
    @Test
    void tupleElementNamesThatNeedQuotesKeepThem() {
        DataType t = DataTypes.parse("Tuple(`a b` UInt8, `1st` String, `x\\`y` Int8, plain UInt8)", UTC);
        assertThat(t.name()).isEqualTo("Tuple(`a b` UInt8, `1st` String, `x\\`y` Int8, plain UInt8)");
        assertThat(((TupleType) t).names()).containsExactly("a b", "1st", "x`y", "plain");
        assertThat(DataTypes.parse(t.name(), UTC).name()).isEqualTo(t.name());
    }
}
