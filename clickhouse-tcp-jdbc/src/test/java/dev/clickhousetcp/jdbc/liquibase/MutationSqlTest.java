package dev.clickhousetcp.jdbc.liquibase;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Liquibase's standard UPDATE and DELETE text in ClickHouse's forms. */
class MutationSqlTest {
    @Test
    void anUpdateBecomesAMutationWaitedFor() {
        assertThat(MutationSql.alterUpdate("UPDATE db.T SET A = 1, B = 'x' WHERE ID = 1", "db.T"))
                .isEqualTo("ALTER TABLE db.T UPDATE A = 1, B = 'x' WHERE ID = 1 SETTINGS mutations_sync = 1");
        assertThat(MutationSql.alterUpdate("UPDATE T SET A = NULL", "T"))
                .isEqualTo("ALTER TABLE T UPDATE A = NULL WHERE 1 SETTINGS mutations_sync = 1");
        assertThatThrownBy(() -> MutationSql.alterUpdate("UPDATE other SET A = 1", "T"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("UPDATE other");
    }

    @Test
    void aDeleteOfEveryRowGetsAWhereClause() {
        assertThat(MutationSql.delete("DELETE FROM db.L", "db.L")).isEqualTo("DELETE FROM db.L WHERE 1");
        assertThat(MutationSql.delete("DELETE FROM db.L WHERE ID = 1", "db.L")).isEqualTo("DELETE FROM db.L WHERE ID = 1");
        assertThatThrownBy(() -> MutationSql.delete("DELETE FROM x", "db.L"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MutationSql.delete("DELETE FROM db.LX WHERE 1", "db.L"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
