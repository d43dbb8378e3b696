package dev.clickhousetcp.jdbc.liquibase;

import liquibase.database.Database;
import liquibase.statement.core.CreateDatabaseChangeLogLockTableStatement;

/**
 * {@code DATABASECHANGELOGLOCK} on {@link ClickHouseTcpDatabase}: a MergeTree table ordered by {@code ID}
 * ({@code ID Int32, LOCKED Bool, LOCKGRANTED Nullable(DateTime64(3)), LOCKEDBY Nullable(String)}).
 * Stateless.
 */
public class ClickHouseChangeLogLockTableGenerator
        extends LiquibaseTableGenerator<CreateDatabaseChangeLogLockTableStatement> {
    /** A generator for Liquibase's service loader. */
    public ClickHouseChangeLogLockTableGenerator() {
        super(Database::getDatabaseChangeLogLockTableName, "(ID Int32, LOCKED Bool,"
                + " LOCKGRANTED Nullable(DateTime64(3)), LOCKEDBY Nullable(String)) ENGINE = MergeTree ORDER BY ID");
    }
}
