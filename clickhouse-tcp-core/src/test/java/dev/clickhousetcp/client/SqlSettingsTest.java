package dev.clickhousetcp.client;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What a statement's own text sets, without a server ({@link SessionTimeZoneTest} checks the server agrees). */
class SqlSettingsTest {
    private static final String TZ = "session_timezone";

    @Test
    void setStatements() {
        assertThat(SqlSettings.set("SET session_timezone = 'Asia/Tokyo'", TZ)).isEqualTo(new SqlSettings.Assignment("Asia/Tokyo"));
        assertThat(SqlSettings.set(" /* c */ set max_threads = 2, session_timezone='Europe/Berlin'", TZ))
                .isEqualTo(new SqlSettings.Assignment("Europe/Berlin"));
        assertThat(SqlSettings.set("SET session_timezone = DEFAULT", TZ)).isEqualTo(new SqlSettings.Assignment(null));
        assertThat(SqlSettings.set("SET session_timezone = ''", TZ)).isEqualTo(new SqlSettings.Assignment(""));
        assertThat(SqlSettings.set("SET session_timezone = 'A', session_timezone = 'B'", TZ)).isEqualTo(new SqlSettings.Assignment("B"));
        assertThat(SqlSettings.set("SET max_threads = 1", TZ)).isNull();
        assertThat(SqlSettings.set("SELECT 1 SETTINGS session_timezone = 'Asia/Tokyo'", TZ)).isNull();
        assertThat(SqlSettings.set("SET ROLE r", TZ)).isNull();
    }

    /**
     * A SET that the session check ({@link SqlText#sessionStatement}) sees through the white space and comments
     * ClickHouse's lexer skips is read the same way here: nested block comments, {@code //} comments, the
     * Unicode white space 26.7 skips.
     */
    @Test
    void setStatementsBehindWhatTheServerSkips() {
        assertThat(SqlSettings.set("/* a /* b */ c */ SET readonly = 1", "readonly"))
                .isEqualTo(new SqlSettings.Assignment("1"));
        assertThat(SqlSettings.set("// c\nSET readonly = 1", "readonly")).isEqualTo(new SqlSettings.Assignment("1"));
        assertThat(SqlSettings.set("\u00a0SET\u3000readonly = 1", "readonly")).isEqualTo(new SqlSettings.Assignment("1"));
        assertThat(SqlSettings.set("\ufeffSET profile = 'p'", "profile")).isEqualTo(new SqlSettings.Assignment("p"));
        assertThat(SqlSettings.set("SET max_threads = 2 /* readonly = 1 /* nested */ readonly = 1 */", "readonly"))
                .isNull();
    }

    @Test
    void settingsClausesOutsideParentheses() {
        assertThat(SqlSettings.clause("SELECT now() SETTINGS session_timezone = 'Asia/Tokyo'", TZ)).isEqualTo("Asia/Tokyo");
        assertThat(SqlSettings.clause("select 1 settings max_threads = 1, session_timezone = 'It''s' format TSV", TZ))
                .isEqualTo("It's");
        assertThat(SqlSettings.clause("INSERT INTO t SETTINGS session_timezone = 'UTC' VALUES", TZ)).isEqualTo("UTC");
        assertThat(SqlSettings.clause("SELECT * FROM (SELECT 1 SETTINGS session_timezone = 'Asia/Tokyo')", TZ)).isNull();
        assertThat(SqlSettings.clause("SELECT 'SETTINGS session_timezone = ''X''' -- SETTINGS session_timezone = 'Y'", TZ))
                .isNull();
        assertThat(SqlSettings.clause("SELECT settings FROM t", TZ)).isNull();
        assertThat(SqlSettings.clause("SELECT 1 SETTINGS `session_timezone` = 'x'", TZ)).isEqualTo("x");
        assertThat(SqlSettings.clause("SELECT 1 SETTINGS session_timezone = 'a\\'b'", TZ)).isEqualTo("a'b");
    }
}
