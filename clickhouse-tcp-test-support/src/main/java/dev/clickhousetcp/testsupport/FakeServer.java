package dev.clickhousetcp.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback endpoint that speaks just enough of ClickHouse's native protocol to stand in for a broken
 * or hostile server: it reads the client's Hello, answers with the server Hello a real server sent
 * (captured byte for byte from ClickHouse 18.16, revision 54412), waits for the client's query (up to what ends it:
 * the empty Data block, or the Cancel that a client sends instead below revision 54429), and then sends
 * whatever its {@link Script} writes: crafted packets, truncated blocks, lies about sizes. Then it ends
 * the connection gracefully (FIN, then it reads what the client still sends until the client closes),
 * never with a reset.
 *
 * <pre>{@code
 * try (FakeServer server = FakeServer.start(out -> {
 *     out.dataHeader(1, 60_000_000);   // a Data block declaring 60 million rows
 *     out.column("x", "UInt64");
 *     out.writeBytes(new byte[16]);    // ... of which 16 bytes arrive
 * })) {
 *     client = ClickHouseTcpClient.builder().port(server.port()).compression(Compression.NONE)...
 * }
 * }</pre>
 *
 * <p>Every accepted connection is served on its own daemon thread with the same script. The client
 * must send its queries uncompressed (the end of a compressed query is not recognized). Not a
 * ClickHouse server: it answers no Ping, runs no SQL and ignores what the query asks.
 */
public final class FakeServer implements AutoCloseable {
    /** The bytes the client sends after a query: a Data packet with an empty table name and an empty block. */
    private static final byte[] END_OF_QUERY = {2, 0, 1, 0, 2, -1, -1, -1, -1, 0, 0, 0};

    /** What the fake server sends after the client's query. */
    @FunctionalInterface
    public interface Script {
        /**
         * Writes the response; throwing ends the connection (gracefully) after what was written so far.
         *
         * @param out the connection's writer (flushed after the script returns)
         */
        void respond(Wire out) throws IOException;
    }

    private final ServerSocket socket;
    private final long revision;
    private final byte[] hello;
    private final Script script;
    private final AtomicInteger connections = new AtomicInteger();
    private final Thread acceptor;
    private volatile boolean closed;

    private FakeServer(ServerSocket socket, long revision, byte[] hello, Script script) {
        this.socket = socket;
        this.revision = revision;
        this.hello = hello;
        this.script = script;
        this.acceptor = new Thread(this::acceptLoop, "fake-clickhouse-accept-" + socket.getLocalPort());
        this.acceptor.setDaemon(true);
    }

    /** The revision of ClickHouse 18.16, whose server Hello is captured beside this class. */
    public static final long LEGACY_REVISION = 54412;

    /**
     * Starts listening on an ephemeral loopback port, answering Hello as ClickHouse 18.16 does
     * (revision {@value #LEGACY_REVISION}, its Hello bytes replayed as captured from the real server).
     *
     * @param script what to send after each query
     */
    public static FakeServer start(Script script) throws IOException {
        return start(LEGACY_REVISION, script);
    }

    /**
     * Starts listening on an ephemeral loopback port.
     *
     * @param revision the protocol revision of the server Hello; a Hello captured from a real server of
     *                 that revision must exist beside this class ({@code server-hello-<revision>.hex})
     * @param script   what to send after each query
     * @throws IllegalArgumentException when no Hello of that revision was captured
     */
    public static FakeServer start(long revision, Script script) throws IOException {
        byte[] hello = capturedHello(revision);
        ServerSocket ss = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
        FakeServer server = new FakeServer(ss, revision, hello, script);
        server.acceptor.start();
        return server;
    }

    /** The loopback port to connect to. */
    public int port() {
        return socket.getLocalPort();
    }

    /** Connections accepted so far. */
    public int connections() {
        return connections.get();
    }

    /** Stops accepting; connections being served end on their own. */
    @Override
    public void close() {
        closed = true;
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    private void acceptLoop() {
        while (!closed) {
            Socket s;
            try {
                s = socket.accept();
            } catch (IOException e) {
                return;
            }
            connections.incrementAndGet();
            Thread t = new Thread(() -> serve(s), "fake-clickhouse-" + s.getPort());
            t.setDaemon(true);
            t.start();
        }
    }

    private void serve(Socket s) {
        try (s) {
            s.setSoTimeout(10_000);
            InputStream in = s.getInputStream();
            Wire out = new Wire(s.getOutputStream(), revision);
            try {
                readClientHello(in);
                writeServerHello(out);
                out.flush();
                awaitEndOfQuery(s, in);
                script.respond(out);
            } catch (IOException | RuntimeException e) {
                // the script ended the response early, or the client went away
            }
            try {
                out.flush();
                s.shutdownOutput(); // FIN: the client sees the end of the stream, never a reset
                byte[] sink = new byte[8192];
                while (in.read(sink) >= 0) {
                    // drain until the client closes, so our close sends no reset either
                }
            } catch (IOException ignored) {
                // the client is gone
            }
        } catch (IOException ignored) {
            // the client is gone
        }
    }

    private static void readClientHello(InputStream in) throws IOException {
        if (readVarUInt(in) != 0) {
            throw new IOException("expected the client's Hello");
        }
        readString(in); // client name
        readVarUInt(in); // major
        readVarUInt(in); // minor
        readVarUInt(in); // revision
        readString(in); // database
        readString(in); // user
        readString(in); // password
    }

    private void writeServerHello(Wire w) {
        w.writeBytes(hello);
    }

    /**
     * The server Hello a real server of {@code revision} sent, captured byte for byte into
     * {@code server-hello-<revision>.hex} beside this class (hex digits; lines starting with {@code #}
     * are comments).
     */
    static byte[] capturedHello(long revision) throws IOException {
        String resource = "server-hello-" + revision + ".hex";
        try (InputStream in = FakeServer.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no server Hello captured for revision " + revision
                        + " (only " + LEGACY_REVISION + ", ClickHouse 18.16)");
            }
            StringBuilder hex = new StringBuilder();
            for (String line : new String(in.readAllBytes(), StandardCharsets.US_ASCII).split("\n")) {
                if (!line.startsWith("#")) {
                    hex.append(line.strip());
                }
            }
            byte[] b = new byte[hex.length() / 2];
            for (int i = 0; i < b.length; i++) {
                b[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
            }
            return b;
        }
    }

