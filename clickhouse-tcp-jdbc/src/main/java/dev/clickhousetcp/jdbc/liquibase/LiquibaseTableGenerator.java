package dev.clickhousetcp.jdbc.liquibase;

import liquibase.database.Database;
import liquibase.exception.ValidationErrors;
import liquibase.sql.Sql;
import liquibase.sql.UnparsedSql;
import liquibase.sqlgenerator.SqlGeneratorChain;
import liquibase.sqlgenerator.core.AbstractSqlGenerator;
import liquibase.statement.SqlStatement;
import liquibase.structure.core.Table;

import java.util.function.Function;

/**
 * {@code CREATE TABLE IF NOT EXISTS} of one of Liquibase's own tables on {@link ClickHouseTcpDatabase}, in
 * Liquibase's catalog (the current database unless {@code liquibaseCatalogName} is set). Stateless.
 */
abstract class LiquibaseTableGenerator<T extends SqlStatement> extends AbstractSqlGenerator<T> {
    private final Function<Database, String> tableName;
    private final String definition;

    /**
     * @param tableName the table's name for a database object (as Liquibase configures it)
     * @param definition what follows the name: the columns and the engine clause
     */
    LiquibaseTableGenerator(Function<Database, String> tableName, String definition) {
        this.tableName = tableName;
        this.definition = definition;
    }

    @Override
    public int getPriority() {
        return PRIORITY_DATABASE;
    }

    @Override
    public boolean supports(T statement, Database database) {
        return database instanceof ClickHouseTcpDatabase;
    }

    @Override
    public ValidationErrors validate(T statement, Database database, SqlGeneratorChain<T> chain) {
        return new ValidationErrors();
    }

    @Override
    public Sql[] generateSql(T statement, Database database, SqlGeneratorChain<T> chain) {
        String name = tableName.apply(database);
        String escaped = database.escapeTableName(database.getLiquibaseCatalogName(),
                database.getLiquibaseSchemaName(), name);
        return new Sql[] {new UnparsedSql("CREATE TABLE IF NOT EXISTS " + escaped + " " + definition,
                new Table().setName(name))};
    }
}
