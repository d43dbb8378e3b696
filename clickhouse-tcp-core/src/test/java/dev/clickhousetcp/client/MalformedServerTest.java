package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.io.BinaryWriter;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Malformed server output that no real server produces on purpose: a tiny loopback endpoint answers
 * the handshake like a revision-54412 server (ClickHouse 18.16's field set) and then sends crafted
 * packets. Each case must end in a typed exception and a discarded connection.
 */
class MalformedServerTest {

    /** Runs a one-connection fake endpoint; {@code script} writes the packets after the Hello. */
    static int serve(Consumer<BinaryWriter> script) throws IOException {
        ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        CompletableFuture.runAsync(() -> {
            try (ss; Socket s = ss.accept()) {
                InputStream in = s.getInputStream();
                in.read(new byte[4096]); // the client's Hello
                BinaryWriter w = new BinaryWriter(s.getOutputStream(), 1 << 16);
                w.writeVarUInt(0); // Hello
                w.writeString("ClickHouse");
                w.writeVarUInt(18);
                w.writeVarUInt(16);
                w.writeVarUInt(54412);
                w.writeString("UTC");
                w.writeString("fake");
                w.writeVarUInt(1);
                w.flush();
                in.read(new byte[4096]); // the Query and the empty data block
                script.accept(w);
                w.flush();
                in.read(new byte[4096]); // wait until the client goes away
            } catch (IOException e) {
                // the client closed first
            }
        });
        return ss.getLocalPort();
    }

    static void dataHeader(BinaryWriter w, int columns, int rows) throws IOException {
        w.writeVarUInt(1); // Data
        w.writeString("");
        w.writeVarUInt(1);
        w.writeUInt8(0);
        w.writeVarUInt(2);
        w.writeInt32(-1);
        w.writeVarUInt(0);
        w.writeVarUInt(columns);
        w.writeVarUInt(rows);
    }

    static ClickHouseTcpClient client(int port) {
        return ClickHouseTcpClient.builder().host("127.0.0.1").port(port).compression(Compression.NONE)
                .socketTimeout(Duration.ofSeconds(5)).build();
    }

    @Test
    void aBlockWhoseColumnsDifferFromTheHeader() throws IOException {
        int port = serve(w -> {
            try {
                dataHeader(w, 2, 0);
                w.writeString("a");
                w.writeString("UInt8");
                w.writeString("b");
                w.writeString("UInt8");
                dataHeader(w, 1, 1);
                w.writeString("a");
                w.writeString("UInt8");
                w.writeUInt8(7);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        try (ClickHouseTcpClient client = client(port)) {
            assertThatThrownBy(() -> client.queryRows("SELECT a, b")).isInstanceOf(ClickHouseProtocolException.class)
                    .hasMessageContaining("header announced");
            assertThat(client.poolStats().total()).isZero();
        }
    }

    @Test
    void anUnknownTypeName() throws IOException {
        int port = serve(w -> {
            try {
                dataHeader(w, 1, 1);
                w.writeString("a");
                w.writeString("NoSuchType(3)");
                w.writeUInt8(7);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        try (ClickHouseTcpClient client = client(port)) {
            assertThatThrownBy(() -> client.queryRows("SELECT a")).isInstanceOf(ClickHouseProtocolException.class)
                    .hasMessageContaining("NoSuchType");
            assertThat(client.poolStats().total()).isZero();
        }
    }

    @Test
    void anUnknownPacketDuringAQuery() throws IOException {
        int port = serve(w -> {
            try {
                w.writeVarUInt(99);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        try (ClickHouseTcpClient client = client(port)) {
            assertThatThrownBy(() -> client.queryRows("SELECT 1")).isInstanceOf(ClickHouseProtocolException.class)
                    .hasMessageContaining("Unknown(99)");
            assertThat(client.poolStats().total()).isZero();
        }
    }

    @Test
    void aTruncatedBlock() throws IOException {
        int port = serve(w -> {
            try {
                dataHeader(w, 1, 1000);
                w.writeString("a");
                w.writeString("UInt64");
                w.writeInt64(1); // 999 values missing, then the server goes away
                w.flush();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            throw new IllegalStateException("close"); // ends the fake server's connection
        });
        try (ClickHouseTcpClient client = client(port)) {
            assertThatThrownBy(() -> client.queryRows("SELECT a")).isInstanceOf(ClickHouseConnectionException.class);
            assertThat(client.poolStats().total()).isZero();
        }
    }

    @Test
    void anOversizedStringLength() throws IOException {
        int port = serve(w -> {
            try {
                dataHeader(w, 1, 1);
                w.writeString("a");
                w.writeString("String");
                w.writeVarUInt(1L << 40); // a 1 TiB string
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        try (ClickHouseTcpClient client = client(port)) {
            assertThatThrownBy(() -> client.queryRows("SELECT a")).isInstanceOf(ClickHouseProtocolException.class)
                    .hasMessageContaining("exceeds the limit");
            assertThat(client.poolStats().total()).isZero();
        }
    }
}
