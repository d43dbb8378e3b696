package dev.clickhousetcp.client;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The statements that change a connection's server session, told by their leading keywords. */
class SqlTextTest {

    @Test
    void sessionStatementsAreToldWhateverTheirSpelling() {
        assertThat(SqlText.sessionStatement("USE db")).isEqualTo("USE");
        assertThat(SqlText.sessionStatement("  /* c */ -- d\n use`db`")).isEqualTo("USE");
        assertThat(SqlText.sessionStatement("SET max_threads = 1, max_block_size = 7")).isEqualTo("SET");
        assertThat(SqlText.sessionStatement("set/**/x=1")).isEqualTo("SET");
        assertThat(SqlText.sessionStatement("SET param_p = 1")).isEqualTo("SET");
        assertThat(SqlText.sessionStatement("SET ROLE r1, r2")).isEqualTo("SET ROLE");
        assertThat(SqlText.sessionStatement("set /* c */ role NONE")).isEqualTo("SET ROLE");
        assertThat(SqlText.sessionStatement("SET TRANSACTION SNAPSHOT 5")).isEqualTo("SET TRANSACTION SNAPSHOT");
        assertThat(SqlText.sessionStatement("BEGIN TRANSACTION")).isEqualTo("BEGIN TRANSACTION");
        assertThat(SqlText.sessionStatement("CREATE TEMPORARY TABLE t (x UInt8)")).isEqualTo("CREATE TEMPORARY TABLE");
        assertThat(SqlText.sessionStatement("create or replace temporary table t (x UInt8)"))
                .isEqualTo("CREATE TEMPORARY TABLE");
        assertThat(SqlText.sessionStatement("REPLACE TEMPORARY TABLE t (x UInt8)")).isEqualTo("CREATE TEMPORARY TABLE");
        assertThat(SqlText.sessionStatement("EXECUTE AS u")).isEqualTo("EXECUTE AS");
        assertThat(SqlText.sessionStatement("execute as `odd ``name``` ; -- c")).isEqualTo("EXECUTE AS");
    }

    @Test
    void commentsAndWhiteSpaceAreSkippedAsClickHousesLexerSkipsThem() {
        // nested block comments (26.7), // comments (26.7 and 18.16), the Unicode white space ClickHouse's lexer
        // skips (no-break space, byte order mark, zero-width space, ideographic space: 26.7)
        assertThat(SqlText.sessionStatement("/* a /* b */ */ SET max_threads = 1")).isEqualTo("SET");
        assertThat(SqlText.sessionStatement("/*/**/*/use system")).isEqualTo("USE");
        assertThat(SqlText.sessionStatement("// c\nSET max_threads = 1")).isEqualTo("SET");
        assertThat(SqlText.sessionStatement("\u00a0SET max_threads = 1")).isEqualTo("SET");
        assertThat(SqlText.sessionStatement("\ufeffUSE system")).isEqualTo("USE");
        assertThat(SqlText.sessionStatement("\u200b\u3000CREATE\u2003TEMPORARY TABLE t (x UInt8)"))
                .isEqualTo("CREATE TEMPORARY TABLE");
        assertThat(SqlText.sessionStatement("EXECUTE\u00a0AS u\u202f")).isEqualTo("EXECUTE AS");
        assertThat(SqlText.sessionStatement("SET\u2060ROLE NONE")).isEqualTo("SET ROLE");
        assertThat(SqlText.sessionStatement("START TRANSACTION")).isEqualTo("BEGIN TRANSACTION");
        assertThat(SqlText.sessionStatement("start /* c */ transaction")).isEqualTo("BEGIN TRANSACTION");
        assertThat(SqlText.sessionStatement("/* a /* USE system */ */ SELECT 1")).isNull();
        assertThat(SqlText.sessionStatement("START")).isNull();
        assertThat(SqlText.isInsert("\u00a0/* /* */ */INSERT INTO t VALUES")).isTrue();
    }

    @Test
    void otherStatementsAreNot() {
        assertThat(SqlText.sessionStatement("SET DEFAULT ROLE r TO u")).isNull(); // stored, not of the session
        assertThat(SqlText.sessionStatement("set default /* c */ role NONE TO u")).isNull();
        assertThat(SqlText.sessionStatement("SELECT 1 SETTINGS max_threads = 1")).isNull();
        assertThat(SqlText.sessionStatement("SETTINGS")).isNull();
        assertThat(SqlText.sessionStatement("USER")).isNull();
        assertThat(SqlText.sessionStatement("USE_x")).isNull();
        assertThat(SqlText.sessionStatement("-- USE db\nSELECT 1")).isNull();
        assertThat(SqlText.sessionStatement("CREATE TABLE temporary (x UInt8) ENGINE = Memory")).isNull();
        assertThat(SqlText.sessionStatement("CREATE OR REPLACE TABLE t (x UInt8) ENGINE = Memory")).isNull();
        assertThat(SqlText.sessionStatement("DROP TEMPORARY TABLE t")).isNull();
        assertThat(SqlText.sessionStatement("INSERT INTO t SELECT 'SET x = 1'")).isNull();
        assertThat(SqlText.sessionStatement("")).isNull();
        assertThat(SqlText.sessionStatement("EXECUTE AS u SELECT currentUser()")).isNull(); // one statement only
        assertThat(SqlText.sessionStatement("EXECUTE AS \"u\" /* c */ SELECT 1")).isNull();
    }
}
