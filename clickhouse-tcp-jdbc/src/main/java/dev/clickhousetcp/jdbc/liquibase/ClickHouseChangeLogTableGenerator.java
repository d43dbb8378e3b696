package dev.clickhousetcp.jdbc.liquibase;

import liquibase.database.Database;
import liquibase.exception.ValidationErrors;
import liquibase.sql.Sql;
import liquibase.sql.UnparsedSql;
import liquibase.sqlgenerator.SqlGeneratorChain;
import liquibase.sqlgenerator.core.AbstractSqlGenerator;
import liquibase.statement.core.CreateDatabaseChangeLogTableStatement;
import liquibase.structure.core.Relation;
import liquibase.structure.core.Table;

/**
 * {@code DATABASECHANGELOG} on {@link ClickHouseTcpDatabase}: a MergeTree table ordered by the changeset's
 * identity, with Liquibase's columns in ClickHouse types ({@code DATEEXECUTED DateTime64(3)}, the
 * optional columns Nullable). Stateless.
 */
public class ClickHouseChangeLogTableGenerator extends AbstractSqlGenerator<CreateDatabaseChangeLogTableStatement> {
    /** A generator for Liquibase's service loader. */
    public ClickHouseChangeLogTableGenerator() {
    }

    @Override
    public int getPriority() {
        return PRIORITY_DATABASE;
    }

    @Override
    public boolean supports(CreateDatabaseChangeLogTableStatement statement, Database database) {
        return database instanceof ClickHouseTcpDatabase;
    }

    @Override
    public ValidationErrors validate(CreateDatabaseChangeLogTableStatement statement, Database database,
            SqlGeneratorChain<CreateDatabaseChangeLogTableStatement> chain) {
        return new ValidationErrors();
    }

    @Override
    public Sql[] generateSql(CreateDatabaseChangeLogTableStatement statement, Database database,
            SqlGeneratorChain<CreateDatabaseChangeLogTableStatement> chain) {
        Relation table = new Table().setName(database.getDatabaseChangeLogTableName());
        String name = database.escapeTableName(database.getLiquibaseCatalogName(), database.getLiquibaseSchemaName(),
                database.getDatabaseChangeLogTableName());
        return new Sql[] {new UnparsedSql("CREATE TABLE IF NOT EXISTS " + name + " (ID String, AUTHOR String,"
                + " FILENAME String, DATEEXECUTED DateTime64(3), ORDEREXECUTED Int32, EXECTYPE String,"
                + " MD5SUM Nullable(String), DESCRIPTION Nullable(String), COMMENTS Nullable(String),"
                + " TAG Nullable(String), LIQUIBASE Nullable(String), CONTEXTS Nullable(String),"
                + " LABELS Nullable(String), DEPLOYMENT_ID Nullable(String))"
                + " ENGINE = MergeTree ORDER BY (ID, AUTHOR, FILENAME)", table)};
    }
}
