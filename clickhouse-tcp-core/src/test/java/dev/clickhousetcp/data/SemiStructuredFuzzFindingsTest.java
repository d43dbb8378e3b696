package dev.clickhousetcp.data;

import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.fuzz.FuzzSupport;
import dev.clickhousetcp.io.BinaryReader;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.ZoneId;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Findings of {@link SemiStructuredFuzzTest}, replayed with explicit expectations. */
class SemiStructuredFuzzFindingsTest {

    /**
     * crash-7018df12...: a JSON column whose values arrive as text ({@code JsonColumn}'s text form) with
     * a value that is not JSON made {@code getObject} throw {@link IllegalArgumentException} from the
     * JSON text parser; malformed wire data is a {@link ClickHouseProtocolException} now.
     */
    @Test
    void aJsonValueThatIsNotJsonTextIsAProtocolError() throws IOException {
        byte[] input = FuzzSupport.resource(getClass(),
                "SemiStructuredFuzzTestInputs/column/crash-7018df12f8b32d1967e6b34775bcbe74dcf5d390");
        BinaryReader in = new BinaryReader(new ByteArrayInputStream(input, 2, input.length - 2), 1 << 16, 1 << 20);
        ZoneId utc = ZoneId.of("UTC");
        DataType type = DataTypes.parse(in.readString(), utc);
        DeserializationState state = type.readPrefix(in);
        Column c = type.read(in, input[1] & 0x7F, new ReadContext(DecodeLimits.DEFAULT, utc, 54488, null), state);
        assertThatThrownBy(() -> {
            for (int row = 0; row < c.size(); row++) {
                c.getObject(row);
            }
        }).isInstanceOf(ClickHouseProtocolException.class).hasMessageContaining("not valid JSON");
    }

    /**
     * crash-3a5da33e...: a Dynamic value in the shared variant (binary-encoded type and value) whose
     * String length exceeded the bytes left by no more than its own length prefix passed the bound,
     * which was taken before the prefix was read, and {@code new String} threw
     * {@link StringIndexOutOfBoundsException}. Minimal: length 5, then four bytes.
     */
    @Test
    void aBinaryStringLongerThanTheBytesLeftAfterItsLengthIsAProtocolError() {
        Bytes.Cursor c = new Bytes.Cursor(new byte[] {5, 'a', 'b', 'c', 'd'}, 0, 5);
        assertThatThrownBy(c::readString).isInstanceOf(ClickHouseProtocolException.class)
                .hasMessageContaining("more expected");
    }
}
