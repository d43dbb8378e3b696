package dev.clickhousetcp.jdbc.liquibase;

import liquibase.database.Database;
import liquibase.statement.core.CreateDatabaseChangeLogTableStatement;

/**
 * {@code DATABASECHANGELOG} on {@link ClickHouseTcpDatabase}: a MergeTree table ordered by the changeset's
 * identity, with Liquibase's columns in ClickHouse types ({@code DATEEXECUTED DateTime64(3)}, the
 * optional columns Nullable). Stateless.
 */
public class ClickHouseChangeLogTableGenerator extends LiquibaseTableGenerator<CreateDatabaseChangeLogTableStatement> {
    /** A generator for Liquibase's service loader. */
    public ClickHouseChangeLogTableGenerator() {
        super(Database::getDatabaseChangeLogTableName, "(ID String, AUTHOR String, FILENAME String,"
                + " DATEEXECUTED DateTime64(3), ORDEREXECUTED Int32, EXECTYPE String, MD5SUM Nullable(String),"
                + " DESCRIPTION Nullable(String), COMMENTS Nullable(String), TAG Nullable(String),"
                + " LIQUIBASE Nullable(String), CONTEXTS Nullable(String), LABELS Nullable(String),"
                + " DEPLOYMENT_ID Nullable(String)) ENGINE = MergeTree ORDER BY (ID, AUTHOR, FILENAME)");
    }
}
