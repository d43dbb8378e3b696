package dev.clickhousetcp.client;

import java.util.Objects;

/**
 * Options of one insert: the query options it runs with, the rows per wire block, insert
 * deduplication and asynchronous inserts. Immutable; build with {@link #builder()}.
 *
 * <h2>Deduplication and safe retries</h2>
 * {@link Builder#deduplicationToken(String)} sends the setting {@code insert_deduplication_token}:
 * the server derives one token per part it writes from it, and skips a part whose token it has
 * seen. With {@link Builder#tokenPerBlock(boolean) tokenPerBlock(true)} (safe-retry mode) every wire
 * block of {@code maxRowsPerBlock} rows is sent as its own INSERT with the token
 * {@code <token>-<block index>}, and committed before the next is sent. Retrying a failed insert from
 * the start with the same rows in the same order, the same token and the same block size then
 * neither loses nor duplicates rows: blocks the server already has are skipped, the rest written.
 * {@link Builder#maxAttempts(int)} retries automatically (for re-iterable sources) after a
 * connection failure or timeout. A query timeout ({@code QueryOptions.timeout}) bounds one attempt
 * as a whole, all the INSERTs of its blocks together; each attempt has its own.
 *
 * <p>Deduplication needs a table that keeps block tokens: a {@code Replicated*MergeTree} table
 * (setting {@code replicated_deduplication_window}, on by default) or a {@code MergeTree} table
 * created with {@code SETTINGS non_replicated_deduplication_window = N}, N at least the number of
 * blocks one insert can have (e.g. 1000). The token setting needs ClickHouse 22.2 or newer, and
 * {@code insert_deduplicate} must stay 1 (the default). Tokens are remembered only for the last N
 * blocks, so retry soon.
 */
public final class InsertOptions {
    /** Client defaults: no token, the client's block size, synchronous insert, one attempt. */
    public static final InsertOptions DEFAULT = builder().build();

    private final QueryOptions queryOptions;
    private final int maxRowsPerBlock;
    private final String deduplicationToken;
    private final boolean tokenPerBlock;
    private final Boolean asyncInsert;
    private final boolean waitForAsyncInsert;
    private final int maxAttempts;

    private InsertOptions(Builder b) {
        this.queryOptions = b.queryOptions;
        this.maxRowsPerBlock = b.maxRowsPerBlock;
        this.deduplicationToken = b.deduplicationToken;
        this.tokenPerBlock = b.tokenPerBlock;
        this.asyncInsert = b.asyncInsert;
        this.waitForAsyncInsert = b.waitForAsyncInsert;
        this.maxAttempts = b.maxAttempts;
        if (tokenPerBlock && deduplicationToken == null) {
            throw new IllegalArgumentException("tokenPerBlock needs a deduplicationToken");
        }
        if (maxAttempts > 1 && deduplicationToken == null) {
            throw new IllegalArgumentException("retrying an insert without a deduplicationToken could duplicate rows");
        }
    }

    /**
     * A builder with the defaults of {@link #DEFAULT}.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The base query options (settings, query_id, listener, timeout).
     *
     * @return the options every INSERT of the call starts from; never {@code null}
     */
    public QueryOptions queryOptions() {
        return queryOptions;
    }

    /**
     * Rows per wire block, or 0 for the client's {@code insertBlockRows}.
     *
     * @return the block size in rows, or 0
     */
    public int maxRowsPerBlock() {
        return maxRowsPerBlock;
    }

    /**
     * The deduplication token, or {@code null}.
     *
     * @return the {@code insert_deduplication_token} of the insert (the prefix of per-block tokens), or {@code null}
     */
    public String deduplicationToken() {
        return deduplicationToken;
    }

    /**
     * Whether every block is its own INSERT with token {@code <token>-<block index>}.
     *
     * @return {@code true} in safe-retry mode
     */
    public boolean tokenPerBlock() {
        return tokenPerBlock;
    }

    /**
     * {@code async_insert}: {@code null} leaves the server's setting.
     *
     * @return the value sent as {@code async_insert}, or {@code null} to send none
     */
    public Boolean asyncInsert() {
        return asyncInsert;
    }

    /**
     * {@code wait_for_async_insert} when async insert is on.
     *
     * @return whether the INSERT waits until the server flushed the asynchronous insert buffer (default {@code true})
     */
    public boolean waitForAsyncInsert() {
        return waitForAsyncInsert;
    }

