package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseAuthenticationException;
import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.ClickHouseTimeoutException.Deadline;
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
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One native TCP connection to a ClickHouse server: handshake, ping, queries and inserts, following
 * the state machine of ClickHouse's NativeProtocol.mdx (HANDSHAKE, READY, READING_RESPONSE,
 * terminated).
 *
 * <p>Single-threaded: one request at a time, used by one thread. Each request is an {@link Exchange}
 * that carries its own deadline, cancel request and outcome, so a late {@code cancel()} of an earlier
 * result never reaches the request that runs now. A connection that sees an I/O error, a timeout, a
 * protocol violation or an unfinished stream it cannot drain becomes broken ({@link #isUsable()}
 * false) and is closed in the background (half-close, drain, close: the server sees a clean end,
 * never a reset); a server Exception packet leaves it READY. Errors are thrown as
 * {@link ClickHouseException} subtypes.
 */
public final class ClickHouseConnection implements AutoCloseable {
    /** Client version reported in Hello and ClientInfo. */
    static final int VERSION_MAJOR = 0;
    static final int VERSION_MINOR = 1;
    static final int VERSION_PATCH = 0;

    enum State { READY, BUSY, BROKEN, CLOSED }

    /** Why a running query was stopped early. */
    enum Abort { NONE, CANCELLED, INTERRUPTED, TIMED_OUT }

    /** Longest single blocking read: how soon a blocked read notices a cancel request or an interrupt. */
    static final int POLL_MILLIS = 100;
    /** How long a cancelled query may take to end its response before the connection is discarded. */
    static final long DRAIN_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** How long a query stopped by an interrupt may take to end before the connection is dropped. */
    static final long INTERRUPT_GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(1000);
    /** The smallest grace a timed-out query gets to confirm its cancellation. */
    static final long MIN_TIMEOUT_GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /**
     * Most bytes of idle column buffers each connection's {@link #bufferPool()} keeps for reuse by
     * later blocks, by default (64 MiB; {@link ConnectionConfig#blockBufferPoolSize()} sets it).
     */
    public static final long BUFFER_POOL_MAX_RETAINED_BYTES = 64L << 20;

    /** Closes broken connections off the caller's thread (a graceful close may wait for the server). */
    private static final ThreadPoolExecutor CLOSER = closer();

    private final ConnectionConfig config;
    private final Transport transport;
    private final BinaryReader in;
    private final BinaryWriter out;
    private final ServerHello hello;
    private final long revision;
    private final ZoneId serverZone;
    /** The zone of DateTime values without an explicit zone, per query (session_timezone). */
    private final SessionTimeZone timeZone;
    private final ClientInfo clientInfo;
    private final BlockChannel blocks;
    private final long socketTimeoutNanos;
    private final dev.clickhousetcp.data.BufferPool bufferPool;
    private dev.clickhousetcp.types.ReadContext pooledContext;
    private dev.clickhousetcp.types.ReadContext plainContext;
    private volatile State state;
    private volatile Throwable brokenBy;
    /** The request under way, or {@code null} when READY. */
    private volatile Exchange exchange;
    /** Deadline of a resynchronizing ping after a server exception ({@link Long#MAX_VALUE} when none). */
    private long resyncDeadlineNanos = Long.MAX_VALUE;
    private boolean sendChunked;
    /** The database of the connection after our last USE, or null before any / after a user's USE. */
    private String currentDatabase;
    private boolean usedOtherDatabase;
    private boolean switching;
    private boolean receiveChunked;

    /**
     * One request and its response on this connection: its deadline, whether a cancel was asked for
     * (from any thread), and why it was stopped. It outlives its turn on the connection, so a result
     * can report its own outcome after the connection went back to a pool, and a cancel request that
     * arrives late lands here instead of on the connection's next request.
     */
    static final class Exchange {
        final Budget budget;
        /** Queries answer a deadline with Cancel and a drain; inserts and pings give up at once. */
        final boolean cancellable;
        final long graceNanos;
        final long receivedAtStart;
        /** The query_id sent with the request (observations report it), or {@code null} for a ping. */
        String queryId;
        volatile boolean cancelRequested;
        volatile Abort abort = Abort.NONE;
        /** An interrupt of the request's thread was taken (to cancel); the result restores it. */
        boolean interruptSeen;
        boolean cancelSent;
        long drainDeadlineNanos = Long.MAX_VALUE;

        Exchange(Budget budget, boolean cancellable, long receivedAtStart) {
            this.budget = budget;
            this.cancellable = cancellable;
            this.receivedAtStart = receivedAtStart;
            this.graceNanos = budget.unlimited() ? 0
                    : Math.max(MIN_TIMEOUT_GRACE_NANOS, budget.timeout().toNanos() / 10);
        }

        /** Asks the request to stop; harmless once it is over. Any thread. */
        void requestCancel() {
            cancelRequested = true;
        }

        Abort abort() {
            return abort;
        }

        /** Whether not one byte has arrived from the server since this request was sent. */
        boolean unanswered(ClickHouseConnection c) {
            return c.bytesReceived() == receivedAtStart;
        }

        /** The latest time the response may end: the deadline plus its grace (max(10 %, 100 ms)). */
        long hardDeadlineNanos() {
            return budget.unlimited() ? Long.MAX_VALUE : budget.deadlineNanos() + graceNanos;
        }
    }

    /** A deadline that expired during a socket read or write, by kind. */
    static final class DeadlineExpired extends SocketTimeoutException {
        private static final long serialVersionUID = 1L;
        final transient Deadline deadline;
        final transient Duration timeout;

        DeadlineExpired(Deadline deadline, Duration timeout, String message) {
            super(message);
            this.deadline = deadline;
            this.timeout = timeout;
        }
    }

    private ClickHouseConnection(ConnectionConfig config, Transport transport, BinaryReader in,
                                 BinaryWriter out, ServerHello hello, long revision, ZoneId zone, ClientInfo clientInfo) {
        this.config = config;
        this.bufferPool = new dev.clickhousetcp.data.BufferPool(config.blockBufferPoolSize());
        this.transport = transport;
        this.in = in;
        this.out = out;
        this.hello = hello;
        this.revision = revision;
        this.serverZone = zone;
        this.timeZone = new SessionTimeZone(zone);
        this.clientInfo = clientInfo;
        this.socketTimeoutNanos = config.socketTimeout().toNanos();
        this.blocks = new BlockChannel(in, out, config.bufferSize(), config.limits());
        this.state = State.READY;
    }

    private static ThreadPoolExecutor closer() {
        ThreadPoolExecutor ex = new ThreadPoolExecutor(2, 2, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "clickhouse-tcp-closer");
            t.setDaemon(true);
            return t;
        });
        ex.allowCoreThreadTimeOut(true);
        return ex;
    }

    /**
     * Connects and performs the handshake (Hello, server Hello, Addendum), bounded by the configured
     * connect and handshake timeouts.
     *
     * @param config the server address, credentials, timeouts and the other connection settings
     * @return the connected connection, READY for its first request; the caller closes it
     * @throws ClickHouseConnectionException    when the endpoint cannot be reached
     * @throws ClickHouseTimeoutException       when connect or handshake time out
     * @throws ClickHouseAuthenticationException when the server rejects the credentials
     * @throws ClickHouseServerException        for another server error during the handshake
     */
    public static ClickHouseConnection open(ConnectionConfig config) {
        return open(config, Budget.NONE);
    }

    /**
     * {@link #open(ConnectionConfig)} within {@code budget} as well (e.g. a pool's acquire timeout):
     * connect and handshake each stop at the earlier of their own timeout and the budget, and the
     * exception names the deadline that expired.
     */
    static ClickHouseConnection open(ConnectionConfig config, Budget budget) {
        String where = config.host() + ":" + config.port();
        Budget connect = Budget.of(config.connectTimeout(), Deadline.CONNECT).min(budget);
        Transport transport;
        try {
            transport = Transport.connect(config.host(), config.port(), connect);
        } catch (SocketTimeoutException e) {
            throw connect.exceeded("while connecting to " + where + " (timed out)", e);
        } catch (UnknownHostException | java.nio.channels.UnresolvedAddressException e) {
            throw new ClickHouseConnectionException("unknown host " + config.host(), e);
        } catch (IOException e) {
            throw new ClickHouseConnectionException("cannot connect to " + where + ": " + e.getMessage(), e);
        }
        Budget handshake = Budget.of(config.handshakeTimeout(), Deadline.HANDSHAKE).min(budget);
        Guard guard = new Guard(handshake);
        transport.guard(guard);
        if (config.tls() != null) {
            TlsConfig tls = config.tls();
            try {
                transport = TlsTransport.start(transport, tls, tls.serverName() != null ? tls.serverName()
                        : config.host(), config.port(), guard);
            } catch (DeadlineExpired e) {
                transport.closeNow();
                throw new ClickHouseTimeoutException(e.deadline.optionName() + " " + e.timeout
                        + " expired during the TLS handshake with " + where + " (timed out)", e, e.deadline, e.timeout);
            } catch (IOException | RuntimeException e) {
                transport.closeNow();
                throw new ClickHouseConnectionException("TLS handshake with " + where + " failed: " + e.getMessage(), e);
            }
        }
        return handshake(config, transport, guard);
    }

    /**
     * The protocol handshake (Hello, server Hello, Addendum) over a connected {@code transport} whose
     * waits {@code guard} already bounds; the second half of {@link #open(ConnectionConfig, Budget)}.
     * Package-private so that tests can run the real handshake and the real response decoding over a
     * transport of their own (e.g. in-memory bytes for fuzzing).
     *
     * @throws ClickHouseProtocolException when the server's answer is not a Hello
     * @throws ClickHouseConnectionException when the transport fails; it is then closed
     */
    static ClickHouseConnection handshake(ConnectionConfig config, Transport transport, Guard guard) {
        String where = config.host() + ":" + config.port();
        try {
            BinaryWriter w = new BinaryWriter(transport.outputStream(), config.bufferSize());
            BinaryReader r = new BinaryReader(transport.inputStream(), config.bufferSize(),
                    config.limits().maxStringBytes());
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
                    ? new BinaryReader(new ChunkedInputStream(new BufferedInputStream(transport.inputStream(),
                    config.bufferSize()),
                    Integer.MAX_VALUE), config.bufferSize(), config.limits().maxStringBytes())
                    : r;
            ZoneId zone = zoneOf(hello.timezone());
            ClientInfo info = new ClientInfo("", "", "0.0.0.0:0", System.getProperty("user.name", ""), localHostName(),
                    config.clientName(), VERSION_MAJOR, VERSION_MINOR, VERSION_PATCH, "", null);
            ClickHouseConnection conn = new ClickHouseConnection(config, transport, reader, w, hello, rev, zone, info);
            conn.sendChunked = sendChunked;
            conn.receiveChunked = recvChunked;
            guard.conn = conn;
            return conn;
        } catch (DeadlineExpired e) {
            closeInBackground(transport);
            throw new ClickHouseTimeoutException(e.deadline.optionName() + " " + e.timeout
                    + " expired during the handshake with " + where + " (timed out waiting for the server)", e,
                    e.deadline, e.timeout);
        } catch (IOException e) {
            closeInBackground(transport);
            throw new ClickHouseConnectionException("handshake with " + where + " failed: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeInBackground(transport);
            throw e;
        }
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

    /**
     * Whether packets to the server are chunk-framed.
     *
     * @return the framing negotiated in the handshake for the client-to-server direction (revision 54470+)
     */
    public boolean sendsChunked() {
        return sendChunked;
    }

    /**
     * Whether packets from the server are chunk-framed.
     *
     * @return the framing negotiated in the handshake for the server-to-client direction (revision 54470+)
     */
    public boolean receivesChunked() {
        return receiveChunked;
    }

    /**
     * The server this connection talks to.
     *
     * @return the configured host and port (as given, not the resolved address)
     */
    public Endpoint endpoint() {
        return new Endpoint(config.host(), config.port());
    }

    /**
     * The server's Hello: name, version, revision, time zone, display name.
     *
     * @return the Hello received in the handshake
     */
    public ServerHello serverHello() {
        return hello;
    }

    /**
     * The negotiated protocol revision, {@code min(ours, server's)}.
     *
     * @return the revision that decides which packet fields both sides send
     */
    public long revision() {
        return revision;
    }

    /**
     * The server's time zone from its Hello (DateTime columns without an explicit zone use it unless a
     * session zone is set).
     *
     * @return the zone named by the server's Hello
     */
    public ZoneId serverZone() {
        return serverZone;
    }

    /**
     * The zone DateTime columns without an explicit zone have in the current (or last) query: its
     * {@code session_timezone} (see {@link SessionTimeZone}), else {@link #serverZone()}.
     *
     * @return the zone in effect
     */
    public ZoneId sessionZone() {
        return timeZone.current();
    }

    SessionTimeZone timeZone() {
        return timeZone;
    }

    /**
     * The settings this connection was opened with.
     *
     * @return the configuration (for a pooled connection, with its endpoint's host and port)
     */
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

    /** Columns this connection read in sparse serialization (statistics; both decode contexts). */
    long sparseColumnsRead() {
        return readCount(dev.clickhousetcp.types.ReadContext::sparseColumnsRead);
    }

    /** Columns this connection read in replicated serialization (statistics). */
    long replicatedColumnsRead() {
        return readCount(dev.clickhousetcp.types.ReadContext::replicatedColumnsRead);
    }

    /** Columns this connection read detached, as blobs of compressed frames (statistics). */
    long detachedColumnsRead() {
        return readCount(dev.clickhousetcp.types.ReadContext::detachedColumnsRead);
    }

    private long readCount(java.util.function.ToLongFunction<dev.clickhousetcp.types.ReadContext> count) {
        return (pooledContext == null ? 0 : count.applyAsLong(pooledContext))
                + (plainContext == null ? 0 : count.applyAsLong(plainContext));
    }

    /**
     * The column buffer pool of this connection (statistics).
     *
     * @return the pool of idle column buffers that later blocks are decoded into
     */
    public dev.clickhousetcp.data.BufferPool bufferPool() {
        return bufferPool;
    }

    /**
     * Whether this connection is idle and healthy (READY).
     *
     * @return {@code true} when no request is under way and the connection is neither closed nor broken
     */
    public boolean isUsable() {
        return state == State.READY;
    }

    /**
     * Whether the connection has been closed or broken.
     *
     * @return {@code true} once it can no longer be used
     */
    public boolean isClosed() {
        return state == State.CLOSED || state == State.BROKEN;
    }

    /**
     * What broke this connection, or {@code null}.
     *
     * @return the failure that broke it, or {@code null} while it is healthy or after a regular close
     */
    public Throwable brokenBy() {
        return brokenBy;
    }

    /** Bytes received from the server so far (for telling whether a request got any answer). */
    long bytesReceived() {
        return transport.received();
    }

    /**
     * Whether the server has gone away from this idle connection: its FIN (or reset) already reached
     * our socket, or it sent bytes nobody asked for. One non-blocking read of the socket, no round
     * trip. A connection that fails this check is broken and must not be used. Call only while READY
     * (never during a request).
     */
    boolean closedByServer() {
        if (state != State.READY) {
            return true;
        }
        if (in.buffered() > 0 || transport.pending() > 0) {
            brokenBy = new ClickHouseProtocolException("bytes after the end of the last response");
        } else if (transport.idleCheckFails()) {
            brokenBy = new java.io.EOFException("the server closed the idle connection (or sent data on it)");
        } else {
            return false;
        }
        state = State.BROKEN;
        closeInBackground();
        return true;
    }

    /**
     * Ends the connection from another thread (e.g. its pool closing while it is lent): shuts down our
     * side's output, so the server ends any query and closes, and the borrower's next read or write
     * fails and closes the connection. Never resets the connection.
     */
    void abort() {
        transport.shutdownOutputFromAnotherThread();
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
     * @param timeout the longest wait for the Pong, or {@code null}
     * @throws ClickHouseTimeoutException when no Pong arrives in time; the connection is then broken
     */
    public void ping(Duration timeout) {
        begin(Budget.of(timeout, Deadline.PING), false);
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
                    end();
                    throw e;
                }
                throw new ClickHouseProtocolException("expected Pong, got packet " + ServerPacket.name(type));
            }
            end();
        } catch (ClickHouseServerException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw fail(e);
        }
    }

    /**
     * Starts a query and returns its result stream, which must be read to its end or closed before
     * this connection runs anything else. For use of a connection without a pool; pooled callers go
     * through {@link ClickHouseTcpClient}.
     *
     * @param sql     the query; must not be {@code null}
     * @param options the per-query options (settings, query_id, timeout, listener...)
     * @return the streaming result; closing it leaves this connection open
     * @throws IllegalArgumentException when {@code sql} is {@code null}
     * @throws ClickHouseException      when the options need a newer protocol revision, or sending fails
     */
    public QueryResult query(String sql, QueryOptions options) {
        Budget budget = Budget.of(options.timeout(), Deadline.QUERY);
        Exchange x = startQuery(sql, options, budget);
        return new QueryResult(ConnectionLease.unpooled(this), x, options.listener(), SqlText.isInsert(sql), null, null);
    }

    /**
     * Sends a query (and its external tables) as one request within {@code budget}; the caller reads
     * the response through a {@link QueryResult} over the returned exchange.
     */
    Exchange startQuery(String sql, QueryOptions options, Budget budget) {
        checkSupported(sql, options);
        useDatabase(options.database(), budget);
        if (SqlText.isUse(sql)) {
            currentDatabase = null; // changed by the statement itself: unknown until the next switch
        }
        Exchange x = begin(budget, true);
        try {
            sendQuery(sql, options);
            sendExternalTables(options);
            blocks.writeEmptyData();
            out.flush();
        } catch (IOException | RuntimeException e) {
            throw fail(e);
        }
        return x;
    }

    /**
     * Starts an INSERT whose rows the caller streams as blocks ({@code INSERT INTO t [(cols)] VALUES}
     * without literal rows, or {@code FORMAT Native}); returns once the server sent the insert header.
     * For use of a connection without a pool.
     *
     * @param sql     the INSERT statement without data
     * @param options the options of the INSERT statement
     * @return the insert stream; finish or close it before this connection runs anything else
     * @throws ClickHouseServerException when the server rejects the statement
     * @throws ClickHouseException       when sending fails or the server sends no insert header
     */
    public InsertStream insert(String sql, QueryOptions options) {
        Budget budget = Budget.of(options.timeout(), Deadline.QUERY);
        return new InsertStream(ConnectionLease.unpooled(this), startInsert(sql, options, budget), options.listener(), null,
                null);
    }

    /** Sends an INSERT query within {@code budget}; an {@link InsertStream} over the exchange reads its header. */
    Exchange startInsert(String sql, QueryOptions options, Budget budget) {
        checkSupported(sql, options);
        useDatabase(options.database(), budget);
        Exchange x = begin(budget, false);
        try {
            sendQuery(sql, options);
            sendExternalTables(options);
            // end of external tables; the server then answers with the insert header block
            blocks.writeEmptyData();
            out.flush();
        } catch (IOException | RuntimeException e) {
            throw fail(e);
        }
        return x;
    }

    /**
     * Makes {@code database} (or, for {@code null}, the configured default database) the connection's
     * current one before a query: the native protocol has no per-query database, so a switch costs one
     * {@code USE} round trip, and only when the connection's current database differs.
     */
    private void useDatabase(String database, Budget budget) {
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
        String use = "USE `" + wanted.replace("\\", "\\\\").replace("`", "\\`") + "`";
        try (QueryResult r = new QueryResult(ConnectionLease.unpooled(this), startQuery(use, QueryOptions.DEFAULT, budget),
                QueryListener.NONE, false, null, null)) {
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
        Exchange x = exchange;
        if (x != null) {
            x.queryId = queryId;
        }
        Compression compression = options.compression() != null ? options.compression() : config.compression();
        Map<String, String> settings = new LinkedHashMap<>();
        // No setting the user did not ask for, unless the protocol needs it: a compressed response
        // comes in the server's network_compression_method (LZ4 unless the user's profile says
        // otherwise) and every frame names its codec, so LZ4 needs no setting; another codec (ZSTD,
        // checksum-only NONE) must be asked for. A readonly = 1 user cannot change settings; see Compression.
        if (compression.enabled() && compression.method() != dev.clickhousetcp.io.CompressionMethod.LZ4) {
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

    /** Starts a request: READY to BUSY, with a fresh exchange. */
    private Exchange begin(Budget budget, boolean cancellable) {
        State s = state;
        if (s != State.READY) {
            throw new ClickHouseException("connection is " + s.name().toLowerCase()
                    + (s == State.BUSY ? ": finish or close the previous result first (a connection or "
                    + "session runs one query at a time)" : ""));
        }
        if (budget.expired()) {
            throw budget.exceeded("before the request was sent", null);
        }
        Exchange x = new Exchange(budget, cancellable, transport.received());
        exchange = x;
        state = State.BUSY;
        return x;
    }

    /** Called by the transport before a read and after each wait for data (reading thread only). */
    private void onRead(long silentNanos) throws IOException {
        Exchange x = exchange;
        if (x != null) {
            long now = System.nanoTime();
            boolean interrupted = Thread.interrupted(); // cleared while stopping; the result restores it
            if (interrupted) {
                x.interruptSeen = true;
            }
            if (!x.cancelSent) {
                Abort a = Abort.NONE;
                if (interrupted) {
                    a = Abort.INTERRUPTED;
                } else if (x.cancelRequested) {
                    a = Abort.CANCELLED;
                } else if (!x.budget.unlimited() && now - x.budget.deadlineNanos() >= 0) {
                    a = Abort.TIMED_OUT;
                }
                if (a != Abort.NONE) {
                    x.abort = a;
                    if (!x.cancellable) {
                        // an insert or a ping cannot be cancelled in the middle: give the connection up
                        if (a == Abort.TIMED_OUT) {
                            throw new DeadlineExpired(x.budget.kind(), x.budget.timeout(), "the deadline passed");
                        }
                        if (a == Abort.INTERRUPTED) {
                            throw new java.io.InterruptedIOException("interrupted");
                        }
                        x.abort = Abort.NONE; // a cancel request for an insert or a ping: not applicable
                    }
                    x.cancelSent = true;
                    x.drainDeadlineNanos = switch (a) {
                        case CANCELLED -> Math.min(now + DRAIN_NANOS, x.hardDeadlineNanos());
                        case INTERRUPTED -> now + INTERRUPT_GRACE_NANOS;
                        default -> x.hardDeadlineNanos();
                    };
                    sendCancel();
                }
            } else if (x.drainDeadlineNanos != Long.MAX_VALUE && now - x.drainDeadlineNanos > 0) {
                throw new SocketTimeoutException("the server did not confirm the cancellation in time; "
                        + "the connection is dropped");
            }
        }
        if (x == null && Thread.currentThread().isInterrupted()) {
            throw new java.io.InterruptedIOException("interrupted"); // e.g. resynchronizing after an error
        }
        if (resyncDeadlineNanos != Long.MAX_VALUE && System.nanoTime() - resyncDeadlineNanos > 0) {
            throw new SocketTimeoutException("no Pong while resynchronizing after a server exception");
        }
        if (silentNanos >= socketTimeoutNanos) {
            throw new DeadlineExpired(Deadline.SOCKET, config.socketTimeout(), "no data for " + config.socketTimeout());
        }
    }

    /**
     * Called by the transport after each wait while a write cannot progress (the server is not reading):
     * an interrupt, the request's deadline or the socket timeout abandon the write (and the connection:
     * a packet cannot be cancelled halfway).
     */
    private void onWrite(long stalledNanos) throws IOException {
        Exchange x = exchange;
        if (Thread.interrupted()) {
            if (x != null) {
                x.interruptSeen = true;
            }
            throw new java.io.InterruptedIOException("interrupted while sending to the server");
        }
        if (x != null && !x.budget.unlimited() && System.nanoTime() - x.budget.deadlineNanos() >= 0) {
            throw new DeadlineExpired(x.budget.kind(), x.budget.timeout(),
                    "the server stopped reading what was sent to it");
        }
        if (stalledNanos >= socketTimeoutNanos) {
            throw new DeadlineExpired(Deadline.SOCKET, config.socketTimeout(), "the server read nothing for "
                    + config.socketTimeout());
        }
    }

    /** How long the next blocking read may wait: up to the nearest deadline, at most {@link #POLL_MILLIS}. */
    private int pollMillis() {
        long next = resyncDeadlineNanos;
        Exchange x = exchange;
        if (x != null) {
            next = Math.min(next, x.cancelSent ? x.drainDeadlineNanos : x.budget.deadlineNanos());
        }
        if (next == Long.MAX_VALUE) {
            return POLL_MILLIS;
        }
        long left = next - System.nanoTime();
        if (left <= 0) {
            return 1;
        }
        return (int) Math.max(1, Math.min(POLL_MILLIS, TimeUnit.NANOSECONDS.toMillis(left) + 1));
    }

    /** Bridges the transport's waits to the connection (which exists only after the handshake). */
    static final class Guard implements Transport.Guard {
        private final Budget handshake;
        volatile ClickHouseConnection conn;

        /** Bounds the handshake by {@code handshake}, then defers to the connection's own checks. */
        Guard(Budget handshake) {
            this.handshake = handshake;
        }

        @Override
        public void checkRead(long silentNanos) throws IOException {
            ClickHouseConnection c = conn;
            if (c != null) {
                c.onRead(silentNanos);
            } else {
                checkHandshake();
            }
        }

        @Override
        public void checkWrite(long stalledNanos) throws IOException {
            ClickHouseConnection c = conn;
            if (c != null) {
                c.onWrite(stalledNanos);
            } else {
                checkHandshake();
            }
        }

        private void checkHandshake() throws IOException {
            if (Thread.currentThread().isInterrupted()) {
                throw new java.io.InterruptedIOException("interrupted during the handshake");
            }
            if (handshake.expired()) {
                throw new DeadlineExpired(handshake.kind(), handshake.timeout(), "no answer in time");
            }
        }

        @Override
        public int pollMillis() {
            ClickHouseConnection c = conn;
            if (c != null) {
                return c.pollMillis();
            }
            long left = handshake.remainingNanos();
            return (int) Math.max(1, Math.min(POLL_MILLIS, TimeUnit.NANOSECONDS.toMillis(left) + 1));
        }
    }

    /** The response ended cleanly (EndOfStream, Exception or Pong): BUSY to READY. */
    void end() {
        if (state == State.BUSY) {
            state = State.READY;
        }
        exchange = null;
    }

    /**
     * Marks the connection broken, closes the socket in the background, and converts {@code e} to a
     * client exception (a passed deadline becomes a {@link ClickHouseTimeoutException} naming it).
     */
    ClickHouseException fail(Throwable e) {
        if (e instanceof ClickHouseServerException se && state == State.READY) {
            return se;
        }
        boolean first = state != State.BROKEN && state != State.CLOSED;
        if (first) {
            state = State.BROKEN;
            brokenBy = e;
        }
        exchange = null;
        if (first) {
            closeInBackground();
        }
        String where = config.host() + ":" + config.port();
        if (e instanceof DeadlineExpired expired) {
            return new ClickHouseTimeoutException(expired.deadline.optionName() + " " + expired.timeout + " expired on "
                    + where + ": " + expired.getMessage() + " (timed out)", e, expired.deadline, expired.timeout);
        }
        if (e instanceof java.io.InterruptedIOException && !(e instanceof SocketTimeoutException)) {
            Thread.currentThread().interrupt();
            return new ClickHouseException("interrupted; the connection to " + where + " was closed", e);
        }
        if (e instanceof ClickHouseException ce) {
            return ce;
        }
        if (e instanceof SocketTimeoutException) {
            return new ClickHouseTimeoutException("reading from " + where + " timed out: " + e.getMessage(), e,
                    Deadline.SOCKET, config.socketTimeout());
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
     * {@link #DRAIN_NANOS} and by the request's deadline: such a server cannot skip a compressed
     * end-of-data block (it reads the frame as a plain block and waits for bytes that never come), so
     * no Pong may ever arrive.
     */
    void resyncAfterException() throws IOException {
        Exchange x = exchange;
        long limit = System.nanoTime() + DRAIN_NANOS;
        if (x != null) {
            limit = Math.min(limit, x.hardDeadlineNanos());
        }
        resyncDeadlineNanos = limit;
        Exchange paused = x;
        exchange = null; // the query is over: its deadline and cancel no longer apply to the ping
        try {
            resyncUntilPong();
        } finally {
            resyncDeadlineNanos = Long.MAX_VALUE;
            exchange = paused;
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

    /** Closes the connection (FIN, a short drain, close). Idempotent; for a connection no request is using. */
    @Override
    public void close() {
        State s = state;
        if (s == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        exchange = null;
        if (s == State.BROKEN) {
            return; // already being closed in the background
        }
        transport.closeGracefully();
    }

    /**
     * Like {@link #close()}, but the FIN-and-drain runs off the caller's thread, so a pool borrower
     * never waits for a server to acknowledge the end of a connection it is retiring.
     */
    void closeLater() {
        State s = state;
        if (s == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        exchange = null;
        if (s != State.BROKEN) {
            closeInBackground();
        }
    }

    private void closeInBackground() {
        closeInBackground(transport);
    }

    /** Closes gracefully off the caller's thread: the caller's deadline does not wait for the server. */
    private static void closeInBackground(Transport t) {
        try {
            CLOSER.execute(t::closeGracefully);
        } catch (RuntimeException e) {
            t.closeGracefully();
        }
    }

    @Override
    public String toString() {
        return "ClickHouseConnection[" + config.host() + ":" + config.port() + ", " + hello.name() + " "
                + hello.version() + ", revision " + revision + ", " + state + "]";
    }
}
