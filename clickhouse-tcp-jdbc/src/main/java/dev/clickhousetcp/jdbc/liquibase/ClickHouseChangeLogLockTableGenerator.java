package dev.clickhousetcp.jdbc.liquibase;

import liquibase.database.Database;
import liquibase.exception.ValidationErrors;
import liquibase.sql.Sql;
import liquibase.sql.UnparsedSql;
import liquibase.sqlgenerator.SqlGeneratorChain;
import liquibase.sqlgenerator.core.AbstractSqlGenerator;
import liquibase.statement.core.CreateDatabaseChangeLogLockTableStatement;
import liquibase.structure.core.Relation;
import liquibase.structure.core.Table;

/**
 * {@code DATABASECHANGELOGLOCK} on {@link ClickHouseTcpDatabase}: a MergeTree table ordered by {@code ID}
 * ({@code ID Int32, LOCKED Bool, LOCKGRANTED Nullable(DateTime64(3)), LOCKEDBY Nullable(String)}).
 * Stateless.
 */
public class ClickHouseChangeLogLockTableGenerator
        extends AbstractSqlGenerator<CreateDatabaseChangeLogLockTableStatement> {
    /** A generator for Liquibase's service loader. */
    public ClickHouseChangeLogLockTableGenerator() {
    }

    @Override
    public int getPriority() {
        return PRIORITY_DATABASE;
    }

    @Override
    public boolean supports(CreateDatabaseChangeLogLockTableStatement statement, Database database) {
        return database instanceof ClickHouseTcpDatabase;
    }

    @Override
    public ValidationErrors validate(CreateDatabaseChangeLogLockTableStatement statement, Database database,
            SqlGeneratorChain<CreateDatabaseChangeLogLockTableStatement> chain) {
        return new ValidationErrors();
    }

    @Override
    public Sql[] generateSql(CreateDatabaseChangeLogLockTableStatement statement, Database database,
            SqlGeneratorChain<CreateDatabaseChangeLogLockTableStatement> chain) {
        Relation table = new Table().setName(database.getDatabaseChangeLogLockTableName());
        String name = database.escapeTableName(database.getLiquibaseCatalogName(), database.getLiquibaseSchemaName(),
                database.getDatabaseChangeLogLockTableName());
        return new Sql[] {new UnparsedSql("CREATE TABLE IF NOT EXISTS " + name + " (ID Int32, LOCKED Bool,"
                + " LOCKGRANTED Nullable(DateTime64(3)), LOCKEDBY Nullable(String)) ENGINE = MergeTree ORDER BY ID",
                table)};
    }
}
