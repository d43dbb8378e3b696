package dev.clickhousetcp.data;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.fuzz.FuzzSupport;
import dev.clickhousetcp.io.BinaryReader;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.ZoneId;

/**
 * Coverage-guided fuzzing of the JSON, Dynamic and Variant readers (and the composites around them):
 * {@link DataType#readPrefix} then {@link DataType#read} of one column, as {@code BlockCodec} calls
 * them, then every value read. Seeds: single-column blocks of those types captured from ClickHouse 26.7.
 *
 * <p>Input: byte 0 picks the revision (26.7's 54488, or 54472 before the V2 Dynamic/JSON
 * serialization), byte 1 the row count (0..127), then the type name (VarUInt length and UTF-8
 * bytes; names without JSON, Dynamic, Variant or Object are skipped) and the column's bytes.
 *
 * <p>Invariants: the column decodes, or {@link ClickHouseProtocolException}, a
 * {@link ClickHouseTypeException} for the type name, or an {@link IOException} (the bytes ended);
 * nothing else, no {@link Error}; no hang.
 */
class SemiStructuredFuzzTest {
    private static final ZoneId UTC = ZoneId.of("UTC");

    @FuzzTest(maxDuration = "10s")
    @Timeout(FuzzSupport.INPUT_TIMEOUT_SECONDS)
    void column(byte[] input) {
        if (input.length < 3) {
            return;
        }
        long revision = (input[0] & 1) == 0 ? 54488 : 54472;
        int rows = input[1] & 0x7F;
        BinaryReader in = new BinaryReader(new ByteArrayInputStream(input, 2, input.length - 2), 1 << 16,
                DecodeLimits.DEFAULT.maxStringBytes());
        try {
            String name = in.readString();
            if (!(name.contains("JSON") || name.contains("Dynamic") || name.contains("Variant")
                    || name.contains("Object"))) {
                return;
            }
            DataType type = DataTypes.parse(name, UTC);
            ReadContext ctx = new ReadContext(DecodeLimits.DEFAULT, UTC, revision, null);
            DeserializationState state = type.readPrefix(in);
            Column c = type.read(in, rows, ctx, state);
            FuzzSupport.touch(c);
        } catch (ClickHouseProtocolException | ClickHouseTypeException | IOException expected) {
            // malformed, unsupported or truncated: the typed outcomes
        }
    }
}
