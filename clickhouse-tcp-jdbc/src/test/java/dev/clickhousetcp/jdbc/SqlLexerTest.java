package dev.clickhousetcp.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The placeholder lexer, statement splitting, JDBC escapes and the INSERT shape, without a server. */
class SqlLexerTest {

    /** Each statement with its number of placeholders (the cases of Metabase and clickhouse-java bug reports). */
    /** Each statement with its number of placeholders (the cases of Metabase and clickhouse-java bug reports). */
    static Stream<Arguments> corpus() {
        return Stream.of(
                Arguments.of("SELECT ?", 1),
                Arguments.of("SELECT '?'", 0),
                Arguments.of("SELECT 'it''s ?', ?", 1),
                Arguments.of("SELECT 'a\\' ?', ?", 1),
                Arguments.of("SELECT 'a\\\\', ?", 1),
                Arguments.of("SELECT \"col?\" FROM t WHERE x = ?", 1),
                Arguments.of("SELECT `col?` FROM t WHERE x = ? AND y = ?", 2),
                Arguments.of("SELECT 1 -- why?\n, ?", 1),
                Arguments.of("SELECT 1 # why?\n, ?", 1),
                Arguments.of("SELECT /* ? */ ?", 1),
                Arguments.of("SELECT /* nested /* ? */ still ? */ ?", 1),
                Arguments.of("SELECT $$ ? $$, ?", 1),
                Arguments.of("SELECT $tag$ ? $ ? $tag$, ?", 1),
                Arguments.of("SELECT * FROM test_data.categories WHERE test_data.categories.name = ?", 1),
                Arguments.of("-- Metabase:: userID: 1 queryType: MBQL ?\nSELECT count(*) FROM t WHERE a = ?", 1),
                Arguments.of("SELECT ?, ?, ?", 3),
                Arguments.of("INSERT INTO t (a, b) VALUES (?, ?)", 2),
                Arguments.of("SELECT {p:String}, ?", 1),
                Arguments.of("SELECT map('k?', ?)", 1),
                Arguments.of("SELECT 'unterminated ?", 0),
                Arguments.of("SELECT /* unterminated ?", 0),
                Arguments.of("SELECT \"unterminated ?", 0),
                Arguments.of("SELECT 1 - ?", 1),
                Arguments.of("SELECT a?b:c FROM t", 1),
                Arguments.of("SELECT ?::String", 1),
                Arguments.of("SELECT 'x' || ? || 'y'", 1),
                Arguments.of("SELECT '\\\\' , ? , '\\''", 1),
                Arguments.of("SELECT * FROM t WHERE s LIKE '%?%' AND id IN (?, ?)", 2),
                Arguments.of("WITH cte AS (SELECT ? AS x) SELECT * FROM cte", 1),
                Arguments.of("SELECT $ab, ?", 1));
    }

    @ParameterizedTest
    @MethodSource("corpus")
    void countsPlaceholders(String sql, int expected) {
        assertThat(SqlLexer.placeholders(sql)).as(sql).hasSize(expected);
    }

    @Test
    void placeholderPositionsAreExact() {
        String sql = "SELECT '?', ? FROM t WHERE `?` = ?";
        int[] p = SqlLexer.placeholders(sql);
        assertThat(p).containsExactly(sql.indexOf(", ?") + 2, sql.lastIndexOf('?'));
    }

    @Test
    void splitsOnlyAtCodeSemicolons() {
        assertThat(SqlLexer.split("SELECT 1;")).containsExactly("SELECT 1");
        assertThat(SqlLexer.split("SELECT 1; -- done\n")).containsExactly("SELECT 1");
        assertThat(SqlLexer.split("SELECT 1; SELECT 2")).containsExactly("SELECT 1", " SELECT 2");
        assertThat(SqlLexer.split("SELECT ';'; /* ; */")).containsExactly("SELECT ';'");
        assertThat(SqlLexer.split("SELECT `a;b`, \"c;d\" -- ;\n")).hasSize(1);
        assertThat(SqlLexer.split("  -- nothing\n")).isEmpty();
    }

    @Test
    void firstWordSkipsCommentsAndParentheses() {
        assertThat(SqlLexer.firstWord("-- x\n/* y */ ( select 1)")).isEqualTo("SELECT");
        assertThat(SqlLexer.firstWord("  with x as (select 1) select * from x")).isEqualTo("WITH");
        assertThat(SqlLexer.firstWord("# c\nCREATE TABLE t")).isEqualTo("CREATE");
        assertThat(SqlLexer.firstWord("")).isEmpty();
    }

    @Test
    void rewritesEscapesOutsideLiteralsOnly() {
        assertThat(SqlLexer.processEscapes("SELECT {d '2024-01-02'}")).isEqualTo("SELECT toDate('2024-01-02')");
        assertThat(SqlLexer.processEscapes("SELECT {ts '2024-01-02 03:04:05'}"))
                .isEqualTo("SELECT toDateTime64('2024-01-02 03:04:05', 9)");
        assertThat(SqlLexer.processEscapes("SELECT {fn upper('a')}")).isEqualTo("SELECT upper('a')");
        assertThat(SqlLexer.processEscapes("SELECT {fn concat({fn lower('A')}, 'b')}"))
                .isEqualTo("SELECT concat(lower('A'), 'b')");
        assertThat(SqlLexer.processEscapes("SELECT * FROM {oj t LEFT JOIN u ON t.a = u.a}"))
                .isEqualTo("SELECT * FROM t LEFT JOIN u ON t.a = u.a");
        // literals, identifiers, comments, query parameters and map literals stay as written
        for (String kept : new String[]{"SELECT '{d ''2024-01-02''}'", "SELECT `{fn x}`", "SELECT 1 -- {fn x}",
                "SELECT {p1:String}", "SELECT {'a': 1}", "SELECT 'Z!F3{fn '", "SELECT {fn"}) {
            assertThat(SqlLexer.processEscapes(kept)).isEqualTo(kept);
        }
    }

    @Test
    void recognizesPlainPlaceholderInserts() {
        InsertShape s = InsertShape.of("INSERT INTO db.t (a, `b c`) VALUES (?, ?)");
        assertThat(s).isNotNull();
        assertThat(s.insertSql()).isEqualTo("INSERT INTO db.t (a, `b c`) VALUES");
        assertThat(s.parameters()).isEqualTo(2);
        assertThat(InsertShape.of("insert into t values (?,?,?);  -- end")).isNotNull()
                .extracting(InsertShape::parameters).isEqualTo(3);
        assertThat(InsertShape.of("INSERT INTO \"db\".\"flyway_schema_history\" (\"installed_rank\", \"version\") "
                + "VALUES (?, ?)")).isNotNull();
        for (String other : List.of("INSERT INTO t VALUES (?, 1)", "INSERT INTO t VALUES (?, ?), (?, ?)",
                "INSERT INTO t SELECT * FROM s WHERE a = ?", "INSERT INTO t VALUES (now(), ?)",
                "INSERT INTO t (`values`) SELECT ?", "SELECT ? FROM t", "INSERT INTO t VALUES (?) SETTINGS x = 1")) {
            assertThat(InsertShape.of(other)).as(other).isNull();
        }
    }
}
