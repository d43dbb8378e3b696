package dev.clickhousetcp.spring.core;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import dev.clickhousetcp.client.Compression;
import dev.clickhousetcp.client.ExternalTable;
import dev.clickhousetcp.client.QueryListener;
import dev.clickhousetcp.client.RowMapper;
import dev.clickhousetcp.observe.QueryMasking;
import dev.clickhousetcp.protocol.Progress;
import dev.clickhousetcp.protocol.TraceContext;
import dev.clickhousetcp.spring.core.ClickHouseTcpOperations.StatementSpec;

import org.jspecify.annotations.Nullable;

/**
 * The {@link StatementSpec} of {@link ClickHouseTcpTemplate}: the SQL and immutable {@link CallOptions}; every
 * option method returns a new spec. Thread-safe.
 */
final class DefaultStatementSpec implements StatementSpec {

    private final ClickHouseTcpTemplate template;

    private final String sql;

    private final CallOptions options;

    DefaultStatementSpec(ClickHouseTcpTemplate template, String sql, CallOptions options) {
        this.template = template;
        this.sql = sql;
        this.options = options;
    }

    private StatementSpec with(CallOptions changed) {
        return new DefaultStatementSpec(this.template, this.sql, changed);
    }

    @Override
    public StatementSpec setting(String name, Object value) {
        return with(this.options.withSetting(name, value));
    }

    @Override
    public StatementSpec settings(Map<String, ?> settings) {
        return with(this.options.withSettings(settings));
    }

    @Override
    public StatementSpec queryId(String queryId) {
        return with(this.options.withQueryId(queryId));
    }

    @Override
    public StatementSpec timeout(Duration timeout) {
        return with(this.options.withTimeout(timeout, false));
    }

    @Override
    public StatementSpec timeoutOnServerToo(Duration timeout) {
        return with(this.options.withTimeout(timeout, true));
    }

    @Override
    public StatementSpec listener(QueryListener listener) {
        return with(this.options.withListener(listener));
    }

    @Override
    public StatementSpec database(String database) {
        return with(this.options.withDatabase(database));
    }

    @Override
    public StatementSpec compression(Compression compression) {
        return with(this.options.withCompression(compression));
    }

    @Override
    public StatementSpec quotaKey(String quotaKey) {
        return with(this.options.withQuotaKey(quotaKey));
    }

    @Override
    public StatementSpec traceContext(TraceContext traceContext) {
        return with(this.options.withTraceContext(traceContext));
    }

    @Override
    public StatementSpec param(String name, @Nullable Object value) {
        return with(this.options.withParam(this.sql, name, value));
    }

    @Override
    public StatementSpec params(Map<String, ?> params) {
        return with(this.options.withParams(this.sql, params));
    }

    @Override
    public StatementSpec externalTable(ExternalTable table) {
        return with(this.options.withExternalTable(table));
    }

    @Override
    public Progress execute() {
        return this.template.execute(this.sql, this.options);
    }

    @Override
    public <T> List<T> query(Class<T> type) {
        return this.template.query(this.sql, this.options, type);
    }

    @Override
    public <T> List<T> query(RowMapper<T> rowMapper) {
        return this.template.query(this.sql, this.options, rowMapper);
    }

    @Override
    public List<Map<String, @Nullable Object>> queryForList() {
        return this.template.queryForList(this.sql, this.options);
    }

    @Override
    public <T> List<T> queryForList(Class<T> elementType) {
        return this.template.query(this.sql, this.options, elementType);
    }

    @Override
    public <T> @Nullable T queryForObject(Class<T> requiredType) {
        return this.template.queryForObject(this.sql, this.options, requiredType);
    }

    @Override
    public <T> @Nullable T queryForObject(RowMapper<T> rowMapper) {
        return this.template.queryForObject(this.sql, this.options, rowMapper);
    }

    @Override
    public <T> long forEach(Class<T> type, Consumer<? super T> action) {
        return this.template.forEach(this.sql, this.options, type, action);
    }

    @Override
    public <T> Stream<T> stream(Class<T> type) {
        return this.template.stream(this.sql, this.options, type);
    }

    @Override
    public long forEachRow(Consumer<? super Object[]> action) {
        return this.template.forEachRow(this.sql, this.options, action);
    }

    @Override
    public Stream<Object[]> streamRows() {
        return this.template.streamRows(this.sql, this.options);
    }

    @Override
    public QuerySummary queryBlocks(BlockCallback callback) {
        return this.template.queryBlocks(this.sql, this.options, callback);
    }

    @Override
    public String toString() {
        return "StatementSpec[" + QueryMasking.mask(this.sql) + "; " + this.options + "]";
    }
}
