package dev.clickhousetcp.jdbc.springdata;

import org.springframework.data.jdbc.core.dialect.JdbcArrayColumns;
import org.springframework.data.jdbc.core.dialect.JdbcDialect;
import org.springframework.data.relational.core.dialect.AbstractDialect;
import org.springframework.data.relational.core.dialect.IdGeneration;
import org.springframework.data.relational.core.dialect.LimitClause;
import org.springframework.data.relational.core.dialect.LockClause;
import org.springframework.data.relational.core.sql.IdentifierProcessing;
import org.springframework.data.relational.core.sql.LockOptions;

/**
 * The Spring Data JDBC (4.0) dialect for ClickHouse over the {@code clickhouse-tcp-jdbc} driver.
 *
 * <ul>
 *   <li>{@link #limit()}: {@code LIMIT n}, {@code LIMIT n OFFSET m} after {@code ORDER BY}; an offset alone is
 *       written {@code LIMIT (Long.MAX_VALUE - m) OFFSET m}, because ClickHouse before 20.x (e.g. 18.16) knows no
 *       {@code OFFSET} without {@code LIMIT} and overflows on {@code LIMIT 18446744073709551615 OFFSET m}.</li>
 *   <li>{@link #lock()}: renders nothing. ClickHouse has no row locks (and no transactions to hold one); Spring Data
 *       asks for a lock itself (a {@code SELECT ... FOR UPDATE} of the root row) before it deletes an aggregate
 *       that has referenced entities, so failing there would make {@code deleteById} fail for such aggregates. A
 *       {@code @Lock} on a query method is therefore accepted and locks nothing.</li>
 *   <li>{@link #getIdentifierProcessing()}: back-tick quoting, names as written (ClickHouse identifiers are case
 *       sensitive); {@link ClickHouseDialectProvider} builds it from the connection's {@code DatabaseMetaData}.</li>
 *   <li>{@link #getIdGeneration()}: no generated keys and no sequences; IDs are assigned by the application (for
 *       example in a {@code BeforeConvertCallback}).</li>
 *   <li>{@link #getArraySupport()}: arrays through {@code Connection.createArrayOf} with the JDBC type names Spring
 *       Data passes ({@code VARCHAR}, {@code BIGINT}, {@code INTEGER}, {@code DOUBLE}, ...), which the driver maps
 *       to ClickHouse element types.</li>
 * </ul>
 *
 * <p>Immutable and thread-safe.
 */
public class ClickHouseDialect extends AbstractDialect implements JdbcDialect {

    /** ClickHouse's identifier quote and letter casing (as {@code ClickHouseDatabaseMetaData} reports them). */
    public static final ClickHouseDialect INSTANCE = new ClickHouseDialect(IdentifierProcessing.create(
            new IdentifierProcessing.Quoting("`"), IdentifierProcessing.LetterCasing.AS_IS));

    private static final LimitClause LIMIT = new LimitClause() {
        @Override
        public String getLimit(long limit) {
            return "LIMIT " + limit;
        }

        @Override
        public String getOffset(long offset) {
            return "LIMIT " + (Long.MAX_VALUE - offset) + " OFFSET " + offset;
        }

        @Override
        public String getLimitOffset(long limit, long offset) {
            return "LIMIT " + limit + " OFFSET " + offset;
        }

        @Override
        public Position getClausePosition() {
            return Position.AFTER_ORDER_BY;
        }
    };

    private static final LockClause NO_LOCK = new LockClause() {
        @Override
        public String getLock(LockOptions lockOptions) {
            return "";
        }

        @Override
        public Position getClausePosition() {
            return Position.AFTER_ORDER_BY;
        }
    };

    private static final IdGeneration APPLICATION_ASSIGNED = new IdGeneration() {
        @Override
        public boolean supportedForBatchOperations() {
            return false;
        }

        @Override
        public boolean sequencesSupported() {
            return false;
        }
    };

    private final IdentifierProcessing identifierProcessing;

    /**
     * A dialect with the given identifier processing.
     *
     * @param identifierProcessing how names are quoted and cased; not null
     */
    public ClickHouseDialect(IdentifierProcessing identifierProcessing) {
        if (identifierProcessing == null) {
            throw new IllegalArgumentException("identifierProcessing must not be null");
        }
        this.identifierProcessing = identifierProcessing;
    }

    @Override
    public LimitClause limit() {
        return LIMIT;
    }

    @Override
    public LockClause lock() {
        return NO_LOCK;
    }

    @Override
    public IdentifierProcessing getIdentifierProcessing() {
        return identifierProcessing;
    }

    @Override
    public IdGeneration getIdGeneration() {
        return APPLICATION_ASSIGNED;
    }

    @Override
    public JdbcArrayColumns getArraySupport() {
        return JdbcArrayColumns.DefaultSupport.INSTANCE;
    }
}