    /**
     * Attempts for re-iterable sources (1 = no retry).
     *
     * @return the total number of attempts, at least 1
     */
    public int maxAttempts() {
        return maxAttempts;
    }

    /** The query options of the INSERT sending block {@code blockIndex} (or the whole insert for -1). */
    QueryOptions forBlock(long blockIndex) {
        if (deduplicationToken == null && asyncInsert == null) {
            return queryOptions;
        }
        QueryOptions.Builder b = queryOptions.toBuilder();
        if (deduplicationToken != null) {
            b.setting("insert_deduplication_token", blockIndex < 0 ? deduplicationToken
                    : deduplicationToken + "-" + blockIndex);
        }
        if (asyncInsert != null) {
            b.setting("async_insert", asyncInsert ? 1 : 0);
            if (asyncInsert) {
                b.setting("wait_for_async_insert", waitForAsyncInsert ? 1 : 0);
            }
        }
        return b.build();
    }

    /** Builder; not thread-safe. */
    public static final class Builder {
        private QueryOptions queryOptions = QueryOptions.DEFAULT;
        private int maxRowsPerBlock;
        private String deduplicationToken;
        private boolean tokenPerBlock;
        private Boolean asyncInsert;
        private boolean waitForAsyncInsert = true;
        private int maxAttempts = 1;

        /**
         * The query options each INSERT of the insert runs with (settings, query_id, timeout, listener).
         *
         * @param options the options; not {@code null}
         * @return this builder
         */
        public Builder queryOptions(QueryOptions options) {
            this.queryOptions = Objects.requireNonNull(options, "options");
            return this;
        }

        /**
         * Rows per wire block (default: the client's {@code insertBlockRows}, 65 536).
         *
         * @param rows at least 1; keep it the same when retrying with a deduplication token
         * @return this builder
         * @throws IllegalArgumentException when {@code rows} is below 1
         */
        public Builder maxRowsPerBlock(int rows) {
            if (rows < 1) {
                throw new IllegalArgumentException("maxRowsPerBlock must be at least 1");
            }
            this.maxRowsPerBlock = rows;
            return this;
        }

        /**
         * Sets {@code insert_deduplication_token} (see the class documentation).
         *
         * @param token the token; {@code null} or empty for none
         * @return this builder
         */
        public Builder deduplicationToken(String token) {
            this.deduplicationToken = token == null || token.isEmpty() ? null : token;
            return this;
        }

        /**
         * Safe-retry mode: one INSERT per block with token {@code <token>-<index>} (see the class documentation).
         *
         * @param on {@code true} for safe-retry mode; needs a deduplication token, checked by {@link #build()}
         * @return this builder
         */
        public Builder tokenPerBlock(boolean on) {
            this.tokenPerBlock = on;
            return this;
        }

        /**
         * Sends {@code async_insert} (and {@code wait_for_async_insert = 1 or 0}).
         *
         * @param on            the value of {@code async_insert}
         * @param waitForInsert the value of {@code wait_for_async_insert}, sent only when {@code on} is
         *                      {@code true}: {@code false} returns once the server buffered the rows
         * @return this builder
         */
        public Builder asyncInsert(boolean on, boolean waitForInsert) {
            this.asyncInsert = on;
            this.waitForAsyncInsert = waitForInsert;
            return this;
        }

        /**
         * Total attempts for a re-iterable source after connection failures and timeouts (default 1);
         * more than one needs a deduplication token. Server errors are not retried, nor is an insert whose
         * thread was interrupted.
         *
         * @param attempts at least 1
         * @return this builder
         * @throws IllegalArgumentException when {@code attempts} is below 1
         */
        public Builder maxAttempts(int attempts) {
            if (attempts < 1) {
                throw new IllegalArgumentException("maxAttempts must be at least 1");
            }
            this.maxAttempts = attempts;
            return this;
        }

        /**
         * Builds the options.
         *
         * @return immutable insert options
         * @throws IllegalArgumentException when {@code tokenPerBlock} or {@code maxAttempts} above 1 is set
         *                                  without a deduplication token
         */
        public InsertOptions build() {
            return new InsertOptions(this);
        }
    }
}
