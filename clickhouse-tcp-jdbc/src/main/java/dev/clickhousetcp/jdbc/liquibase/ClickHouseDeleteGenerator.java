package dev.clickhousetcp.jdbc.liquibase;

import liquibase.database.Database;
import liquibase.sql.Sql;
import liquibase.sqlgenerator.SqlGeneratorChain;
import liquibase.sqlgenerator.core.DeleteGenerator;
import liquibase.statement.core.DeleteStatement;

/**
 * Liquibase's DELETE statements on {@link ClickHouseTcpDatabase} as lightweight DELETEs (ClickHouse 23.3
 * and later on MergeTree tables), with {@code WHERE 1} where Liquibase deletes every row, since
 * ClickHouse requires a WHERE clause. Stateless.
 */
public class ClickHouseDeleteGenerator extends DeleteGenerator {
    /** A generator for Liquibase's service loader. */
    public ClickHouseDeleteGenerator() {
    }

    @Override
    public int getPriority() {
        return PRIORITY_DATABASE;
    }

    @Override
    public boolean supports(DeleteStatement statement, Database database) {
        return database instanceof ClickHouseTcpDatabase;
    }

    @Override
    public Sql[] generateSql(DeleteStatement statement, Database database, SqlGeneratorChain chain) {
        String table = database.escapeTableName(statement.getCatalogName(), statement.getSchemaName(),
                statement.getTableName());
        return MutationSql.rewrite(super.generateSql(statement, database, chain),
                sql -> MutationSql.delete(sql, table), getAffectedTable(statement));
    }
}
