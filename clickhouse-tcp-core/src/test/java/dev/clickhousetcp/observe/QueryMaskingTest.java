package dev.clickhousetcp.observe;

import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link QueryMasking} without a server: ClickHouse's kinds of secrets, the lexer's corners, text without secrets. */
class QueryMaskingTest {

    static final List<MaskingCorpus.Case> CASES = MaskingCorpus.CASES;

    @ParameterizedTest
    @FieldSource("CASES")
    void hidesTheSecret(MaskingCorpus.Case c) {
        String masked = QueryMasking.mask(c.sql());
        assertThat(masked).isEqualTo(c.masked()).doesNotContain("Secret-");
    }

    @Test
    void theCorpusIsWide() {
        assertThat(CASES).hasSizeGreaterThanOrEqualTo(30);
    }

    @ParameterizedTest
    @ValueSource(strings = {"SELECT 1", "SELECT 'password' AS p, 'IDENTIFIED' FROM t WHERE s = 'x'",
        "SELECT * FROM s3('http://127.0.0.1:1/b/x.csv', 'CSV', 'a String')",
        "SELECT * FROM s3('http://127.0.0.1:1/b/x.csv', NOSIGN, 'CSV')",
        "SELECT * FROM mysql(nc, table = 't')", "SELECT {password:String}", "SELECT $$a$$, $t$b$t$",
        "CREATE TABLE t (id UInt64) ENGINE = MergeTree ORDER BY id", "INSERT INTO t (a, b) VALUES",
        "SELECT * FROM remote('127.0.0.1:1', db.tbl)", "SELECT * FROM url('http://127.0.0.1:1/x', CSV)",
        "SELECT hasToken(s, 'abc') FROM t", ""})
    void textWithoutSecretsIsUnchanged(String sql) {
        assertThat(QueryMasking.mask(sql)).isSameAs(sql);
    }

    @Test
    void nullStaysNull() {
        assertThat(QueryMasking.mask(null)).isNull();
    }

    /** Quotes inside comments, identifiers and other literals do not move a literal's boundaries. */
    @Test
    void literalsAreFoundWhereTheServerFindsThem() {
        assertThat(QueryMasking.mask("SELECT 'it''s', \"a'b\", `c'd` -- '\nFROM mysql('h', 'd', 't', 'u', 'Secret-1')"))
                .isEqualTo("SELECT 'it''s', \"a'b\", `c'd` -- '\nFROM mysql('h', 'd', 't', 'u', '[HIDDEN]')");
        assertThat(QueryMasking.mask("/* outer /* inner ' */ still ' */ CREATE USER u IDENTIFIED BY 'Secret-1'"))
                .isEqualTo("/* outer /* inner ' */ still ' */ CREATE USER u IDENTIFIED BY '[HIDDEN]'");
        assertThat(QueryMasking.mask("CREATE USER u IDENTIFIED BY 'Secret-\\\\'; SELECT 'x'"))
                .isEqualTo("CREATE USER u IDENTIFIED BY '[HIDDEN]'; SELECT 'x'");
    }

    /** Several statements: each is masked by its own rules. */
    @Test
    void eachStatementByItsOwnRules() {
        assertThat(QueryMasking.mask("SELECT 'a'; CREATE USER u IDENTIFIED BY 'Secret-1'; SELECT 'b'"))
                .isEqualTo("SELECT 'a'; CREATE USER u IDENTIFIED BY '[HIDDEN]'; SELECT 'b'");
        assertThat(QueryMasking.mask("CREATE DATABASE d ENGINE = PostgreSQL('h', 'db', 'u', 'Secret-1'); "
                + "CREATE TABLE t (a String) ENGINE = PostgreSQL('h', 'db', 't', 'u', 'Secret-2')"))
                .isEqualTo("CREATE DATABASE d ENGINE = PostgreSQL('h', 'db', 'u', '[HIDDEN]'); "
                + "CREATE TABLE t (a String) ENGINE = PostgreSQL('h', 'db', 't', 'u', '[HIDDEN]')");
    }

    /** Text the lexer cannot close is hidden to its end rather than shown. */
    @Test
    void unfinishedTextIsHiddenToItsEnd() {
        assertThat(QueryMasking.mask("CREATE USER u IDENTIFIED BY 'Secret-1")).isEqualTo("CREATE USER u IDENTIFIED BY '[HIDDEN]'");
        assertThat(QueryMasking.mask("SELECT * FROM mysql('h', 'd', 't', 'u', 'Secret-1"))
                .isEqualTo("SELECT * FROM mysql('h', 'd', 't', 'u', '[HIDDEN]'");
        assertThat(QueryMasking.mask("SELECT * FROM s3('h', 'k', $x$Secret-1")).isEqualTo("SELECT * FROM s3('h', 'k', '[HIDDEN]'");
        assertThat(QueryMasking.mask("SELECT encrypt('m', 'Secret-1', 'Secret-2'")).isEqualTo("SELECT encrypt('m', '[HIDDEN]'");
    }

    /** Secrets by name: dictionary sources, settings, disks, named arguments; with or without {@code =}. */
    @Test
    void secretsByName() {
        assertThat(QueryMasking.mask("SOURCE(MYSQL(port 3306 user 'u' password 'Secret-1' db 'd' table 't'))"))
                .isEqualTo("SOURCE(MYSQL(port 3306 user 'u' password '[HIDDEN]' db 'd' table 't'))");
        assertThat(QueryMasking.mask("CREATE TABLE k (a String) ENGINE = Kafka SETTINGS kafka_sasl_password = 'Secret-1'"))
                .isEqualTo("CREATE TABLE k (a String) ENGINE = Kafka SETTINGS kafka_sasl_password = '[HIDDEN]'");
        assertThat(QueryMasking.mask("SETTINGS disk = disk(type = s3, endpoint = 'http://h/b/', access_key_id = 'k', "
                + "secret_access_key = 'Secret-1')"))
                .isEqualTo("SETTINGS disk = disk(type = s3, endpoint = 'http://h/b/', access_key_id = 'k', "
                + "secret_access_key = '[HIDDEN]')");
        assertThat(QueryMasking.mask("BACKUP TABLE t TO Disk('b', 'x.zip') SETTINGS password = 'Secret-1'"))
                .isEqualTo("BACKUP TABLE t TO Disk('b', 'x.zip') SETTINGS password = '[HIDDEN]'");
        assertThat(QueryMasking.mask("SELECT * FROM azureBlobStorage(nc, account_key = 'Secret-1')"))
                .isEqualTo("SELECT * FROM azureBlobStorage(nc, account_key = '[HIDDEN]')");
    }

    /** Random text never makes the masker fail, and a secret after IDENTIFIED never survives it. */
    @Test
    void neverFails() {
        Random random = new Random(42);
        String alphabet = "'\"`$()[]{},;=-#/*\\ \nabcSELECT:";
        for (int i = 0; i < 5_000; i++) {
            StringBuilder b = new StringBuilder();
            int n = random.nextInt(40);
            for (int k = 0; k < n; k++) {
                b.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String noise = b.toString();
            assertThat(QueryMasking.mask(noise)).isNotNull();
            String sql = "CREATE USER u IDENTIFIED BY 'Secret-1' " + noise;
            assertThat(QueryMasking.mask(sql)).as(sql).doesNotContain("Secret-1");
        }
    }
}
