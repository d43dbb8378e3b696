package dev.clickhousetcp.spring.core;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.clickhousetcp.client.Compression;
import dev.clickhousetcp.client.QueryListener;
import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.protocol.TraceContext;
import dev.clickhousetcp.spring.core.ClickHouseTcpOperations.InsertSpec;

/**
 * The {@link InsertSpec} of {@link ClickHouseTcpTemplate}: the table and immutable {@link CallOptions}; every
 * option method returns a new spec. Thread-safe.
 */
final class DefaultInsertSpec implements InsertSpec {

    private final ClickHouseTcpTemplate template;

    private final String table;

    private final CallOptions options;

    DefaultInsertSpec(ClickHouseTcpTemplate template, String table, CallOptions options) {
        this.template = template;
        this.table = table;
        this.options = options;
    }

    private InsertSpec with(CallOptions changed) {
        return new DefaultInsertSpec(this.template, this.table, changed);
    }

    @Override
    public InsertSpec setting(String name, Object value) {
        return with(this.options.withSetting(name, value));
    }

    @Override
    public InsertSpec settings(Map<String, ?> settings) {
        return with(this.options.withSettings(settings));
    }

    @Override
    public InsertSpec queryId(String queryId) {
        return with(this.options.withQueryId(queryId));
    }

    @Override
    public InsertSpec timeout(Duration timeout) {
        return with(this.options.withTimeout(timeout, false));
    }

    @Override
    public InsertSpec timeoutOnServerToo(Duration timeout) {
        return with(this.options.withTimeout(timeout, true));
    }

    @Override
    public InsertSpec listener(QueryListener listener) {
        return with(this.options.withListener(listener));
    }

    @Override
    public InsertSpec database(String database) {
        return with(this.options.withDatabase(database));
    }

    @Override
    public InsertSpec compression(Compression compression) {
        return with(this.options.withCompression(compression));
    }

    @Override
    public InsertSpec quotaKey(String quotaKey) {
        return with(this.options.withQuotaKey(quotaKey));
    }

    @Override
    public InsertSpec traceContext(TraceContext traceContext) {
        return with(this.options.withTraceContext(traceContext));
    }

    @Override
    public InsertSpec maxRowsPerBlock(int rows) {
        return with(this.options.withMaxRowsPerBlock(rows));
    }

    @Override
    public InsertSpec deduplicationToken(String token) {
        return with(this.options.withDeduplicationToken(token));
    }

    @Override
    public InsertSpec tokenPerBlock(boolean on) {
        return with(this.options.withTokenPerBlock(on));
    }

    @Override
    public InsertSpec asyncInsert(boolean on, boolean waitForInsert) {
        return with(this.options.withAsyncInsert(on, waitForInsert));
    }

    @Override
    public InsertSpec maxAttempts(int attempts) {
        return with(this.options.withMaxAttempts(attempts));
    }

    @Override
    public <T> long insert(Collection<T> rows) {
        return this.template.insert(this.table, this.options, rows);
    }

    @Override
    public <T> long insert(Stream<T> rows) {
        return this.template.insert(this.table, this.options, rows);
    }

    @Override
    public long insert(List<String> columns, Iterable<Object[]> rows) {
        return this.template.insert(this.table, this.options, columns, rows);
    }

    @Override
    public long insertColumns(Map<String, ?> columns) {
        return this.template.insertColumns(this.table, this.options, columns);
    }

    @Override
    public long insertBlocks(Iterable<Block> blocks) {
        return this.template.insertBlocks(this.table, this.options, blocks);
    }

    @Override
    public String toString() {
        return "InsertSpec[" + this.table + "; " + this.options + "]";
    }
}
