package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseAuthenticationException;
import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;
import dev.clickhousetcp.io.ChunkedInputStream;
import dev.clickhousetcp.protocol.ChunkedMode;
import dev.clickhousetcp.protocol.ClientInfo;
import dev.clickhousetcp.protocol.ClientPacket;
import dev.clickhousetcp.protocol.Handshake;
import dev.clickhousetcp.protocol.ProtocolRevision;
import dev.clickhousetcp.protocol.QueryPacket;
import dev.clickhousetcp.protocol.ServerExceptionCodec;
import dev.clickhousetcp.protocol.ServerHello;
import dev.clickhousetcp.protocol.ServerPacket;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * One native TCP connection to a ClickHouse server: handshake, ping, queries and inserts, following
 * the state machine of ClickHouse's NativeProtocol.mdx (HANDSHAKE, READY, READING_RESPONSE,
 * terminated).
 *
 * <p>Single-threaded: one query at a time, used by one thread. A connection that sees an I/O error,
 * a timeout, a protocol violation or an unfinished stream it cannot drain becomes broken
 * ({@link #isUsable()} false) and closes its socket; a server Exception packet leaves it READY.
 * Errors are thrown as {@link ClickHouseException} subtypes.
 */
public final class ClickHouseConnection implements AutoCloseable {
    /** Client version reported in Hello and ClientInfo. */
    static final int VERSION_MAJOR = 0;
    static final int VERSION_MINOR = 1;
    static final int VERSION_PATCH = 0;

    enum State { READY, BUSY, BROKEN, CLOSED }

    /** Why a running query was stopped early. */
    enum Abort { NONE, CANCELLED, INTERRUPTED, TIMED_OUT }

    /** Socket poll interval: how soon a blocked read notices cancel, interrupt and deadlines. */
    static final int POLL_MILLIS = 100;
    /** How long a cancelled query may take to end its response before the connection is discarded. */
    static final long DRAIN_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
    /** How long a query stopped by its timeout or an interrupt may take to end before the connection is dropped. */
    static final long ABORT_GRACE_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(1500);

    private final ConnectionConfig config;
    private final Socket socket;
    private final BinaryReader in;
    private final BinaryWriter out;
    private final ServerHello hello;
    private final long revision;
    private final ZoneId serverZone;
    /** The zone of DateTime values without an explicit zone, per query (session_timezone). */
    private final SessionTimeZone timeZone;
    private final ClientInfo clientInfo;
    private final BlockChannel blocks;
    private final long createdNanos = System.nanoTime();
    private final dev.clickhousetcp.data.BufferPool bufferPool = new dev.clickhousetcp.data.BufferPool(64L << 20);
    private dev.clickhousetcp.types.ReadContext pooledContext;
    private dev.clickhousetcp.types.ReadContext plainContext;
    private long lastUsedNanos = createdNanos;
    private volatile State state;
    private Throwable brokenBy;
    private volatile boolean cancelRequested;
    private boolean cancelSent;
    private Abort abort = Abort.NONE;
    private long queryDeadlineNanos = Long.MAX_VALUE;
    private long drainDeadlineNanos = Long.MAX_VALUE;
    private long pingDeadlineNanos = Long.MAX_VALUE;
    private boolean sendChunked;
    /** The database of the connection after our last USE, or null before any / after a user's USE. */
    private String currentDatabase;
    private boolean usedOtherDatabase;
    private boolean switching;
    private boolean receiveChunked;

    private ClickHouseConnection(ConnectionConfig config, Socket socket, BinaryReader in, BinaryWriter out,
                                 ServerHello hello, long revision, ZoneId zone, ClientInfo clientInfo) {
        this.config = config;
        this.socket = socket;
        this.in = in;
        this.out = out;
        this.hello = hello;
        this.revision = revision;
        this.serverZone = zone;
        this.timeZone = new SessionTimeZone(zone);
        this.clientInfo = clientInfo;
        this.blocks = new BlockChannel(in, out, config.bufferSize(), config.limits());
        this.state = State.READY;
    }

    /**
     * Connects and performs the handshake (Hello, server Hello, Addendum).
     *
     * @throws ClickHouseConnectionException    when the endpoint cannot be reached
     * @throws ClickHouseTimeoutException       when connect or handshake time out
     * @throws ClickHouseAuthenticationException when the server rejects the credentials
     * @throws ClickHouseServerException        for another server error during the handshake
     */
    public static ClickHouseConnection open(ConnectionConfig config) {
        String where = config.host() + ":" + config.port();
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.setKeepAlive(true);
            socket.connect(new InetSocketAddress(config.host(), config.port()), (int) config.connectTimeout().toMillis());
        } catch (SocketTimeoutException e) {
            closeQuietly(socket);
            throw new ClickHouseTimeoutException("connect to " + where + " timed out after " + config.connectTimeout(), e);
        } catch (UnknownHostException e) {
            closeQuietly(socket);
            throw new ClickHouseConnectionException("unknown host " + config.host(), e);
        } catch (IOException e) {
            closeQuietly(socket);
            throw new ClickHouseConnectionException("cannot connect to " + where + ": " + e.getMessage(), e);
        }
        if (config.tls() != null) {
            socket = startTls(socket, config);
        }
        try {
            socket.setSoTimeout(POLL_MILLIS);
            Guard guard = new Guard(config);
            InputStream rawIn = new GuardedInputStream(socket.getInputStream(), guard);
            OutputStream rawOut = socket.getOutputStream();
            BinaryWriter w = new BinaryWriter(rawOut, config.bufferSize());
            BinaryReader r = new BinaryReader(rawIn, config.bufferSize(), config.limits().maxStringBytes());
            Handshake.writeHello(w, config.clientName(), VERSION_MAJOR, VERSION_MINOR, config.database(), config.user(),
                    config.password());
            w.flush();
            long type = r.readVarUInt();
            if (type == ServerPacket.EXCEPTION) {
                ClickHouseServerException e = ServerExceptionCodec.read(r);
                throw ClickHouseAuthenticationException.isAuthenticationCode(e.code())
                        ? new ClickHouseAuthenticationException(e) : e;
            }
            if (type != ServerPacket.HELLO) {
                throw new ClickHouseProtocolException("expected server Hello from " + where + ", got packet "
                        + ServerPacket.name(type));
            }
            ServerHello hello = ServerHello.read(r, ProtocolRevision.CLIENT);
            long rev = Math.min(ProtocolRevision.CLIENT, hello.revision());
            String preference = config.preferChunked() ? "chunked_optional" : "notchunked_optional";
            boolean sendChunked = ChunkedMode.negotiate(hello.chunkedReceive(), preference, "send");
            boolean recvChunked = ChunkedMode.negotiate(hello.chunkedSend(), preference, "receive");
            if (dev.clickhousetcp.protocol.ProtocolFeature.ADDENDUM.in(rev)) {
                Handshake.writeAddendum(w, rev, "", sendChunked, recvChunked);
                w.flush();
            }
            w.setChunked(sendChunked);
            BinaryReader reader = recvChunked
                    ? new BinaryReader(new ChunkedInputStream(new BufferedInputStream(rawIn, config.bufferSize()),
                    Integer.MAX_VALUE), config.bufferSize(), config.limits().maxStringBytes())
                    : r;
            guard.silenceLimitNanos = config.socketTimeout().toNanos();
            ZoneId zone = zoneOf(hello.timezone());
            ClientInfo info = new ClientInfo("", "", "0.0.0.0:0", System.getProperty("user.name", ""), localHostName(),
                    config.clientName(), VERSION_MAJOR, VERSION_MINOR, VERSION_PATCH, "", null);
            ClickHouseConnection conn = new ClickHouseConnection(config, socket, reader, w, hello, rev, zone, info);
            conn.sendChunked = sendChunked;
            conn.receiveChunked = recvChunked;
            guard.conn = conn;
            return conn;
        } catch (SocketTimeoutException e) {
            closeQuietly(socket);
            throw new ClickHouseTimeoutException("handshake with " + where + " timed out after "
                    + config.handshakeTimeout(), e);
        } catch (IOException e) {
            closeQuietly(socket);
            throw new ClickHouseConnectionException("handshake with " + where + " failed: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeQuietly(socket);
            throw e;
        }
    }

    /** Wraps a connected socket in TLS and completes the handshake within the handshake timeout. */
    private static Socket startTls(Socket plain, ConnectionConfig config) {
        TlsConfig tls = config.tls();
        String name = tls.serverName() != null ? tls.serverName() : config.host();
        String where = config.host() + ":" + config.port();
        try {
            javax.net.ssl.SSLSocket ssl = (javax.net.ssl.SSLSocket) tls.context().getSocketFactory()
                    .createSocket(plain, name, config.port(), true);
            javax.net.ssl.SSLParameters params = ssl.getSSLParameters();
            if (tls.hostnameVerification()) {
                params.setEndpointIdentificationAlgorithm("HTTPS");
            }
            if (!isIpLiteral(name)) {
                params.setServerNames(java.util.List.of(new javax.net.ssl.SNIHostName(name)));
            }
            params.setProtocols(tls.protocols().toArray(new String[0]));
            ssl.setSSLParameters(params);
            ssl.setSoTimeout((int) config.handshakeTimeout().toMillis());
            ssl.startHandshake();
            return ssl;
        } catch (SocketTimeoutException e) {
            closeQuietly(plain);
            throw new ClickHouseTimeoutException("TLS handshake with " + where + " timed out after "
                    + config.handshakeTimeout(), e);
        } catch (IOException | IllegalArgumentException e) {
            closeQuietly(plain);
            throw new ClickHouseConnectionException("TLS handshake with " + where + " failed: " + e.getMessage(), e);
        }
    }

    private static boolean isIpLiteral(String host) {
        return host.indexOf(':') >= 0 || host.chars().allMatch(ch -> Character.isDigit(ch) || ch == '.');
    }

    private static ZoneId zoneOf(String tz) {
        if (tz == null || tz.isEmpty()) {
            return ZoneOffset.UTC;
        }
        try {
            return dev.clickhousetcp.data.ClickHouseZoneRules.zoneId(tz);
        } catch (DateTimeException e) {
            return ZoneOffset.UTC;
        }
    }

    private static String localHostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "";
        }
    }

    /** Whether packets to the server are chunk-framed. */
    public boolean sendsChunked() {
        return sendChunked;
    }

    /** Whether packets from the server are chunk-framed. */
    public boolean receivesChunked() {
        return receiveChunked;
    }

    /** The server this connection talks to. */
    public Endpoint endpoint() {
        return new Endpoint(config.host(), config.port());
    }

    /** The server's Hello: name, version, revision, time zone, display name. */
    public ServerHello serverHello() {
        return hello;
    }

    /** The negotiated protocol revision, {@code min(ours, server's)}. */
    public long revision() {
        return revision;
    }

    /** The server's time zone from its Hello (DateTime columns without an explicit zone use it unless a session zone is set). */
    public ZoneId serverZone() {
        return serverZone;
    }

    /**
     * The zone DateTime columns without an explicit zone have in the current (or last) query: its
     * {@code session_timezone} (see {@link SessionTimeZone}), else {@link #serverZone()}.
     */
    public ZoneId sessionZone() {
        return timeZone.current();
    }

    SessionTimeZone timeZone() {
        return timeZone;
    }

    public ConnectionConfig config() {
        return config;
    }

    /** The decode context for this connection: pooled for borrowed blocks, plain for detached ones. */
    dev.clickhousetcp.types.ReadContext readContext(boolean pooled) {
        if (pooled) {
            if (pooledContext == null) {
                pooledContext = new dev.clickhousetcp.types.ReadContext(config.limits(), serverZone, revision, bufferPool);
            }
            pooledContext.zone(timeZone.current());
            return pooledContext;
        }
        if (plainContext == null) {
            plainContext = new dev.clickhousetcp.types.ReadContext(config.limits(), serverZone, revision, null);
        }
        plainContext.zone(timeZone.current());
        return plainContext;
    }

    /** The column buffer pool of this connection (statistics). */
    public dev.clickhousetcp.data.BufferPool bufferPool() {
        return bufferPool;
    }

    /** Whether this connection is idle and healthy (READY). */
    public boolean isUsable() {
        return state == State.READY;
    }

    /** Whether the connection has been closed or broken. */
    public boolean isClosed() {
        return state == State.CLOSED || state == State.BROKEN;
    }

    long createdNanos() {
        return createdNanos;
    }

    long lastUsedNanos() {
        return lastUsedNanos;
    }

    /** What broke this connection, or {@code null}. */
    public Throwable brokenBy() {
        return brokenBy;
    }

    /**
     * Sends Ping and waits for Pong.
     *
     * @throws ClickHouseConnectionException when the server does not answer; the connection is then broken
     */
    public void ping() {
        ping(null);
    }

    /**
     * Sends Ping and waits for Pong at most {@code timeout} ({@code null}: the socket timeout).
     *
     * @throws ClickHouseTimeoutException when no Pong arrives in time; the connection is then broken
     */
    public void ping(java.time.Duration timeout) {
        begin();
        pingDeadlineNanos = timeout == null ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
        try {
            out.writeVarUInt(ClientPacket.PING);
            out.flush();
            while (true) {
                long type = in.readVarUInt();
                if (type == ServerPacket.PONG) {
                    break;
                }
                if (type == ServerPacket.PROGRESS) {
                    dev.clickhousetcp.protocol.Progress.read(in, revision); // late progress of an earlier query
                    continue;
                }
                if (type == ServerPacket.EXCEPTION) {
                    ClickHouseServerException e = ServerExceptionCodec.read(in);
                    state = State.READY;
                    throw e;
                }
                throw new ClickHouseProtocolException("expected Pong, got packet " + ServerPacket.name(type));
            }
            pingDeadlineNanos = Long.MAX_VALUE;
            end();
        } catch (IOException | RuntimeException e) {
            pingDeadlineNanos = Long.MAX_VALUE;
            throw fail(e);
        }
    }

    /**
     * Starts a query and returns its result stream. The stream must be read to its end or closed
     * before this connection runs anything else.
     */
    public QueryResult query(String sql, QueryOptions options, Runnable onDone) {
        checkSupported(sql, options);
        useDatabase(options.database());
        if (SqlText.isUse(sql)) {
            currentDatabase = null; // changed by the statement itself: unknown until the next switch
        }
        begin();
        queryTimeout(options.timeout());
        try {
            sendQuery(sql, options);
            sendExternalTables(options);
            blocks.writeEmptyData();
            out.flush();
        } catch (IOException | RuntimeException e) {
            throw fail(e);
        }
        return new QueryResult(this, options.listener(), onDone, SqlText.isInsert(sql));
    }

    /**
     * Starts an INSERT whose rows the caller streams as blocks ({@code INSERT INTO t [(cols)] VALUES}
     * without literal rows, or {@code FORMAT Native}); returns once the server sent the insert header.
     */
    public InsertStream insert(String sql, QueryOptions options, Runnable onDone) {
        checkSupported(sql, options);
        useDatabase(options.database());
        begin();
        queryTimeout(options.timeout());
        try {
            sendQuery(sql, options);
            sendExternalTables(options);
            // end of external tables; the server then answers with the insert header block
            blocks.writeEmptyData();
            out.flush();
        } catch (IOException | RuntimeException e) {
            throw fail(e);
        }
        return new InsertStream(this, options.listener(), onDone);
    }

    /**
     * Makes {@code database} (or, for {@code null}, the configured default database) the connection's
     * current one before a query: the native protocol has no per-query database, so a switch costs one
     * {@code USE} round trip, and only when the connection's current database differs.
     */
    private void useDatabase(String database) {
        if (switching) {
            return;
        }
        String wanted = database != null ? database : config.database();
        if (wanted.isEmpty() || wanted.equals(currentDatabase)) {
            return;
        }
        if (database == null && currentDatabase == null && !usedOtherDatabase) {
            return; // never switched: still the handshake's database
        }
        switching = true;
        try (QueryResult r = query("USE `" + wanted.replace("\\", "\\\\").replace("`", "\\`") + "`",
                QueryOptions.DEFAULT, null)) {
            r.drain();
        } finally {
            switching = false;
        }
        currentDatabase = wanted;
        usedOtherDatabase = !wanted.equals(config.database());
    }

    /** Rejects, before anything is sent, what this server's revision cannot carry. */
    private void checkSupported(String sql, QueryOptions options) {
        if (sql == null) {
            throw new IllegalArgumentException("sql must not be null");
        }
        if (!options.parameters().isEmpty() && !dev.clickhousetcp.protocol.ProtocolFeature.PARAMETERS.in(revision)) {
            throw new ClickHouseException("query parameters need protocol revision "
                    + dev.clickhousetcp.protocol.ProtocolFeature.PARAMETERS.minRevision() + " (ClickHouse 22.x or newer); "
                    + "this server speaks " + revision);
        }
    }

    /** Sends each external table as Data packets named after it, in blocks of at most 65 536 rows. */
    private void sendExternalTables(QueryOptions options) throws IOException {
        for (ExternalTable t : options.externalTables()) {
            String[] names = t.columnNames().toArray(new String[0]);
            dev.clickhousetcp.types.ColumnWriter[] writers = new dev.clickhousetcp.types.ColumnWriter[names.length];
            for (int i = 0; i < names.length; i++) {
                writers[i] = dev.clickhousetcp.types.DataTypes.parse(t.columnTypes().get(i), timeZone.current()).newWriter();
            }
            int n = 0;
            boolean sentAny = false;
            for (Object[] row : t.rows()) {
                if (row.length != names.length) {
                    throw new dev.clickhousetcp.ClickHouseTypeException("external table " + t.name() + ": a row has "
                            + row.length + " values for " + names.length + " columns");
                }
                for (int i = 0; i < names.length; i++) {
                    writers[i].append(row[i]);
                }
                if (++n == 65_536) {
                    blocks.writeData(revision, t.name(), names, writers, n);
                    sentAny = true;
                    for (dev.clickhousetcp.types.ColumnWriter w : writers) {
                        w.reset();
                    }
                    n = 0;
                }
            }
            if (n > 0 || !sentAny) {
                blocks.writeData(revision, t.name(), names, writers, n);
            }
        }
    }

    private void sendQuery(String sql, QueryOptions options) throws IOException {
        String queryId = options.queryId() != null ? options.queryId() : UUID.randomUUID().toString();
        Compression compression = options.compression() != null ? options.compression() : config.compression();
        Map<String, String> settings = new LinkedHashMap<>();
        if (compression.enabled()) { // the server compresses its blocks with this codec; explicit settings win
            settings.put("network_compression_method", compression.method().settingValue());
            if (compression.method() == dev.clickhousetcp.io.CompressionMethod.ZSTD) {
                settings.put("network_zstd_compression_level", Integer.toString(compression.level()));
            }
        }
        settings.putAll(config.settings());
        settings.putAll(options.settings());
        timeZone.begin(sql, settings);
        Instant now = Instant.now();
        long micros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
        blocks.begin(compression);
        QueryPacket.write(out, revision, queryId, clientInfo.forQuery(queryId, options.traceContext(),
                options.quotaKey()), micros, settings, options.stage(), compression.enabled(), sql,
                options.parameters(), options.secondary());
    }

    // ---- state helpers used by QueryResult / InsertStream ----

    BinaryReader in() {
        return in;
    }

    BinaryWriter out() {
        return out;
    }

    /** Block bodies of the running query: plain or compressed frames. */
    BlockChannel blocks() {
        return blocks;
    }

    private void begin() {
        if (state != State.READY) {
            throw new ClickHouseException("connection is " + state.name().toLowerCase()
                    + (state == State.BUSY ? ": finish or close the previous result first (a connection or "
                    + "session runs one query at a time)" : ""));
        }
        state = State.BUSY;
        cancelRequested = false;
        cancelSent = false;
        abort = Abort.NONE;
        queryDeadlineNanos = Long.MAX_VALUE;
        drainDeadlineNanos = Long.MAX_VALUE;
    }

    /**
     * Asks the running query to stop: the thread reading its response sends Cancel within
     * {@link #POLL_MILLIS} ms and drains the rest. Safe from any thread; ignored when idle.
     */
    public void requestCancel() {
        if (state == State.BUSY) {
            cancelRequested = true;
        }
    }

    /** Sets the client-side deadline of the query being started ({@code null} = none). */
    void queryTimeout(java.time.Duration timeout) {
        queryDeadlineNanos = timeout == null ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
    }

    /** Why the current or last query was stopped early. */
    Abort abort() {
        return abort;
    }

    /** Called by the guarded socket stream on every read and poll tick (reading thread only). */
    private void onRead(long silentNanos, long silenceLimitNanos) throws IOException {
        if (state == State.BUSY) {
            long now = System.nanoTime();
            if (now > pingDeadlineNanos) {
                throw new java.net.SocketTimeoutException("no Pong within the ping timeout");
            }
            if (!cancelSent) {
                Abort a = Abort.NONE;
                if (Thread.currentThread().isInterrupted()) {
                    a = Abort.INTERRUPTED;
                    Thread.interrupted(); // cleared while draining; restored when the result ends
                } else if (cancelRequested) {
                    a = Abort.CANCELLED;
                } else if (now > queryDeadlineNanos) {
                    a = Abort.TIMED_OUT;
                }
                if (a != Abort.NONE) {
                    abort = a;
                    cancelSent = true;
                    // an explicit cancel may wait for the server to stop; a timeout or interrupt must
                    // return promptly, so the connection is given up after a short grace period
                    drainDeadlineNanos = now + (a == Abort.CANCELLED ? DRAIN_NANOS : ABORT_GRACE_NANOS);
                    sendCancel();
                }
            } else if (now > drainDeadlineNanos) {
                throw new java.net.SocketTimeoutException("the query did not end within "
                        + (abort == Abort.CANCELLED ? DRAIN_NANOS : ABORT_GRACE_NANOS) / 1_000_000
                        + " ms after Cancel; the connection is dropped");
            }
        }
        if (silentNanos >= silenceLimitNanos) {
            throw new java.net.SocketTimeoutException("no data for "
                    + java.time.Duration.ofNanos(silenceLimitNanos));
        }
    }

    /** Bridges the socket stream's polls to the connection (which exists only after the handshake). */
    private static final class Guard implements GuardedInputStream.Guard {
        volatile ClickHouseConnection conn;
        volatile long silenceLimitNanos;

        Guard(ConnectionConfig config) {
            this.silenceLimitNanos = config.handshakeTimeout().toNanos();
        }

        @Override
        public void check(long silentNanos) throws IOException {
            ClickHouseConnection c = conn;
            if (c != null) {
                c.onRead(silentNanos, silenceLimitNanos);
            } else if (silentNanos >= silenceLimitNanos) {
                throw new java.net.SocketTimeoutException("no Hello within " + java.time.Duration.ofNanos(silenceLimitNanos));
            }
        }
    }

    /** The response ended cleanly (EndOfStream, Exception or Pong). */
    void end() {
        if (state == State.BUSY) {
            state = State.READY;
        }
        lastUsedNanos = System.nanoTime();
    }

    /** Marks the connection broken, closes the socket, and converts {@code e} to a client exception. */
    ClickHouseException fail(Throwable e) {
        if (e instanceof ClickHouseServerException se && state == State.READY) {
            return se;
        }
        if (state != State.CLOSED) {
            state = State.BROKEN;
        }
        brokenBy = e;
        closeGracefully(socket);
        String where = config.host() + ":" + config.port();
        if (e instanceof ClickHouseException ce) {
            return ce;
        }
        if (e instanceof SocketTimeoutException) {
            return new ClickHouseTimeoutException("reading from " + where + " timed out: " + e.getMessage(), e);
        }
        if (e instanceof IOException) {
            return new ClickHouseConnectionException("connection to " + where + " failed: " + e.getMessage(), e);
        }
        return new ClickHouseException("unexpected error on connection to " + where + ": " + e, e);
    }

    /**
     * After a server Exception ends a query, packets we already sent may still be unread by the server
     * (an older server that fails while parsing the query never reads the empty end-of-data block we
     * sent with it, and answers it later with "Unexpected packet Data", code 101). A Ping round trip
     * consumes any such answers: the connection is READY once Pong arrives. The wait is bounded by
     * {@link #DRAIN_NANOS}: such a server cannot skip a compressed end-of-data block (it reads the frame
     * as a plain block and waits for bytes that never come), so no Pong may ever arrive.
     */
    void resyncAfterException() throws IOException {
        pingDeadlineNanos = System.nanoTime() + DRAIN_NANOS;
        try {
            resyncUntilPong();
        } finally {
            pingDeadlineNanos = Long.MAX_VALUE;
        }
    }

    private void resyncUntilPong() throws IOException {
        out.writeVarUInt(ClientPacket.PING);
        out.flush();
        for (int i = 0; i < 10_000; i++) {
            long type = in.readVarUInt();
            if (type == ServerPacket.PONG) {
                return;
            }
            if (type == ServerPacket.EXCEPTION) {
                ServerExceptionCodec.read(in); // an answer to a stale packet of the failed query
                continue;
            }
            if (type == ServerPacket.PROGRESS) {
                dev.clickhousetcp.protocol.Progress.read(in, revision);
                continue;
            }
            throw new ClickHouseProtocolException("unexpected packet " + ServerPacket.name(type)
                    + " while resynchronizing after a server exception");
        }
        throw new ClickHouseProtocolException("no Pong while resynchronizing after a server exception");
    }

    /** Sends the Cancel packet for the running query. */
    void sendCancel() throws IOException {
        out.writeVarUInt(ClientPacket.CANCEL);
        out.flush();
    }


    @Override
    public void close() {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        closeGracefully(socket);
    }

    /**
     * Closes without resetting the connection where possible: half-closes our side (FIN), then reads
     * and discards what the server still sends until it closes too (at most ~250 ms and 8 MiB). A
     * plain close with unread bytes makes the kernel send RST, which some servers treat as a fatal
     * error of the session thread; after the FIN a server stops the query and closes cleanly.
     */
    private static void closeGracefully(Socket s) {
        if (s.isClosed()) {
            return;
        }
        try {
            if (!(s instanceof javax.net.ssl.SSLSocket)) {
                s.shutdownOutput();
                s.setSoTimeout(50);
                InputStream raw = s.getInputStream();
                byte[] buf = new byte[8192];
                long deadline = System.nanoTime() + 250_000_000L;
                long total = 0;
                while (System.nanoTime() < deadline && total < (8 << 20)) {
                    try {
                        int n = raw.read(buf);
                        if (n < 0) {
                            break;
                        }
                        total += n;
                    } catch (SocketTimeoutException e) {
                        // keep waiting for the server's close until the deadline
                    }
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // closing anyway
        }
        closeQuietly(s);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public String toString() {
        return "ClickHouseConnection[" + config.host() + ":" + config.port() + ", " + hello.name() + " "
                + hello.version() + ", revision " + revision + ", " + state + "]";
    }
}
