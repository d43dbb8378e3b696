package dev.clickhousetcp.spring.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

import dev.clickhousetcp.client.Compression;
import dev.clickhousetcp.client.ExternalTable;
import dev.clickhousetcp.client.InsertOptions;
import dev.clickhousetcp.client.QueryListener;
import dev.clickhousetcp.client.QueryOptions;
import dev.clickhousetcp.observe.QueryMasking;
import dev.clickhousetcp.protocol.TraceContext;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.util.Assert;

/**
 * The options of one template call, as set through a {@code StatementSpec} or {@code InsertSpec}.
 * Immutable (every {@code with} method returns a copy) and therefore thread-safe; parameter values are
 * prepared ({@link QueryParameterValues}) when they are added, so later changes to a passed collection do
 * not reach the options.
 */
final class CallOptions {

    /** No options: the client's defaults. */
    static final CallOptions NONE = new CallOptions(new Builder());

    private final Map<String, String> settings;

    private final Map<String, @Nullable Object> params;

    private final @Nullable String queryId;

    private final @Nullable Duration timeout;

    private final boolean serverTimeout;

    private final @Nullable QueryListener listener;

    private final @Nullable String database;

    private final @Nullable Compression compression;

    private final @Nullable String quotaKey;

    private final @Nullable TraceContext traceContext;

    private final List<ExternalTable> externalTables;

    private final int maxRowsPerBlock;

    private final @Nullable String deduplicationToken;

    private final boolean tokenPerBlock;

    private final @Nullable Boolean asyncInsert;

    private final boolean waitForAsyncInsert;

    private final int maxAttempts;

    private CallOptions(Builder b) {
        this.settings = Collections.unmodifiableMap(new LinkedHashMap<>(b.settings));
        this.params = Collections.unmodifiableMap(new LinkedHashMap<>(b.params));
        this.queryId = b.queryId;
        this.timeout = b.timeout;
        this.serverTimeout = b.serverTimeout;
        this.listener = b.listener;
        this.database = b.database;
        this.compression = b.compression;
        this.quotaKey = b.quotaKey;
        this.traceContext = b.traceContext;
        this.externalTables = List.copyOf(b.externalTables);
        this.maxRowsPerBlock = b.maxRowsPerBlock;
        this.deduplicationToken = b.deduplicationToken;
        this.tokenPerBlock = b.tokenPerBlock;
        this.asyncInsert = b.asyncInsert;
        this.waitForAsyncInsert = b.waitForAsyncInsert;
        this.maxAttempts = b.maxAttempts;
    }

    /**
     * Options with server-side query parameters.
     * @param sql the statement, for messages
     * @param params parameter values by name
     * @return the options
     * @throws InvalidDataAccessApiUsageException if a value has an unsupported type
     */
    static CallOptions ofParams(String sql, Map<String, ?> params) {
        Objects.requireNonNull(params, "params");
        return params.isEmpty() ? NONE : NONE.withParams(sql, params);
    }

    private Builder toBuilder() {
        Builder b = new Builder();
        b.settings.putAll(this.settings);
        b.params.putAll(this.params);
        b.queryId = this.queryId;
        b.timeout = this.timeout;
        b.serverTimeout = this.serverTimeout;
        b.listener = this.listener;
        b.database = this.database;
        b.compression = this.compression;
        b.quotaKey = this.quotaKey;
        b.traceContext = this.traceContext;
        b.externalTables.addAll(this.externalTables);
        b.maxRowsPerBlock = this.maxRowsPerBlock;
        b.deduplicationToken = this.deduplicationToken;
        b.tokenPerBlock = this.tokenPerBlock;
        b.asyncInsert = this.asyncInsert;
        b.waitForAsyncInsert = this.waitForAsyncInsert;
        b.maxAttempts = this.maxAttempts;
        return b;
    }

    // ------------------------------------------------------------------ copies with one option changed

    CallOptions withSetting(String name, Object value) {
        Assert.hasText(name, "setting name must not be empty");
        Assert.notNull(value, "setting value must not be null");
        Builder b = toBuilder();
        b.settings.put(name, String.valueOf(value));
        return new CallOptions(b);
    }

