package dev.clickhousetcp.protocol;

import dev.clickhousetcp.io.BinaryWriter;

import java.io.IOException;

/** Hand-made Native block headers for decoder tests, at revisions with custom serialization (54454 and later). */
public final class TestBlocks {
    private TestBlocks() {
    }

    /**
     * BlockInfo (not an overflow block, bucket -1), one column {@code x} of {@code type} with {@code rows} rows,
     * then its serialization kinds: none ({@code has_custom_serialization} 0) when {@code kinds} is empty, else 1
     * and the kind codes in the order the header lists them (a Tuple's, then its elements'; 1 sparse,
     * 4 replicated, per {@link BlockCodec}). The column's data follows.
     */
    public static void header(BinaryWriter out, int rows, String type, int... kinds) throws IOException {
        out.writeVarUInt(1);
        out.writeUInt8(0);
        out.writeVarUInt(2);
        out.writeInt32(-1);
        out.writeVarUInt(0);
        out.writeVarUInt(1);
        out.writeVarUInt(rows);
        out.writeString("x");
        out.writeString(type);
        if (kinds.length == 0) {
            out.writeUInt8(0);
        } else {
            out.writeUInt8(1);
            for (int k : kinds) {
                out.writeUInt8(k);
            }
        }
    }
}
