package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseProtocolException;
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
        BinaryWriter w = new BinaryWriter(bos, 256);
        w.writeVarUInt(ServerPacket.HELLO);
        w.writeString("ClickHouse");
        w.writeVarUInt(18);
        w.writeVarUInt(16);
        w.writeVarUInt(54412);
        w.writeString("UTC");
        w.writeString("fuzz");
        w.writeVarUInt(1);
        return w;
    }

    static ClickHouseConnection connect(byte[] server) {
        return ClickHouseConnection.handshake(ConnectionConfig.builder().host("fuzz").port(9000).build(),
                new InMemoryTransport(server, 1 << 16), new ClickHouseConnection.Guard(Budget.NONE));
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
}