    CallOptions withSettings(Map<String, ?> settings) {
        Assert.notNull(settings, "settings must not be null");
        Builder b = toBuilder();
        settings.forEach((name, value) -> {
            Assert.hasText(name, "setting name must not be empty");
            Assert.notNull(value, () -> "value of setting '" + name + "' must not be null");
            b.settings.put(name, String.valueOf(value));
        });
        return new CallOptions(b);
    }

    CallOptions withParam(String sql, String name, @Nullable Object value) {
        Assert.hasText(name, "parameter name must not be empty");
        Builder b = toBuilder();
        b.params.put(name, prepare(sql, name, value));
        return new CallOptions(b);
    }

    CallOptions withParams(String sql, Map<String, ?> params) {
        Assert.notNull(params, "params must not be null");
        Builder b = toBuilder();
        params.forEach((name, value) -> {
            Assert.hasText(name, "parameter name must not be empty");
            b.params.put(name, prepare(sql, name, value));
        });
        return new CallOptions(b);
    }

    private static @Nullable Object prepare(String sql, String name, @Nullable Object value) {
        try {
            return QueryParameterValues.prepare(value);
        }
        catch (IllegalArgumentException ex) {
            throw new InvalidDataAccessApiUsageException(
                    "Query parameter '" + name + "': " + ex.getMessage() + ": [" + QueryMasking.mask(sql) + "]", ex);
        }
    }

    CallOptions withQueryId(String queryId) {
        Assert.hasText(queryId, "queryId must not be empty");
        Builder b = toBuilder();
        b.queryId = queryId;
        return new CallOptions(b);
    }

    CallOptions withTimeout(Duration timeout, boolean onServerToo) {
        Assert.notNull(timeout, "timeout must not be null");
        Assert.isTrue(!timeout.isNegative() && !timeout.isZero(), () -> "timeout must be positive: " + timeout);
        Builder b = toBuilder();
        b.timeout = timeout;
        b.serverTimeout = onServerToo;
        return new CallOptions(b);
    }

    CallOptions withListener(QueryListener listener) {
        Assert.notNull(listener, "listener must not be null");
        Builder b = toBuilder();
        b.listener = listener;
        return new CallOptions(b);
    }

    CallOptions withDatabase(String database) {
        Assert.hasText(database, "database must not be empty");
        Builder b = toBuilder();
        b.database = database;
        return new CallOptions(b);
    }

    CallOptions withCompression(Compression compression) {
        Assert.notNull(compression, "compression must not be null");
        Builder b = toBuilder();
        b.compression = compression;
        return new CallOptions(b);
    }

    CallOptions withQuotaKey(String quotaKey) {
        Assert.notNull(quotaKey, "quotaKey must not be null");
        Builder b = toBuilder();
        b.quotaKey = quotaKey;
        return new CallOptions(b);
    }

    CallOptions withTraceContext(TraceContext traceContext) {
        Assert.notNull(traceContext, "traceContext must not be null");
        Builder b = toBuilder();
        b.traceContext = traceContext;
        return new CallOptions(b);
    }

    CallOptions withExternalTable(ExternalTable table) {
        Assert.notNull(table, "table must not be null");
        Builder b = toBuilder();
        b.externalTables.add(table);
        return new CallOptions(b);
    }

    CallOptions withMaxRowsPerBlock(int rows) {
        Assert.isTrue(rows >= 1, "maxRowsPerBlock must be at least 1");
        Builder b = toBuilder();
        b.maxRowsPerBlock = rows;
        return new CallOptions(b);
    }

    CallOptions withDeduplicationToken(String token) {
        Assert.hasText(token, "deduplication token must not be empty");
        Builder b = toBuilder();
        b.deduplicationToken = token;
        return new CallOptions(b);
    }

    CallOptions withTokenPerBlock(boolean on) {
        Builder b = toBuilder();
        b.tokenPerBlock = on;
        return new CallOptions(b);
    }

    CallOptions withAsyncInsert(boolean on, boolean waitForInsert) {
        Builder b = toBuilder();
        b.asyncInsert = on;
        b.waitForAsyncInsert = waitForInsert;
        return new CallOptions(b);
    }

    CallOptions withMaxAttempts(int attempts) {
        Assert.isTrue(attempts >= 1, "maxAttempts must be at least 1");
        Builder b = toBuilder();
        b.maxAttempts = attempts;
        return new CallOptions(b);
    }

    // ------------------------------------------------------------------ reading

    /** Names of the settings set on this call. */
    java.util.Set<String> settingNames() {
        return this.settings.keySet();
    }

