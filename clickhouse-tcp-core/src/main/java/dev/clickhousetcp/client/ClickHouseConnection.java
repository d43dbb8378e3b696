package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseAuthenticationException;
import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseFeatureNotSupportedException;
import dev.clickhousetcp.ClickHouseInterruptedException;
import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.ClickHouseTimeoutException.Deadline;
import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.BufferPool;
import dev.clickhousetcp.data.ColumnWriter;
import dev.clickhousetcp.data.DataTypes;
import dev.clickhousetcp.data.Lifetime;
import dev.clickhousetcp.data.ReadContext;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;
import dev.clickhousetcp.io.CompressionMethod;
import dev.clickhousetcp.protocol.ClientInfo;
import dev.clickhousetcp.protocol.ClientPacket;
import dev.clickhousetcp.protocol.Progress;
import dev.clickhousetcp.protocol.ProtocolFeature;
import dev.clickhousetcp.protocol.QueryPacket;
import dev.clickhousetcp.protocol.ServerExceptionCodec;
import dev.clickhousetcp.protocol.ServerHello;
import dev.clickhousetcp.protocol.ServerPacket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;

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
 * never a reset); a server Exception packet leaves it READY. A timed-out query whose Cancel the server has not
 * confirmed within the grace leaves it awaiting that confirmation, read by its next request
 * ({@link #awaitCancelConfirmation()}; {@link #isUsable()} false until then). Errors are thrown as
 * {@link ClickHouseException} subtypes.
 *
 * <p>This class owns the connection's state (READY, BUSY, broken, closed), the start and end of
 * each request, and the query, insert and ping entry points; {@link ConnectionOpener} opens it
 * (socket, TLS, handshake) and {@link ConnectionGuard} bounds each wait on its socket by the
 * request's deadline, cancel request and interrupts.
 */
public final class ClickHouseConnection implements AutoCloseable {
    /**
     * The connection's states. {@code AWAITING_CANCEL}: a cancelled query's caller already has its outcome
     * (its timeout exception), but the server had not ended the response yet; the connection's next request
     * reads the rest of it first ({@link #awaitCancelConfirmation()}).
     */
    enum State { READY, BUSY, AWAITING_CANCEL, BROKEN, CLOSED }

    /**
     * Most bytes of idle column buffers a client keeps for reuse by later blocks, by default: 32 MiB,
     * shared by all the client's connections ({@link ConnectionConfig#blockBufferPoolSize()} sets it; a
     * connection opened on its own with {@link #open(ConnectionConfig)} has a pool of that size to itself).
     */
    public static final long BUFFER_POOL_MAX_RETAINED_BYTES = 32L << 20;

    private static final Logger LOG = LoggerFactory.getLogger(ClickHouseConnection.class);
    private static final String COMPRESSION_METHOD_SETTING = "network_compression_method";
    private static final String ZSTD_LEVEL_SETTING = "network_zstd_compression_level";
    private static final String READONLY_SETTING = "readonly";
    /** The setting a {@code SET profile = 'name'} assigns (ClickHouse applies the profile's settings). */
    private static final String PROFILE_SETTING = "profile";
    /** ClickHouse error code READONLY: a setting the user may not change. */
    private static final int READONLY = 164;
    /** The users and servers whose refusal of the compression setting was logged (bounded). */
    private static final Set<String> COMPRESSION_REFUSAL_LOGGED = ConcurrentHashMap.newKeySet();

    /** The longest wait for the server's answer after a write to it failed ({@link #serverErrorAfterWriteFailure}). */
    static final long SALVAGE_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    /** The most bytes read for the server's answer after a write to it failed. */
    static final long SALVAGE_BYTES = 4L << 20;
    /**
     * The most bytes the next request reads of a cancelled response that had not ended
     * ({@link #awaitCancelConfirmation()}) before the connection is closed instead: what a server still
     * streams until it reads the Cancel (every {@code interactive_delay}, 100 ms by default) is far less.
     */
    static final long CANCELLED_RESPONSE_BYTES = 64L << 20;

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
    /** The socket timeout in force: the configured one, or what {@link #setSocketTimeout} set. */
    private volatile Duration socketTimeout;
    private volatile long socketTimeoutNanos;
    private final BufferPool bufferPool;
    private ReadContext pooledContext;
    private ReadContext plainContext;
    private volatile State state;
    private volatile Throwable brokenBy;
    /** Why another thread ended this connection ({@link #abort(String)}), or {@code null}. */
    private volatile String abortedBecause;
    /** The request under way, or {@code null} when READY. */
    private volatile Exchange exchange;
    /** Deadline of a resynchronizing ping after a server exception ({@link Long#MAX_VALUE} when none). */
    private long resyncDeadlineNanos = Long.MAX_VALUE;
    private final boolean sendChunked;
    /** The database of the connection after our last USE, or null before any / after a user's USE. */
    private String currentDatabase;
    private boolean usedOtherDatabase;
    private boolean switching;
    /** Whether a statement changed the server session beyond what the configuration gives (USE, SET...). */
    private boolean carriesSessionState;
    private final boolean receiveChunked;
    /**
     * Whether the connection's settings are readonly = 1, where no setting may change (ClickHouse
     * {@code SettingsConstraints}; code 164 READONLY): from the server Hello's settings (54474+, the
     * user's profile), a successful {@code SET readonly} of this connection, the server's refusal of
     * the compression setting, or (as a profile may carry it) a successful {@code SET profile}. The client
     * then sends no {@code network_compression_method} of its own.
     */
    private boolean readonlyOne;
    /** The value the running statement's {@code SET readonly} gives, applied when it succeeds; or null. */
    private String settingReadonly;
    /**
     * Whether the running statement is a {@code SET profile}: a profile may carry readonly = 1, which the
     * connection cannot see without asking the server, so once it succeeds the connection takes its settings
     * for readonly (the server's own compression method is read either way).
     */
    private boolean settingProfile;

    /** A connection over {@code transport} after its handshake ({@link ConnectionOpener}), READY. */
    ClickHouseConnection(ConnectionConfig config, Transport transport, BinaryReader in, BinaryWriter out,
                         ServerHello hello, long revision, ZoneId zone, ClientInfo clientInfo, boolean sendChunked,
                         boolean receiveChunked, BufferPool bufferPool) {
        this.config = config;
        this.bufferPool = bufferPool;
        this.transport = transport;
        this.in = in;
        this.out = out;
        this.hello = hello;
        this.revision = revision;
        this.serverZone = zone;
        this.timeZone = new SessionTimeZone(zone);
        this.clientInfo = clientInfo;
        this.socketTimeout = config.socketTimeout();
        this.socketTimeoutNanos = socketTimeout.toNanos();
        this.blocks = new BlockChannel(in, out, config.bufferSize(), config.limits());
        this.sendChunked = sendChunked;
        this.receiveChunked = receiveChunked;
        this.readonlyOne = "1".equals(hello.serverSettings().get(READONLY_SETTING));
        this.state = State.READY;
    }

    private static ThreadPoolExecutor closer() {
        ThreadPoolExecutor ex = new ThreadPoolExecutor(2, 2, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "clickhouse-tcp-closer");
            t.setDaemon(true);
            return t;
        });
        ex.allowCoreThreadTimeOut(true);
        // a JVM that exits ends its daemon threads and then its sockets: a close still draining would reset its
        // connection (unread bytes), so the exit waits for the closes under way and queued, about their drain bound
        Thread finish = new Thread(() -> {
            ex.shutdown();
            try {
                ex.awaitTermination(Transport.CLOSE_DRAIN_NANOS + TimeUnit.SECONDS.toNanos(1), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "clickhouse-tcp-closer-exit");
        try {
            Runtime.getRuntime().addShutdownHook(finish);
        } catch (IllegalStateException | SecurityException e) {
            // the JVM is already exiting, or may not add hooks: closes then end with it
        }
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
        return ConnectionOpener.open(config, Budget.NONE, new BufferPool(config.blockBufferPoolSize()));
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
    ReadContext readContext(boolean pooled) {
        if (pooled) {
            if (pooledContext == null) {
                pooledContext = new ReadContext(config.limits(), serverZone, revision, bufferPool);
            }
            pooledContext.zone(timeZone.current());
            return pooledContext;
        }
        if (plainContext == null) {
            plainContext = new ReadContext(config.limits(), serverZone, revision, null);
        }
        plainContext.zone(timeZone.current());
        return plainContext;
    }

    /** Columns this connection read in sparse serialization (statistics; both decode contexts). */
    long sparseColumnsRead() {
        return readCount(ReadContext::sparseColumnsRead);
    }

    /** Columns this connection read in replicated serialization (statistics). */
    long replicatedColumnsRead() {
        return readCount(ReadContext::replicatedColumnsRead);
    }

    /** Columns this connection read detached, as blobs of compressed frames (statistics). */
    long detachedColumnsRead() {
        return readCount(ReadContext::detachedColumnsRead);
    }

    private long readCount(ToLongFunction<ReadContext> count) {
        return (pooledContext == null ? 0 : count.applyAsLong(pooledContext))
                + (plainContext == null ? 0 : count.applyAsLong(plainContext));
    }

    /**
     * The column buffer pool this connection decodes into (statistics): the one pool of its client,
     * shared by all the client's connections, or, for a connection opened with
     * {@link #open(ConnectionConfig)}, its own.
     *
     * @return the thread-safe pool of idle column buffers that later blocks are decoded into
     */
    public BufferPool bufferPool() {
        return bufferPool;
    }

    /**
     * Whether this connection is idle and healthy (READY).
     *
     * @return {@code true} when no request is under way and the connection is neither closed nor broken;
     *         {@code false} also while the rest of a cancelled response is still to be read by the next
     *         request (which then makes it usable again, or breaks it)
     */
    public boolean isUsable() {
        return state == State.READY;
    }

    /**
     * Whether a statement run on this connection changed the state of its server session beyond what
     * the configuration gives a new connection: {@code USE}, {@code SET}, {@code SET ROLE}, a transaction
     * or a temporary table (see {@code ClickHouseSessionRequiredException}), or a
     * {@link QueryOptions#database()} switch when no database is configured (the server's default for the
     * user has no name to switch back to). A pool closes such a connection when it is given back instead of
     * lending it again.
     *
     * @return {@code true} once such a statement was sent on this connection
     */
    public boolean carriesSessionState() {
        return carriesSessionState;
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
            brokenBy = new EOFException("the server closed the idle connection (or sent data on it)");
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
     * fails and closes the connection. Never resets the connection. From then on every failure the
     * borrower meets is a {@link ClickHouseConnectionException} saying {@code why}, with what the server
     * or the socket said (a server's "client has dropped the connection", a TLS alert) as its cause.
     */
    void abort(String why) {
        abortedBecause = why;
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
                    Progress.read(in, revision); // late progress of an earlier query
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
        return start(sql, options, budget, true);
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
        return start(sql, options, budget, false);
    }

    /**
     * Sends a query ({@code query}: cancellable) or an INSERT, its external tables and the empty block that ends
     * them (after which the server answers an INSERT with its header block), within {@code budget}.
     */
    private Exchange start(String sql, QueryOptions options, Budget budget, boolean query) {
        checkSupported(sql, options);
        useDatabase(options.database(), budget);
        String sessionStatement = switching ? null : SqlText.sessionStatement(sql);
        if (sessionStatement != null) {
            carriesSessionState = true;
            if (sessionStatement.equals("USE")) {
                currentDatabase = null; // changed by the statement itself: unknown until the next switch
            }
        }
        Exchange x = begin(budget, query);
        try {
            sendQuery(sql, options, null);
            sendExternalTables(options);
            endExternalTables();
            out.flush();
        } catch (IOException | RuntimeException e) {
            ClickHouseServerException answer = serverErrorAfterWriteFailure(e, new ResponseReader(this, QueryListener.NONE));
            ClickHouseException failed = fail(e);
            throw answer != null ? answer : failed;
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
        if (config.database().isEmpty()) {
            carriesSessionState = true; // the user's default database has no name here to switch back to
        }
    }

    /** Rejects, before anything is sent, what this server's revision cannot carry. */
    private void checkSupported(String sql, QueryOptions options) {
        if (sql == null) {
            throw new IllegalArgumentException("sql must not be null");
        }
        if (!options.parameters().isEmpty() && !ProtocolFeature.PARAMETERS.in(revision)) {
            throw new ClickHouseFeatureNotSupportedException("query parameters need protocol revision "
                    + ProtocolFeature.PARAMETERS.minRevision() + " (ClickHouse 22.x or newer); "
                    + "this server speaks " + revision, ProtocolFeature.PARAMETERS.minRevision(), revision);
        }
        // refused here, before the request starts, so the connection stays usable
        QueryPacket.checkSettings(revision, config.settings());
        QueryPacket.checkSettings(revision, options.settings());
    }

    /** Sends each external table as Data packets named after it, in blocks of at most 65 536 rows. */
    private void sendExternalTables(QueryOptions options) throws IOException {
        for (ExternalTable t : options.externalTables()) {
            String[] names = t.columnNames().toArray(new String[0]);
            ColumnWriter[] writers = new ColumnWriter[names.length];
            for (int i = 0; i < names.length; i++) {
                writers[i] = DataTypes.parse(t.columnTypes().get(i), timeZone.current()).newWriter();
            }
            int n = 0;
            boolean sentAny = false;
            for (Object[] row : t.rows()) {
                if (row.length != names.length) {
                    throw new ClickHouseTypeException("external table " + t.name() + ": a row has "
                            + row.length + " values for " + names.length + " columns");
                }
                for (int i = 0; i < names.length; i++) {
                    writers[i].append(row[i]);
                }
                if (++n == 65_536) {
                    blocks.writeData(revision, t.name(), names, writers, n);
                    sentAny = true;
                    for (ColumnWriter w : writers) {
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

    /**
     * Ends the external tables: with the empty Data block, or with Cancel for a server that leaves them
     * unread when the query fails early and would misread the block's bytes as packets (see
     * {@link ProtocolFeature#EXTERNAL_TABLES_READ_AFTER_FAILURE}; with compression the misread bytes make
     * 18.16 close the connection, and a session lose its temporary tables).
     */
    private void endExternalTables() throws IOException {
        if (ProtocolFeature.EXTERNAL_TABLES_READ_AFTER_FAILURE.in(revision)) {
            blocks.writeEmptyData();
        } else {
            out.writeVarUInt(ClientPacket.CANCEL);
        }
    }

    /**
     * A random version-4 UUID from the calling thread's own generator. {@code UUID.randomUUID()} reads
     * the system's {@code SecureRandom} under one JVM-wide monitor (a read of /dev/urandom inside
     * {@code synchronized} in the JDK, which pins a virtual thread on JDK 21 to 23, and a lock every
     * query would share); a query id has to be unique, not unpredictable.
     */
    static String randomQueryId() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        long msb = (r.nextLong() & ~0xF000L) | 0x4000L; // version 4
        long lsb = (r.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L; // IETF variant
        return new UUID(msb, lsb).toString();
    }

    private void sendQuery(String sql, QueryOptions options, String givenQueryId) throws IOException {
        String queryId = givenQueryId != null ? givenQueryId
                : options.queryId() != null ? options.queryId() : randomQueryId();
        Exchange x = exchange;
        Compression compression = options.compression() != null ? options.compression() : config.compression();
        Map<String, String> settings = new LinkedHashMap<>();
        // No setting the user did not ask for, unless the protocol needs it: a compressed response
        // comes in the server's network_compression_method (LZ4 unless the user's profile says
        // otherwise) and every frame names its codec, so LZ4 needs no setting; another codec (ZSTD,
        // checksum-only NONE) must be asked for, unless this server refused it before (readonly = 1).
        boolean added = compression.enabled() && compression.method() != CompressionMethod.LZ4
                && !config.settings().containsKey(COMPRESSION_METHOD_SETTING)
                && !options.settings().containsKey(COMPRESSION_METHOD_SETTING);
        if (added && readonlyOne) {
            added = false;
            logCompressionRefused(compression);
        }
        SqlSettings.Assignment readonly = SqlSettings.set(sql, READONLY_SETTING);
        settingReadonly = readonly == null ? null : readonly.value() == null ? "0" : readonly.value();
        settingProfile = SqlSettings.set(sql, PROFILE_SETTING) != null;
        if (added) {
            settings.put(COMPRESSION_METHOD_SETTING, compression.method().settingValue());
            if (compression.method() == CompressionMethod.ZSTD) {
                settings.put(ZSTD_LEVEL_SETTING, Integer.toString(compression.level()));
            }
        }
        if (x != null) {
            x.queryId = queryId;
            x.sql = sql;
            x.options = options;
            x.compressionSettingAdded = added;
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

    /**
     * Starts a request: READY to BUSY, with a fresh exchange; a connection awaiting a Cancel's confirmation
     * reads the rest of the cancelled response first ({@link #finishCancelledResponse(Budget)}).
     */
    private Exchange begin(Budget budget, boolean cancellable) {
        if (state == State.AWAITING_CANCEL && !finishCancelledResponse(budget)) {
            throw new ClickHouseConnectionException("the connection to " + config.host() + ":" + config.port()
                    + " is broken: " + brokenBy, brokenBy);
        }
        State s = state;
        if (s != State.READY) {
            throw new ClickHouseException("connection is " + s.name().toLowerCase()
                    + (s == State.BUSY ? ": finish or close the previous result first (a connection or "
                    + "session runs one query at a time)" : ""));
        }
        if (budget.expired()) {
            throw budget.exceeded("before the request was sent", null);
        }
        Exchange x = new Exchange(budget, cancellable, transport.received(), transport);
        exchange = x;
        state = State.BUSY;
        return x;
    }

    /**
     * Leaves the running query's connection awaiting the end of its cancelled response (BUSY to
     * AWAITING_CANCEL), when the wait for the server's confirmation of its Cancel (EndOfStream, or the
     * exception 394 QUERY_WAS_CANCELLED; ClickHouse reads a Cancel only every {@code interactive_delay},
     * 100 ms by default) ended between two packets: the caller gets its outcome on time, and the rest of
     * the response is read by the connection's next request instead of costing the connection (and a
     * session its server state). Only for a response read without chunked framing, whose next packet
     * starts at the next byte. Reading thread only.
     *
     * @return whether the connection awaits the confirmation; {@code false}: it must be dropped
     */
    boolean awaitCancelConfirmation() {
        if (state != State.BUSY || receiveChunked || aborted()) {
            return false;
        }
        state = State.AWAITING_CANCEL;
        exchange = null;
        return true;
    }

    /** Whether a cancelled response is still to be read before the next request ({@link #awaitCancelConfirmation()}). */
    boolean awaitsCancelConfirmation() {
        return state == State.AWAITING_CANCEL;
    }

    /**
     * Reads and discards the rest of a cancelled response up to its end (EndOfStream or the server's
     * exception): at most {@link Exchange#DRAIN_NANOS}, within the next request's {@code budget}, the
     * socket timeout for each wait, and {@link #CANCELLED_RESPONSE_BYTES}. Nothing of it reaches the next
     * request. When it cannot be read to its end, the connection is broken (and closed in the background).
     *
     * @return whether the connection is READY again
     */
    boolean finishCancelledResponse(Budget budget) {
        if (state != State.AWAITING_CANCEL) {
            return state == State.READY;
        }
        state = State.BUSY;
        long limit = System.nanoTime() + Exchange.DRAIN_NANOS;
        if (!budget.unlimited() && budget.deadlineNanos() - limit < 0) {
            limit = budget.deadlineNanos();
        }
        resyncDeadlineNanos = limit; // the bound of a read without a request, as for a resynchronizing ping
        long start = transport.received();
        ResponseReader reader = new ResponseReader(this, QueryListener.NONE);
        try {
            while (!reader.finished()) {
                if (transport.received() - start > CANCELLED_RESPONSE_BYTES) {
                    throw new ClickHouseProtocolException("a cancelled query's response went on for more than "
                            + CANCELLED_RESPONSE_BYTES + " bytes");
                }
                Lifetime l = new Lifetime("a block of a cancelled response");
                try {
                    reader.next(l);
                } catch (ClickHouseServerException e) {
                    // the server's answer to the Cancel (QUERY_WAS_CANCELLED) or an earlier failure: it ended
                } finally {
                    l.release();
                }
            }
        } catch (IOException | RuntimeException e) {
            fail(new IOException("the server did not end a cancelled query's response in time", e));
        } finally {
            resyncDeadlineNanos = Long.MAX_VALUE;
        }
        return state == State.READY;
    }

    /** The request under way, or {@code null} when READY (the guard checks its deadline and cancel). */
    Exchange exchange() {
        return exchange;
    }

    /** Whether another thread ended this connection ({@link #abort(String)}). */
    boolean aborted() {
        return abortedBecause != null;
    }

    /** Deadline of a resynchronizing ping after a server exception ({@link Long#MAX_VALUE} when none). */
    long resyncDeadlineNanos() {
        return resyncDeadlineNanos;
    }

    /** The socket timeout: the longest a read may see no data, or a write no progress. */
    long socketTimeoutNanos() {
        return socketTimeoutNanos;
    }

    /**
     * The socket timeout in force on this connection: the longest a read may wait for the server's next
     * bytes, or a write may make no progress, before the connection is dropped with a
     * {@link ClickHouseTimeoutException} ({@link Deadline#SOCKET}).
     *
     * @return the configured {@link ConnectionConfig#socketTimeout()}, or the value last given to
     *         {@link #setSocketTimeout(Duration)}
     */
    public Duration socketTimeout() {
        return socketTimeout;
    }

    /**
     * Changes the socket timeout of this connection alone (JDBC's {@code Connection.setNetworkTimeout}).
     * Sends nothing and takes effect at the next wait for data, the one under way included: waits are
     * checked every 100 ms, so a wait that has already lasted longer ends the connection at that check.
     * When it passes, the connection is broken (it cannot be resynchronized) and the call that waited throws
     * {@link ClickHouseTimeoutException} with {@link Deadline#SOCKET}. Query deadlines
     * ({@link QueryOptions#timeout()}) still apply on their own. Safe from any thread.
     *
     * @param timeout the longest silence, positive; {@code null} or zero restores the configured
     *                {@link ConnectionConfig#socketTimeout()}
     * @throws IllegalArgumentException when {@code timeout} is negative
     */
    public void setSocketTimeout(Duration timeout) {
        if (timeout != null && timeout.isNegative()) {
            throw new IllegalArgumentException("socket timeout must not be negative: " + timeout);
        }
        Duration d = timeout == null || timeout.isZero() ? config.socketTimeout() : timeout;
        socketTimeout = d;
        socketTimeoutNanos = d.toNanos();
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
        ClickHouseException ce = failAs(e);
        String why = abortedBecause;
        if (why == null) {
            return ce;
        }
        return new ClickHouseConnectionException(why + " while this connection to " + config.host() + ":"
                + config.port() + " was in use", ce);
    }

    private ClickHouseException failAs(Throwable e) {
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
        if (e instanceof InterruptedIOException && !(e instanceof SocketTimeoutException)) {
            Thread.currentThread().interrupt();
            return new ClickHouseInterruptedException("interrupted (" + e.getMessage() + "); the connection to " + where
                    + " was closed", e);
        }
        if (e instanceof ClickHouseException ce) {
            return ce;
        }
        if (e instanceof SocketTimeoutException) {
            return new ClickHouseTimeoutException("reading from " + where + " timed out: " + e.getMessage(), e,
                    Deadline.SOCKET, socketTimeout);
        }
        if (e instanceof IOException) {
            return new ClickHouseConnectionException("connection to " + where + " failed: " + e.getMessage(), e);
        }
        return new ClickHouseException("unexpected error on connection to " + where + ": " + e, e);
    }

    /**
     * After a server Exception ends a query, packets we already sent may still be unread by the server
     * (18.16 that fails while it reads the Query packet, e.g. on an unknown setting, parses the rest of
     * that packet as packets and answers each with an Exception). A Ping round trip consumes any such
     * answers: the connection is READY once Pong arrives. The wait is bounded by
     * {@link Exchange#DRAIN_NANOS} and by the request's deadline: such a server may also wait for bytes
     * that never come, or close the connection, so no Pong may ever arrive.
     */
    void resyncAfterException() throws IOException {
        Exchange x = exchange;
        long limit = System.nanoTime() + Exchange.DRAIN_NANOS;
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
                Progress.read(in, revision);
                continue;
            }
            throw new ClickHouseProtocolException("unexpected packet " + ServerPacket.name(type)
                    + " while resynchronizing after a server exception");
        }
        throw new ClickHouseProtocolException("no Pong while resynchronizing after a server exception");
    }

    /**
     * Whether the running request was refused only because of the compression setting the client added
     * ({@code network_compression_method}, code 164 READONLY: a user with {@code readonly = 1} may change no
     * setting, ClickHouse {@code SettingsConstraints}) and has been sent again without it: the server then
     * compresses with its own method, which the client reads as every frame names its codec (the client's
     * own frames keep the configured method: the server reads any). Remembered for the connection's
     * later requests; logged once per user and server. Call after the exception's resync, while BUSY.
     *
     * @throws IOException when sending fails (the caller fails the connection)
     */
    boolean resentWithoutCompressionSetting(ClickHouseServerException e) throws IOException {
        if (!refusedCompressionSetting(e)) {
            return false;
        }
        Exchange x = exchange;
        sendQuery(x.sql, x.options, x.queryId);
        sendExternalTables(x.options);
        endExternalTables();
        out.flush();
        return true;
    }

    /**
     * Whether {@code e} refuses the compression setting the client added to the running request (code 164
     * naming it): then the connection takes its settings for readonly = 1 and says so once.
     */
    boolean refusedCompressionSetting(ClickHouseServerException e) {
        Exchange x = exchange;
        if (x == null || !x.compressionSettingAdded || e.code() != READONLY
                || !e.serverMessage().contains(COMPRESSION_METHOD_SETTING)) {
            return false;
        }
        readonlyOne = true;
        logCompressionRefused(x.options.compression() != null ? x.options.compression() : config.compression());
        return true;
    }

    /** Logs, once per user and server, that the server's own compression method replaces {@code asked}. */
    private void logCompressionRefused(Compression asked) {
        String who = config.user() + "@" + config.host() + ":" + config.port();
        if (COMPRESSION_REFUSAL_LOGGED.size() < 1024 && COMPRESSION_REFUSAL_LOGGED.add(who)) {
            LOG.info("user '{}' has (or, after a SET profile, may have) readonly = 1 on {}:{} and may not set {}: "
                    + "responses come compressed with the "
                    + "server's own method (LZ4 unless the user's profile says otherwise) instead of {}; what the "
                    + "client sends stays {}", config.user(), config.host(), config.port(), COMPRESSION_METHOD_SETTING,
                    asked, asked);
        }
    }

    /** The running statement ended with EndOfStream: a {@code SET readonly} or {@code SET profile} of it took effect. */
    void statementSucceeded() {
        if (settingProfile) {
            settingProfile = false;
            readonlyOne = true; // a later SET readonly = 0 (allowed only when the profile is not readonly = 1) clears it
        }
        if (settingReadonly != null) {
            readonlyOne = "1".equals(settingReadonly);
            settingReadonly = null;
        }
    }

    /** Forgets which refusals of the compression setting were logged (tests of the log line). */
    static void forgetLoggedCompressionRefusals() {
        COMPRESSION_REFUSAL_LOGGED.clear();
    }

    /** Compressed frames this connection read so far (statistics). */
    long framesRead() {
        return blocks.framesRead();
    }

    /**
     * After a write to the server failed ({@code failure}: a reset or a broken pipe, not a deadline or an
     * interrupt), reads what the server had already sent: a server that refuses a request while the
     * client is still sending it (an INSERT block over a memory limit, a value it cannot parse) writes its
     * Exception packet and closes the connection, and the client's write then fails first. Reads with the
     * running response's {@code reader} for at most {@link #SALVAGE_NANOS} and {@link #SALVAGE_BYTES}.
     * The connection is broken afterwards either way (never reused).
     *
     * @return the server's exception, with {@code failure} suppressed, or {@code null} when the server
     *         had sent none
     */
    ClickHouseServerException serverErrorAfterWriteFailure(Throwable failure, ResponseReader reader) {
        if (!(failure instanceof IOException) || failure instanceof InterruptedIOException || aborted()
                || state != State.BUSY) {
            return null;
        }
        long start = transport.received();
        Exchange paused = exchange;
        exchange = null; // the request's own deadline and cancel no longer apply: only this short wait does
        resyncDeadlineNanos = System.nanoTime() + SALVAGE_NANOS;
        try {
            while (transport.received() - start < SALVAGE_BYTES) {
                Lifetime l = new Lifetime("a block read after a failed write");
                Block b = reader.next(l);
                l.release();
                if (b == null) {
                    return null; // an end of the response without an error: nothing to report but the failure
                }
            }
            return null;
        } catch (ClickHouseServerException e) {
            e.addSuppressed(failure);
            return e;
        } catch (IOException | RuntimeException e) {
            return null; // nothing (more) from the server: the write failure is the answer
        } finally {
            resyncDeadlineNanos = Long.MAX_VALUE;
            if (state == State.BUSY) {
                exchange = paused;
            }
        }
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

    /**
     * Closes gracefully off the caller's thread: the caller's deadline does not wait for the server. A JVM
     * that exits first waits for these closes (up to their drain bound) in a shutdown hook.
     */
    static void closeInBackground(Transport t) {
        try {
            CLOSER.execute(t::closeGracefully);
        } catch (RuntimeException e) {
            t.closeGracefully(); // rejected: the JVM is exiting
        }
    }

    @Override
    public String toString() {
        return "ClickHouseConnection[" + config.host() + ":" + config.port() + ", " + hello.name() + " "
                + hello.version() + ", revision " + revision + ", " + state + "]";
    }
}
