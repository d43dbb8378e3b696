package dev.clickhousetcp.jdbc.liquibase;

import dev.clickhousetcp.jdbc.ClickHouseDriver;
import liquibase.database.AbstractJdbcDatabase;
import liquibase.database.DatabaseConnection;
import liquibase.database.jvm.JdbcConnection;
import liquibase.exception.DatabaseException;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.regex.Pattern;

/**
 * Liquibase's {@link liquibase.database.Database} for ClickHouse over this driver ({@code jdbc:clickhouse:tcp:}
 * and the other URL forms {@link ClickHouseDriver} accepts), registered through
 * {@code META-INF/services/liquibase.database.Database}; Liquibase finds it by itself when liquibase-core is on
 * the class path.
 *
 * <p>It claims a connection whose product name is {@code ClickHouse} and whose driver is this one
 * ({@code DatabaseMetaData.getDriverName()} = {@value ClickHouseDriver#NAME}), at a higher priority than
 * {@code liquibase-clickhouse}'s database, so both may be on the class path. A ClickHouse database is
 * Liquibase's catalog, whichever {@code databaseTerm} the connection uses: Liquibase's tables live in the
 * connection's current database unless {@code liquibaseCatalogName} says otherwise. There are no
 * schemas, sequences, tablespaces or transactions; Liquibase's own tables are MergeTree tables, its
 * UPDATEs are mutations waited for ({@code mutations_sync = 1}) and its lock is
 * {@link ClickHouseTcpLockService}. ON CLUSTER and replicated tables for Liquibase's own tables are not
 * offered.
 *
 * <p>Like every Liquibase database object, an instance belongs to one Liquibase run at a time.
 */
public class ClickHouseTcpDatabase extends AbstractJdbcDatabase {
    /** The product name ClickHouse reports, and Liquibase's name for it. */
    public static final String PRODUCT_NAME = "ClickHouse";
    private static final Pattern URL = Pattern.compile("^jdbc:(clickhouse|ch):tcps?://.*", Pattern.CASE_INSENSITIVE);
    /** The native protocol's default port (plain TCP). */
    private static final int DEFAULT_PORT = 9000;

    /** A database object for Liquibase's service loader. */
    public ClickHouseTcpDatabase() {
        super.setCurrentDateTimeFunction("now64(3)");
    }

    @Override
    public int getPriority() {
        return PRIORITY_DATABASE;
    }

    @Override
    public boolean isCorrectDatabaseImplementation(DatabaseConnection conn) throws DatabaseException {
        if (!PRODUCT_NAME.equals(conn.getDatabaseProductName())) {
            return false;
        }
        if (conn instanceof JdbcConnection jdbc) {
            try {
                return ClickHouseDriver.NAME.equals(jdbc.getUnderlyingConnection().getMetaData().getDriverName());
            } catch (SQLException e) {
                throw new DatabaseException(e);
            }
        }
        String url = conn.getURL();
        return url != null && URL.matcher(url).matches();
    }

    @Override
    public String getDefaultDriver(String url) {
        return url != null && URL.matcher(url).matches() ? ClickHouseDriver.class.getName() : null;
    }

    @Override
    protected String getDefaultDatabaseProductName() {
        return PRODUCT_NAME;
    }

    @Override
    public String getShortName() {
        return "clickhouse";
    }

    @Override
    public Integer getDefaultPort() {
        return DEFAULT_PORT;
    }

    @Override
    public boolean supportsInitiallyDeferrableColumns() {
        return false;
    }

    @Override
    public boolean supportsTablespaces() {
        return false;
    }

    @Override
    public boolean supportsSequences() {
        return false;
    }

    @Override
    public boolean supportsSchemas() {
        return false;
    }

    @Override
    public boolean supportsDDLInTransaction() {
        return false;
    }

    @Override
    public boolean supportsAutoIncrement() {
        return false;
    }

    @Override
    public boolean isCaseSensitive() {
        return true;
    }

    /**
     * The connection's current database: {@code getCatalog()} in {@code databaseTerm=catalog},
     * {@code getSchema()} in {@code databaseTerm=schema} (where {@code getCatalog()} is {@code null}).
     */
    @Override
    protected String getConnectionCatalogName() throws DatabaseException {
        DatabaseConnection conn = getConnection();
        if (!(conn instanceof JdbcConnection jdbc)) {
            return super.getConnectionCatalogName();
        }
        try {
            Connection c = jdbc.getUnderlyingConnection();
            String catalog = c.getCatalog();
            return catalog != null ? catalog : c.getSchema();
        } catch (SQLException e) {
            throw new DatabaseException(e);
        }
    }
}
