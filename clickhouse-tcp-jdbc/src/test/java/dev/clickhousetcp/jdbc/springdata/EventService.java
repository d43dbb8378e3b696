package dev.clickhousetcp.jdbc.springdata;

import java.sql.SQLException;
import java.sql.SQLWarning;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/** A {@code @Transactional} service: two inserts and a select in one transaction. */
public class EventService {
    private final JdbcTemplate jdbc;
    private final DataSource dataSource;
    private final List<SQLWarning> warningsAfterCompletion = new CopyOnWriteArrayList<>();

    EventService(JdbcTemplate jdbc, DataSource dataSource) {
        this.jdbc = jdbc;
        this.dataSource = dataSource;
    }

    /** The warnings the transaction's connection carried right after each completion (rollback or commit). */
    public List<SQLWarning> warningsAfterCompletion() {
        return warningsAfterCompletion;
    }

    /**
     * Inserts two rows into {@code table} and counts its rows, then throws when {@code fail}.
     *
     * @return the row count the select saw
     */
    @Transactional
    public long insertTwoAndCount(String table, boolean fail) {
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCompletion(int status) {
                try {
                    SQLWarning w = DataSourceUtils.getConnection(dataSource).getWarnings();
                    if (w != null) {
                        warningsAfterCompletion.add(w);
                    }
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }
        });
        jdbc.update("INSERT INTO " + table + " (id, name) VALUES (?, ?)", 1, "one");
        jdbc.update("INSERT INTO " + table + " (id, name) VALUES (?, ?)", 2, "two");
        Long count = jdbc.queryForObject("SELECT count() FROM " + table, Long.class);
        if (fail) {
            throw new IllegalStateException("fails after two inserts");
        }
        return count;
    }
}
