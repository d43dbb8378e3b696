package dev.clickhousetcp.client;

import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.ColumnWriter;
import dev.clickhousetcp.data.DataTypes;
import dev.clickhousetcp.data.DecodeLimits;
import dev.clickhousetcp.data.Lifetime;
import dev.clickhousetcp.data.ReadContext;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;
import dev.clickhousetcp.io.ChunkedInputStream;
import dev.clickhousetcp.io.CompressedInputStream;
import dev.clickhousetcp.io.FramedReader;
import dev.clickhousetcp.protocol.BlockCodec;
import dev.clickhousetcp.protocol.ClientPacket;
import dev.clickhousetcp.protocol.ProtocolRevision;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Our Data packets, checked offline before any server sees them: a block of several frames (and the
 * empty end-of-data block) is written the way an INSERT sends it, with and without chunked packet
 * framing, then read back through the frame decoder and the block codec.
 */
class BlockChannelTest {

    @ParameterizedTest
    @CsvSource({"LZ4,false", "LZ4,true", "ZSTD,false", "ZSTD,true", "CHECKSUM_ONLY,false", "NONE,true"})
    void insertBlocksRoundTrip(String compressionName, boolean chunked) throws IOException {
        Compression compression = switch (compressionName) {
            case "LZ4" -> Compression.LZ4;
            case "ZSTD" -> Compression.zstd(3);
            case "CHECKSUM_ONLY" -> Compression.CHECKSUM_ONLY;
            default -> Compression.NONE;
        };
        long rev = ProtocolRevision.CLIENT;
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        BinaryWriter rawOut = new BinaryWriter(wire, 64 * 1024);
        rawOut.setChunked(chunked);
        BlockChannel channel = new BlockChannel(null, rawOut, 64 * 1024, DecodeLimits.DEFAULT);
        channel.begin(compression);
        int rows = 300_000; // about 6 MB: several 1 MiB frames
        String[] names = {"id", "s", "f"};
        ColumnWriter[] writers = {DataTypes.parse("UInt64", ZoneOffset.UTC).newWriter(),
                DataTypes.parse("String", ZoneOffset.UTC).newWriter(),
                DataTypes.parse("Float64", ZoneOffset.UTC).newWriter()};
        for (int i = 0; i < rows; i++) {
            writers[0].append((long) i);
            writers[1].append("value-" + i);
            writers[2].append(i * 0.5);
        }
        channel.writeData(rev, names, writers, rows);
        rawOut.flush();
        channel.writeEmptyData();
        rawOut.flush();
        if (compression.enabled()) {
            assertThat(channel.framesWritten()).isGreaterThanOrEqualTo(6);
        }

        InputStream in = new ByteArrayInputStream(wire.toByteArray());
        if (chunked) {
            in = new ChunkedInputStream(in, Integer.MAX_VALUE);
        }
        BinaryReader raw = new BinaryReader(in, 64 * 1024, 1 << 20);
        FramedReader framed = new FramedReader(raw::readFully, 64 * 1024, 1 << 20, 1 << 20);
        BinaryReader body = compression.enabled() ? framed.reader() : raw;
        ReadContext ctx = new ReadContext(DecodeLimits.DEFAULT, ZoneOffset.UTC, rev, null);

        assertThat(raw.readVarUInt()).isEqualTo(ClientPacket.DATA);
        assertThat(raw.readString()).isEmpty();
        Block b = BlockCodec.read(body, ctx, Lifetime.FOREVER);
        assertThat(framed.atFrameEnd()).isTrue();
        assertThat(b.rowCount()).isEqualTo(rows);
        for (int i = 0; i < rows; i += 997) {
            assertThat(b.column(0).getLong(i)).isEqualTo(i);
            assertThat(b.column(1).getString(i)).isEqualTo("value-" + i);
            assertThat(b.column(2).getDouble(i)).isEqualTo(i * 0.5);
        }
        assertThat(raw.readVarUInt()).isEqualTo(ClientPacket.DATA);
        assertThat(raw.readString()).isEmpty();
        Block end = BlockCodec.read(body, ctx, Lifetime.FOREVER);
        assertThat(end.columnCount()).isZero();
        assertThat(end.rowCount()).isZero();
        assertThat(framed.atFrameEnd()).isTrue();
        assertThat(in.read()).isEqualTo(-1);
        if (compression.enabled()) {
            CompressedInputStream frames = framed.frames();
            assertThat(frames.framesRead()).isEqualTo(channel.framesWritten());
        }
    }
}
