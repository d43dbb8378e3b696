package dev.clickhousetcp.jdbc.springdata;

import com.zaxxer.hikari.HikariDataSource;
import dev.clickhousetcp.client.ClickHouseSession;
import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import dev.clickhousetcp.testsupport.ClickHouseTest;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.CannotCreateTransactionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code @Transactional} over Boot's DataSourceTransactionManager and HikariCP (JDBC.md AT-17): in
 * {@code transactionMode=emulate} a commit is a no-op and a rollback after writes warns (an SQLWarning on the
 * connection and one WARN record of the driver's System.Logger, which goes to java.util.logging here) without
 * throwing; in {@code strict} the transaction cannot begin and the pooled connection is kept. Read-only
 * transactions (Spring Data repositories' reads) still read.
 */
@ClickHouseTest
class SpringTransactionTest {
    private static final String DB = "sdtx_" + Long.toHexString(System.nanoTime());
    private static ConfigurableApplicationContext emulate;
    private static ConfigurableApplicationContext strict;

    @BeforeAll
    static void start() {
        ClickHouseServer server = ClickHouseServers.modern();
        emulate = SpringDataContext.start(SpringDataContext.url(server, "default"), 1);
        JdbcTemplate jdbc = emulate.getBean(JdbcTemplate.class);
        jdbc.execute("CREATE DATABASE " + DB);
        jdbc.execute("CREATE TABLE " + DB + ".tx (id Int32, name String) ENGINE = MergeTree ORDER BY id");
        jdbc.execute("CREATE TABLE " + DB + ".event (id UUID, name String, amount UInt64, at DateTime64(3),"
                + " tags Array(String)) ENGINE = MergeTree ORDER BY id");
        strict = SpringDataContext.start(SpringDataContext.url(server, DB) + "?transactionMode=strict", 1);
    }

    @AfterAll
    static void stop() {
        if (emulate != null) {
            emulate.getBean(JdbcTemplate.class).execute("DROP DATABASE IF EXISTS " + DB);
            emulate.close();
        }
        if (strict != null) {
            strict.close();
        }
    }

    private static long rows(String table) {
        return emulate.getBean(JdbcTemplate.class).queryForObject("SELECT count() FROM " + table, Long.class);
    }

    /** The driver's WARN records while {@code action} runs. */
    private static List<LogRecord> warnings(Runnable action) {
        Logger logger = Logger.getLogger("dev.clickhousetcp.jdbc.ClickHouseJdbcConnection");
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                    records.add(r);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(handler);
        try {
            action.run();
        } finally {
            logger.removeHandler(handler);
        }
        return records;
    }

    private static ClickHouseSession physical(ConfigurableApplicationContext context) throws SQLException {
        try (Connection c = context.getBean(HikariDataSource.class).getConnection()) {
            return c.unwrap(ClickHouseSession.class);
        }
    }

    @Test
    void emulateCommitsTwoInsertsAndASelect() {
        String table = DB + ".tx";
        EventService service = emulate.getBean(EventService.class);
        long before = rows(table);
        List<LogRecord> logged = warnings(() -> assertThat(service.insertTwoAndCount(table, false))
                .isEqualTo(before + 2));
        assertThat(rows(table)).isEqualTo(before + 2);
        assertThat(logged).isEmpty();
    }

    @Test
    void emulateRollbackDoesNotThrowButWarnsOnce() {
        String table = DB + ".tx";
        EventService service = emulate.getBean(EventService.class);
        service.warningsAfterCompletion().clear();
        long before = rows(table);
        List<LogRecord> logged = warnings(() -> assertThatThrownBy(() -> service.insertTwoAndCount(table, true))
                .as("the caller gets its own exception, not one from the rollback")
                .isExactlyInstanceOf(IllegalStateException.class).hasMessage("fails after two inserts"));
        assertThat(rows(table)).as("the writes stay").isEqualTo(before + 2);
        assertThat(service.warningsAfterCompletion()).singleElement()
                .satisfies(w -> assertThat(w.getMessage()).contains("rollback() cannot undo"));
        assertThat(logged).singleElement().satisfies(r -> {
            assertThat(r.getLevel()).isEqualTo(Level.WARNING);
            assertThat(r.getMessage()).contains("the writes stay applied");
        });
    }

    @Test
    void strictFailsAtBeginAndThePooledConnectionSurvives() throws SQLException {
        HikariDataSource pool = strict.getBean(HikariDataSource.class);
        ClickHouseSession session = physical(strict);
        EventService service = strict.getBean(EventService.class);
        assertThatThrownBy(() -> service.insertTwoAndCount(DB + ".tx", false))
                .isInstanceOf(CannotCreateTransactionException.class)
                .cause().isInstanceOf(SQLFeatureNotSupportedException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("HYC00"));
        // Spring Data repositories are @Transactional: in strict mode every repository call fails the same way
        assertThatThrownBy(() -> strict.getBean(EventRepository.class).count())
                .isInstanceOf(CannotCreateTransactionException.class);
        assertThat(pool.getHikariPoolMXBean().getTotalConnections()).isEqualTo(1);
        assertThat(physical(strict)).as("the same physical connection").isSameAs(session);
    }

    @Test
    void readOnlyTransactionsOfRepositoriesRead() throws SQLException {
        ConfigurableApplicationContext app = SpringDataContext.start(
                SpringDataContext.url(ClickHouseServers.modern(), DB), 1);
        try {
            EventRepository repository = app.getBean(EventRepository.class);
            Event saved = repository.save(new Event("ro", java.math.BigInteger.TEN, java.time.LocalDateTime.of(2026, 1, 1, 0, 0), List.of()));
            assertThat(repository.findById(saved.getId())).isPresent(); // readOnly = true: setReadOnly(true)
            assertThat(repository.count()).isPositive();
            try (Connection c = app.getBean(HikariDataSource.class).getConnection()) {
                assertThat(c.isReadOnly()).as("HikariCP reset it on return").isFalse();
                assertThat(c.getAutoCommit()).isTrue();
            }
            repository.deleteById(saved.getId()); // a write after the read-only transactions
            assertThat(repository.findById(saved.getId())).isEmpty();
        } finally {
            app.close();
        }
    }
}