    /** The Cancel packet (ClickHouse src/Core/Protocol.h, {@code Client::Cancel}). */
    private static final int CANCEL = 3;
    /** How long the client stays silent after a Cancel byte before it counts as the end of the query. */
    private static final int CANCEL_QUIET_MILLIS = 300;

    /**
     * Reads until the bytes received end with what ends a query: the empty Data block, or a Cancel
     * packet after which the client sends nothing more (a client ends a query's external tables with
     * Cancel below revision 54429, as this server's revision is; a Cancel byte inside the query is
     * followed by more bytes at once, as the client writes the whole request in one go).
     */
    private static void awaitEndOfQuery(Socket socket, InputStream in) throws IOException {
        byte[] tail = new byte[END_OF_QUERY.length];
        int seen = 0;
        int b = in.read();
        while (true) {
            if (b < 0) {
                throw new EOFException("the client closed before its query ended");
            }
            System.arraycopy(tail, 1, tail, 0, tail.length - 1);
            tail[tail.length - 1] = (byte) b;
            if (++seen >= tail.length && Arrays.equals(tail, END_OF_QUERY)) {
                return;
            }
            if (b == CANCEL && in.available() == 0) {
                int timeout = socket.getSoTimeout();
                socket.setSoTimeout(CANCEL_QUIET_MILLIS);
                try {
                    b = in.read();
                } catch (SocketTimeoutException quiet) {
                    return;
                } finally {
                    socket.setSoTimeout(timeout);
                }
            } else {
                b = in.read();
            }
        }
    }

    private static long readVarUInt(InputStream in) throws IOException {
        long v = 0;
        for (int i = 0; i < 10; i++) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException();
            }
            v |= (long) (b & 0x7F) << (7 * i);
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw new IOException("VarUInt too long");
    }

    private static void readString(InputStream in) throws IOException {
        long n = readVarUInt(in);
        if (n > 1 << 20) {
            throw new IOException("string too long");
        }
        for (long i = 0; i < n; i++) {
            if (in.read() < 0) {
                throw new EOFException();
            }
        }
    }

    /**
     * Writes native-protocol primitives (little-endian, VarUInt lengths) to one connection, plus
     * helpers for packet and block headers at the server's revision.
     */
    public static final class Wire {
        private final OutputStream out;
        private final long revision;
        private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();

        Wire(OutputStream out, long revision) {
            this.out = out;
            this.revision = revision;
        }

        /** The revision of the server Hello (the client's blocks and packets follow it). */
        public long revision() {
            return revision;
        }

        /** LEB128 unsigned integer. */
        public Wire writeVarUInt(long v) {
            while ((v & ~0x7FL) != 0) {
                buffer.write((int) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            buffer.write((int) v);
            return this;
        }

        /** VarUInt length + UTF-8 bytes. */
        public Wire writeString(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            writeVarUInt(b.length);
            buffer.write(b, 0, b.length);
            return this;
        }

        /** Raw bytes. */
        public Wire writeBytes(byte[] b) {
            buffer.write(b, 0, b.length);
            return this;
        }

        /** One byte. */
        public Wire writeUInt8(int v) {
            buffer.write(v);
            return this;
        }

        /** Little-endian Int32. */
        public Wire writeInt32(int v) {
            for (int i = 0; i < 4; i++) {
                buffer.write(v >>> (8 * i));
            }
            return this;
        }

        /** Little-endian Int64. */
        public Wire writeInt64(long v) {
            for (int i = 0; i < 8; i++) {
                buffer.write((int) (v >>> (8 * i)));
            }
            return this;
        }

        /**
         * A Data packet's header up to its row count: packet type, empty table name, BlockInfo
         * (is_overflows 0, bucket_num -1), column count, row count.
         */
        public Wire dataHeader(long columns, long rows) {
            writeVarUInt(1);
            writeString("");
            writeVarUInt(1).writeUInt8(0).writeVarUInt(2).writeInt32(-1).writeVarUInt(0);
            return writeVarUInt(columns).writeVarUInt(rows);
        }

        /** A column's name and type, plus the has_custom_serialization byte (0) from revision 54454 on. */
        public Wire column(String name, String type) {
            writeString(name).writeString(type);
            if (revision >= 54454) {
                writeUInt8(0);
            }
            return this;
        }

        /** The EndOfStream packet. */
        public Wire endOfStream() {
            return writeVarUInt(5);
        }

        /** Sends what was written so far. */
        public void flush() throws IOException {
            buffer.writeTo(out);
            buffer.reset();
            out.flush();
        }
    }
}
