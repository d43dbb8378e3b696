package dev.clickhousetcp.jdbc.springdata;

import dev.clickhousetcp.jdbc.ClickHouseDriver;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.data.jdbc.core.dialect.DialectResolver;
import org.springframework.data.relational.core.dialect.LimitClause;
import org.springframework.data.relational.core.dialect.RenderContextFactory;
import org.springframework.data.relational.core.sql.LockMode;
import org.springframework.data.relational.core.sql.Select;
import org.springframework.data.relational.core.sql.StatementBuilder;
import org.springframework.data.relational.core.sql.Table;
import org.springframework.data.relational.core.sql.render.SqlRenderer;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The dialect's clauses on both servers, and which connections the provider answers for. */
@ClickHouseTest
class ClickHouseDialectTest {

    private static List<Long> numbers(Connection c, String clause) throws SQLException {
        List<Long> out = new ArrayList<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT number FROM numbers(10) ORDER BY number " + clause)) {
            while (rs.next()) {
                out.add(rs.getLong(1));
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"modern", "legacy"})
    void limitAndOffsetRunOnTheServer(String kind) throws SQLException {
        ClickHouseServer server = kind.equals("legacy") ? ClickHouseServers.legacy() : ClickHouseServers.modern();
        LimitClause limit = ClickHouseDialect.INSTANCE.limit();
        try (Connection c = DriverManager.getConnection(SpringDataContext.url(server, "default"))) {
            assertThat(numbers(c, limit.getLimit(3))).containsExactly(0L, 1L, 2L);
            assertThat(numbers(c, limit.getLimitOffset(2, 3))).containsExactly(3L, 4L);
            assertThat(numbers(c, limit.getOffset(8))).containsExactly(8L, 9L);
            assertThat(numbers(c, limit.getOffset(0))).hasSize(10);
            assertThat(numbers(c, limit.getLimitOffset(5, 9))).containsExactly(9L);
        }
    }

    /** Spring Data renders {@code SELECT ... FOR UPDATE} before it deletes an aggregate with references. */
    @Test
    void aLockedSelectRendersWithoutALockAndRuns() throws SQLException {
        Table one = Table.create("system.one");
        Select select = StatementBuilder.select(one.column("dummy")).from(one)
                .orderBy(one.column("dummy")).limitOffset(1, 0).lock(LockMode.PESSIMISTIC_WRITE).build();
        String sql = SqlRenderer.create(new RenderContextFactory(ClickHouseDialect.INSTANCE).createRenderContext())
                .render(select);
        assertThat(sql).doesNotContainIgnoringCase("FOR UPDATE").endsWith("LIMIT 1 OFFSET 0");
        try (Connection c = DriverManager.getConnection(SpringDataContext.url(ClickHouseServers.modern(), "default"));
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isZero();
        }
    }

    @Test
    void theProviderAnswersForThisDriverAndBuildsNamesFromItsMetadata() throws SQLException {
        try (Connection c = DriverManager.getConnection(SpringDataContext.url(ClickHouseServers.modern(), "default"))) {
            ClickHouseDialect d = ClickHouseDialectProvider.dialect(c);
            assertThat(d).isNotNull();
            assertThat(d.getIdentifierProcessing().quote("Ev")).isEqualTo("`Ev`");
            assertThat(d.getIdentifierProcessing().standardizeLetterCase("Ev")).isEqualTo("Ev");
            JdbcTemplate jdbc = new JdbcTemplate(new SingleConnectionDataSource(c, true));
            assertThat(DialectResolver.getDialect(jdbc)).isInstanceOf(ClickHouseDialect.class);
        }
    }

    /** The official (HTTP) driver also says "ClickHouse": its connections are not this dialect's. */
    @Test
    void theProviderDeclinesTheOfficialDriversConnections() throws SQLException {
        ClickHouseServer server = ClickHouseServers.modern();
        Properties info = new Properties();
        info.setProperty("user", "default");
        info.setProperty("password", "");
        try (Connection c = new com.clickhouse.jdbc.Driver().connect(
                "jdbc:clickhouse://" + server.host() + ":" + server.httpPort() + "/default", info)) {
            assertThat(c.getMetaData().getDatabaseProductName()).isEqualTo("ClickHouse");
            assertThat(c.getMetaData().getDriverName()).isNotEqualTo(ClickHouseDriver.NAME);
            assertThat(ClickHouseDialectProvider.dialect(c)).isNull();
            JdbcTemplate jdbc = new JdbcTemplate(new SingleConnectionDataSource(c, true));
            assertThatThrownBy(() -> DialectResolver.getDialect(jdbc))
                    .isInstanceOf(DialectResolver.NoDialectException.class);
        }
    }
}