    /** Names of the parameters set on this call. */
    java.util.Set<String> paramNames() {
        return this.params.keySet();
    }

    /**
     * The query_id to send: the one set, else a new random one.
     * @param forInsert whether for an insert, which keeps no generated query_id when the client may retry it
     * @return the query_id, or {@code null} to let the client generate one per attempt
     */
    @Nullable String resolveQueryId(boolean forInsert) {
        if (this.queryId != null) {
            return this.queryId;
        }
        if (forInsert && this.maxAttempts > 1) {
            return null; // each attempt of a retried insert gets its own
        }
        return UUID.randomUUID().toString();
    }

    /**
     * The client's query options.
     * @param queryId the query_id to send, or {@code null}
     * @return the options
     * @throws InvalidDataAccessApiUsageException if a parameter value cannot be rendered
     */
    QueryOptions toQueryOptions(@Nullable String queryId) {
        if (queryId == null && this == NONE) {
            return QueryOptions.DEFAULT;
        }
        QueryOptions.Builder b = QueryOptions.builder();
        if (queryId != null) {
            b.queryId(queryId);
        }
        b.settings(this.settings);
        this.params.forEach((name, value) -> {
            try {
                b.parameter(name, value);
            }
            catch (IllegalArgumentException ex) {
                throw new InvalidDataAccessApiUsageException("Query parameter '" + name + "': " + ex.getMessage(), ex);
            }
        });
        if (this.timeout != null) {
            if (this.serverTimeout) {
                b.timeoutOnServerToo(this.timeout);
            }
            else {
                b.timeout(this.timeout);
            }
        }
        if (this.listener != null) {
            b.listener(this.listener);
        }
        if (this.database != null) {
            b.database(this.database);
        }
        if (this.compression != null) {
            b.compression(this.compression);
        }
        if (this.quotaKey != null) {
            b.quotaKey(this.quotaKey);
        }
        if (this.traceContext != null) {
            b.traceContext(this.traceContext);
        }
        this.externalTables.forEach(b::externalTable);
        return b.build();
    }

    /**
     * The client's insert options.
     * @param queryId the query_id to send, or {@code null}
     * @return the options
     * @throws InvalidDataAccessApiUsageException if the insert options contradict each other (for example
     * {@code tokenPerBlock} without a deduplication token)
     */
    InsertOptions toInsertOptions(@Nullable String queryId) {
        try {
            InsertOptions.Builder b = InsertOptions.builder().queryOptions(toQueryOptions(queryId));
            if (this.maxRowsPerBlock > 0) {
                b.maxRowsPerBlock(this.maxRowsPerBlock);
            }
            if (this.deduplicationToken != null) {
                b.deduplicationToken(this.deduplicationToken);
            }
            b.tokenPerBlock(this.tokenPerBlock);
            if (this.asyncInsert != null) {
                b.asyncInsert(this.asyncInsert, this.waitForAsyncInsert);
            }
            b.maxAttempts(this.maxAttempts);
            return b.build();
        }
        catch (IllegalArgumentException ex) {
            throw new InvalidDataAccessApiUsageException("Invalid insert options: " + ex.getMessage(), ex);
        }
    }

    @Override
    public String toString() {
        return "settings=" + this.settings + ", params=" + this.params.keySet() + ", queryId=" + this.queryId
                + ", timeout=" + this.timeout + (this.serverTimeout ? " (on the server too)" : "")
                + ", externalTables=" + this.externalTables.size();
    }

    /** Mutable state while one copy is made. */
    private static final class Builder {

        private final Map<String, String> settings = new LinkedHashMap<>();

        private final Map<String, @Nullable Object> params = new LinkedHashMap<>();

        private @Nullable String queryId;

        private @Nullable Duration timeout;

        private boolean serverTimeout;

        private @Nullable QueryListener listener;

        private @Nullable String database;

        private @Nullable Compression compression;

        private @Nullable String quotaKey;

        private @Nullable TraceContext traceContext;

        private final List<ExternalTable> externalTables = new ArrayList<>();

        private int maxRowsPerBlock;

        private @Nullable String deduplicationToken;

        private boolean tokenPerBlock;

        private @Nullable Boolean asyncInsert;

        private boolean waitForAsyncInsert = true;

        private int maxAttempts = 1;
    }
}
