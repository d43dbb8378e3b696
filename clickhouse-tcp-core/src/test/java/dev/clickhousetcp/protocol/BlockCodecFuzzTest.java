package dev.clickhousetcp.protocol;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.BufferPool;
import dev.clickhousetcp.data.DecodeLimits;
import dev.clickhousetcp.data.Lifetime;
import dev.clickhousetcp.data.ReadContext;
import dev.clickhousetcp.fuzz.FuzzSupport;
import dev.clickhousetcp.io.BinaryReader;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.ZoneId;

/**
 * Coverage-guided fuzzing of the block codec ({@link BlockCodec#read}) for every type family, with
 * the pooled {@link ReadContext} and default {@link DecodeLimits} a connection uses, then every value
 * of the decoded block read as object and as text. Seeds: every block body of the plain streams
 * captured from ClickHouse 26.7 and 18.16 (one query per type family, wrapped in Array, Tuple,
 * Nullable, Map and LowCardinality where ClickHouse allows it; Log and ProfileEvents blocks).
 *
 * <p>Input: byte 0 picks the revision the block is decoded at ({@link #REVISIONS}, modulo its size:
 * 0 is 26.7's 54488, 1 is 18.16's 54412, then the revisions where the block format changed), the rest
 * is the block body as it follows a Data packet's table name.
 *
 * <p>Invariants: a block decodes, or {@link ClickHouseProtocolException} (malformed),
 * {@link ClickHouseTypeException} (a type it cannot decode, e.g. the state of an aggregate function
 * whose layout is unknown) or an {@link IOException} (the bytes ended) is thrown; nothing else, no
 * {@link Error}; no hang.
 */
class BlockCodecFuzzTest {
    static final long[] REVISIONS = {54488, 54412, 54482, 54481, 54478, 54473, 54465, 54454, 54453, 54406};
    private static final ZoneId UTC = ZoneId.of("UTC");

    @FuzzTest(maxDuration = "10s")
    @Timeout(FuzzSupport.INPUT_TIMEOUT_SECONDS)
    void block(byte[] input) {
        if (input.length == 0) {
            return;
        }
        long revision = REVISIONS[(input[0] & 0xFF) % REVISIONS.length];
        BinaryReader in = new BinaryReader(new ByteArrayInputStream(input, 1, input.length - 1), 1 << 16,
                DecodeLimits.DEFAULT.maxStringBytes());
        ReadContext ctx = new ReadContext(DecodeLimits.DEFAULT, UTC, revision, new BufferPool(64L << 20));
        Lifetime lifetime = new Lifetime("a fuzzed block");
        try {
            Block b = BlockCodec.read(in, ctx, lifetime);
            FuzzSupport.touch(b);
        } catch (ClickHouseProtocolException | ClickHouseTypeException | IOException expected) {
            // malformed, an unsupported type (e.g. an aggregate state layout) or truncated: the typed outcomes
        } finally {
            lifetime.release();
        }
    }
}
