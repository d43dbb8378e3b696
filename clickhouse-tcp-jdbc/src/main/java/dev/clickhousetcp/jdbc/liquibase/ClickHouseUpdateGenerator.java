package dev.clickhousetcp.jdbc.liquibase;

import liquibase.database.Database;
import liquibase.sql.Sql;
import liquibase.sqlgenerator.SqlGeneratorChain;
import liquibase.sqlgenerator.core.UpdateGenerator;
import liquibase.statement.core.UpdateStatement;

/**
 * Liquibase's UPDATE statements (its lock, checksums, re-run changesets, tags) as mutations on
 * {@link ClickHouseTcpDatabase}: {@code ALTER TABLE ... UPDATE ... SETTINGS mutations_sync = 1}, since
 * ClickHouse's lightweight {@code UPDATE} needs table settings Liquibase's tables do not have. Stateless.
 */
public class ClickHouseUpdateGenerator extends UpdateGenerator {
    /** A generator for Liquibase's service loader. */
    public ClickHouseUpdateGenerator() {
    }

    @Override
    public int getPriority() {
        return PRIORITY_DATABASE;
    }

    @Override
    public boolean supports(UpdateStatement statement, Database database) {
        return database instanceof ClickHouseTcpDatabase;
    }

    @Override
    public Sql[] generateSql(UpdateStatement statement, Database database, SqlGeneratorChain chain) {
        String table = database.escapeTableName(statement.getCatalogName(), statement.getSchemaName(),
                statement.getTableName());
        return MutationSql.rewrite(super.generateSql(statement, database, chain),
                sql -> MutationSql.alterUpdate(sql, table), getAffectedTable(statement));
    }
}
