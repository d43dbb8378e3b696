package dev.clickhousetcp.jdbc.liquibase;

import liquibase.Scope;
import liquibase.database.Database;
import liquibase.exception.DatabaseException;
import liquibase.exception.LockException;
import liquibase.executor.Executor;
import liquibase.executor.ExecutorService;
import liquibase.lockservice.StandardLockService;
import liquibase.statement.core.RawSqlStatement;
import liquibase.statement.core.SelectFromDatabaseChangeLogLockStatement;
import liquibase.statement.core.UnlockDatabaseChangeLogStatement;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.UUID;

/**
 * Liquibase's changelog lock on {@link ClickHouseTcpDatabase}. The lock row is taken with the mutation
 * {@code ALTER TABLE DATABASECHANGELOGLOCK UPDATE LOCKED = true, LOCKEDBY = <this service's id> ...
 * WHERE ID = 1 AND NOT LOCKED SETTINGS mutations_sync = 1} and released with its counterpart. ClickHouse
 * reports no row count for a mutation, so instead of Liquibase's "one row updated" check the service
 * reads {@code LOCKEDBY} back: the lock is this service's when the row names this service's id (the host
 * name and a random UUID). Two runs that read the row unlocked at the same moment are ordered by the
 * table's mutation order; the later mutation's WHERE no longer matches.
 *
 * <p>One instance per Liquibase database object, used by one thread at a time, as Liquibase does.
 */
public class ClickHouseTcpLockService extends StandardLockService {
    private final String lockedBy = host() + " (" + UUID.randomUUID() + ")";

    /** A lock service for Liquibase's service loader. */
    public ClickHouseTcpLockService() {
    }

    @Override
    public int getPriority() {
        return PRIORITY_DATABASE;
    }

    @Override
    public boolean supports(Database database) {
        return database instanceof ClickHouseTcpDatabase;
    }

    /**
     * Takes the lock unless another run holds it.
     *
     * @return whether this service holds the lock now
     * @throws LockException when a statement fails
     */
    @Override
    public boolean acquireLock() throws LockException {
        if (hasChangeLogLock) {
            return true;
        }
        quotingStrategy = database.getObjectQuotingStrategy();
        Executor executor = executor();
        try {
            init();
            if (Boolean.TRUE.equals(executor.queryForObject(new SelectFromDatabaseChangeLogLockStatement("LOCKED"),
                    Boolean.class))) {
                return false;
            }
            executor.comment("Lock Database");
            executor.execute(new RawSqlStatement("ALTER TABLE " + lockTable()
                    + " UPDATE LOCKED = true, LOCKGRANTED = now64(3), LOCKEDBY = '" + lockedBy
                    + "' WHERE ID = 1 AND NOT LOCKED" + MutationSql.WAIT));
            String holder = executor.queryForObject(new SelectFromDatabaseChangeLogLockStatement("LOCKEDBY"),
                    String.class);
            if (!lockedBy.equals(holder)) {
                return false;
            }
            hasChangeLogLock = true;
            database.setCanCacheLiquibaseTableInfo(true);
            return true;
        } catch (DatabaseException e) {
            throw new LockException(e);
        }
    }

    /**
     * Releases the lock (whoever holds it, as Liquibase's {@code releaseLocks} command wants).
     *
     * @throws LockException when the statement fails
     */
    @Override
    public void releaseLock() throws LockException {
        Executor executor = executor();
        try {
            if (isDatabaseChangeLogLockTableCreated()) {
                executor.comment("Release Database Lock");
                executor.execute(new UnlockDatabaseChangeLogStatement());
            }
        } catch (DatabaseException e) {
            throw new LockException(e);
        } finally {
            hasChangeLogLock = false;
            database.setCanCacheLiquibaseTableInfo(false);
        }
    }

    private Executor executor() {
        return Scope.getCurrentScope().getSingleton(ExecutorService.class).getExecutor("jdbc", database);
    }

    private String lockTable() {
        return database.escapeTableName(database.getLiquibaseCatalogName(), database.getLiquibaseSchemaName(),
                database.getDatabaseChangeLogLockTableName());
    }

    /** The host name, kept to characters that need no quoting in a string literal. */
    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName().replaceAll("[^A-Za-z0-9._-]", "_");
        } catch (UnknownHostException e) {
            return "unknown_host";
        }
    }
}
