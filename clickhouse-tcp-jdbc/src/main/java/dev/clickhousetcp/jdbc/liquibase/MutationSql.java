package dev.clickhousetcp.jdbc.liquibase;

import liquibase.sql.Sql;
import liquibase.sql.UnparsedSql;
import liquibase.structure.DatabaseObject;

import java.util.function.UnaryOperator;

/** The SQL forms Liquibase's own statements take on ClickHouse. */
final class MutationSql {
    /** Makes {@code ALTER TABLE ... UPDATE/DELETE} return once the mutation is done on this replica. */
    static final String WAIT = " SETTINGS mutations_sync = 1";

    private MutationSql() {
    }

    /**
     * {@code UPDATE t SET a = 1 WHERE p} (Liquibase's standard form) as the mutation
     * {@code ALTER TABLE t UPDATE a = 1 WHERE p SETTINGS mutations_sync = 1}; ClickHouse requires the
     * WHERE clause, so an update of every row gets {@code WHERE 1}.
     *
     * @param update the standard SQL, starting {@code UPDATE <escapedTable> SET }
     * @param escapedTable the table as the database object escapes it
     * @throws IllegalArgumentException when {@code update} does not have that shape
     */
    static String alterUpdate(String update, String escapedTable) {
        String prefix = "UPDATE " + escapedTable + " SET ";
        if (!update.startsWith(prefix)) {
            throw new IllegalArgumentException("not an UPDATE of " + escapedTable + ": " + update);
        }
        String rest = update.substring(prefix.length());
        return "ALTER TABLE " + escapedTable + " UPDATE " + rest + (rest.contains(" WHERE ") ? "" : " WHERE 1") + WAIT;
    }

    /**
     * {@code DELETE FROM t [WHERE p]} as a lightweight DELETE, which ClickHouse accepts only with a WHERE
     * clause: {@code WHERE 1} is added when there is none.
     *
     * @param delete the standard SQL, starting {@code DELETE FROM <escapedTable>}
     * @param escapedTable the table as the database object escapes it
     * @throws IllegalArgumentException when {@code delete} does not have that shape
     */
    static String delete(String delete, String escapedTable) {
        String prefix = "DELETE FROM " + escapedTable;
        if (!delete.startsWith(prefix) || !(delete.length() == prefix.length() || delete.charAt(prefix.length()) == ' ')) {
            throw new IllegalArgumentException("not a DELETE from " + escapedTable + ": " + delete);
        }
        return delete.contains(" WHERE ") ? delete : delete + " WHERE 1";
    }

    /** Each of Liquibase's standard {@code sql} rewritten by {@code rewrite}, affecting {@code table}. */
    static Sql[] rewrite(Sql[] sql, UnaryOperator<String> rewrite, DatabaseObject table) {
        Sql[] out = new Sql[sql.length];
        for (int i = 0; i < sql.length; i++) {
            out[i] = new UnparsedSql(rewrite.apply(sql[i].toSql()), table);
        }
        return out;
    }
}
