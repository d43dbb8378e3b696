package dev.clickhousetcp.data;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.clickhousetcp.fuzz.FuzzSupport;
import dev.clickhousetcp.ClickHouseTypeException;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.time.ZoneId;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Coverage-guided fuzzing of the type-name parser ({@link TypeNode#parse}) and the resolution of a
 * parsed name to a type family ({@link DataTypes#resolve}), the path every column header of a block
 * takes. Invariants: a name either resolves or throws {@link ClickHouseTypeException}, nothing else;
 * a resolved type's name parses again to the same name (the printed form is stable), and its writer
 * can be created. Inputs: the bytes as UTF-8 (invalid sequences become U+FFFD). Regression inputs in
 * {@code TypeNameFuzzTestInputs/typeName}.
 */
class TypeNameFuzzTest {
    private static final ZoneId UTC = ZoneId.of("UTC");

    @FuzzTest(maxDuration = "10s")
    @Timeout(FuzzSupport.INPUT_TIMEOUT_SECONDS)
    void typeName(byte[] input) {
        String name = new String(input, StandardCharsets.UTF_8);
        DataType type;
        try {
            type = DataTypes.resolve(TypeNode.parse(name), UTC);
        } catch (ClickHouseTypeException expected) {
            return;
        }
        String printed = type.name();
        DataType again = DataTypes.resolve(TypeNode.parse(printed), UTC);
        assertThat(again.name()).isEqualTo(printed);
        type.newWriter();
    }
}
