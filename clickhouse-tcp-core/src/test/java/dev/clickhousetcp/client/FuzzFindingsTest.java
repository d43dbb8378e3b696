package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.io.BinaryWriter;
import dev.clickhousetcp.protocol.ServerPacket;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Findings of {@link ServerPacketFuzzTest}, each with its input made minimal by hand (the fuzzer's own
 * input is in {@code ServerPacketFuzzTestInputs/serverStream}, replayed by the regression run).
 */
class FuzzFindingsTest {

    /** A server Hello of revision 54412 (ClickHouse 18.16's field set). */
    static BinaryWriter hello(ByteArrayOutputStream bos) throws IOException {
        return hello(bos, "fuzz");
    }

    /**
     * A server Hello of revision 54412 (ClickHouse 18.16's field set: name, version 18.16, revision,
     * time zone, display name, patch), written to {@code bos} by the returned writer (not yet flushed).
     */
    static BinaryWriter hello(ByteArrayOutputStream bos, String displayName) throws IOException {
        BinaryWriter w = new BinaryWriter(bos, 256);
        w.writeVarUInt(ServerPacket.HELLO);
        w.writeString("ClickHouse");
        w.writeVarUInt(18);
        w.writeVarUInt(16);
        w.writeVarUInt(54412);
        w.writeString("UTC");
        w.writeString(displayName);
        w.writeVarUInt(1);
        return w;
    }

    static ClickHouseConnection connect(byte[] server) {
        return ConnectionOpener.handshake(ConnectionConfig.builder().host("fuzz").port(9000)
                        .compression(Compression.NONE).build(),
                new InMemoryTransport(server, 1 << 16), new ConnectionGuard(Budget.NONE));
    }

    /**
     * crash-46bc08de...: an INSERT answered with EndOfStream instead of its header block threw
     * {@link ClickHouseProtocolException} but left the connection READY, so a pool would have lent it
     * again although the protocol exception says the connection is discarded.
     */
    @Test
    void anInsertEndedWithoutItsHeaderDiscardsTheConnection() throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        BinaryWriter w = hello(bos);
        w.writeVarUInt(ServerPacket.END_OF_STREAM);
        w.flush();
        ClickHouseConnection conn = connect(bos.toByteArray());
        assertThatThrownBy(() -> conn.insert("INSERT INTO t VALUES", QueryOptions.DEFAULT))
                .isInstanceOf(ClickHouseProtocolException.class).hasMessageContaining("without sending its header");
        assertThat(conn.isUsable()).isFalse();
    }

    /** A Data packet of one UInt8 column {@code a} holding {@code values} (revision 54412: no serialization kinds). */
    static void data(BinaryWriter w, int... values) throws IOException {
        w.writeVarUInt(ServerPacket.DATA);
        w.writeString("");
        w.writeVarUInt(1);
        w.writeUInt8(0);
        w.writeVarUInt(2);
        w.writeInt32(-1);
        w.writeVarUInt(0);
        w.writeVarUInt(1);
        w.writeVarUInt(values.length);
        w.writeString("a");
        w.writeString("UInt8");
        for (int v : values) {
            w.writeUInt8(v);
        }
    }

    /**
     * crash-5070597f...: a response whose first Data block already has rows (real servers send an empty
     * header block first, but nothing in the protocol requires it) made that block the result's header;
     * once the stream moved on, the header's columns were released and checking the second block's shape
     * against them threw {@link IllegalStateException} (surfacing as a plain {@code ClickHouseException}),
     * and {@link QueryResult#header()} returned a block with rows that was no longer valid.
     */
    @Test
    void aFirstDataBlockWithRowsGivesAHeaderThatOutlivesIt() throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        BinaryWriter w = hello(bos);
        data(w, 7);
        data(w, 8, 9);
        w.writeVarUInt(ServerPacket.END_OF_STREAM);
        w.flush();
        ClickHouseConnection conn = connect(bos.toByteArray());
        long sum = 0;
        try (QueryResult r = conn.query("SELECT a", QueryOptions.DEFAULT)) {
            for (Block b : r) {
                for (int row = 0; row < b.rowCount(); row++) {
                    sum += b.column(0).getLong(row);
                }
            }
            assertThat(r.rowCount()).isEqualTo(3);
            assertThat(r.header().rowCount()).isZero();
            assertThat(r.header().column(0).type().name()).isEqualTo("UInt8");
        }
        assertThat(sum).isEqualTo(24);
        assertThat(conn.isUsable()).isTrue();
    }
}
