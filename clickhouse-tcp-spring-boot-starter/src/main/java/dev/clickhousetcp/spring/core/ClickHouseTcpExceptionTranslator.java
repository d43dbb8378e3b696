package dev.clickhousetcp.spring.core;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.util.Collection;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.net.ssl.SSLException;

import dev.clickhousetcp.ClickHouseAuthenticationException;
import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseFeatureNotSupportedException;
import dev.clickhousetcp.ClickHouseInterruptedException;
import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.ClickHouseSessionRequiredException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.client.ClickHouseTcpClient;
import dev.clickhousetcp.observe.QueryMasking;
import dev.clickhousetcp.spring.core.ClickHouseErrorCodes.Category;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.support.PersistenceExceptionTranslator;

/**
 * Translates the client's {@link ClickHouseException}s into Spring's {@link DataAccessException} hierarchy,
 * the way {@code SQLExceptionTranslator} does for JDBC. Every exception it creates implements
 * {@link ClickHouseErrorDetails} (server error code and name, query_id, SQL) and has the client's exception as
 * its cause.
 *
 * <p>As a {@link PersistenceExceptionTranslator} bean (the auto-configuration registers one), it also
 * translates exceptions thrown by {@code @Repository} beans that use the {@link ClickHouseTcpClient}
 * directly, through Spring's {@code PersistenceExceptionTranslationPostProcessor}.
 *
 * <table>
 * <caption>Mapping (the full list of server codes is in {@code docs/spring.md})</caption>
 * <tr><th>client exception or server error code</th><th>Spring exception (our subtype)</th></tr>
 * <tr><td>syntax errors, unknown or already existing table, database, column, function, identifier, type:
 * 62, 47, 60, 81, 46, 16, 8, 10, 15, 20, 50, 57, 82, ...</td>
 * <td>{@code InvalidDataAccessResourceUsageException} ({@link ClickHouseBadSqlGrammarException})</td></tr>
 * <tr><td>limits of the query: 158, 307, 396, 241 (the query's own memory limit), 128, 131, 161, 162, 167,
 * 168, 191, 229, 290, 306, 359, 565</td>
 * <td>{@code InvalidDataAccessResourceUsageException} ({@link ClickHouseLimitExceededException})</td></tr>
 * <tr><td>{@link ClickHouseAuthenticationException}; 164 READONLY, 192-195, 291, 358, 392, 446, 452, 472,
 * 481, 482, 497, 512, 516, 673</td>
 * <td>{@code PermissionDeniedDataAccessException} ({@link ClickHousePermissionDeniedException})</td></tr>
 * <tr><td>{@link ClickHouseTimeoutException} with deadline {@code QUERY} or {@code SOCKET}; 159, 160, 209,
 * 394</td><td>{@code QueryTimeoutException} ({@link ClickHouseQueryTimeoutException})</td></tr>
 * <tr><td>{@link ClickHouseTimeoutException} with deadline {@code ACQUIRE}; a
 * {@link ClickHouseConnectionException} after the connection was established (unless it ended an insert that
 * may have been applied without a deduplication token); 241 (server-wide or per-user memory), 173, 201-203,
 * 210, 225, 236, 242, 244, 252, 254, 265, 279, 285, 286, 289, 319, 364, 369, 410, 415, 416, 519, 999</td>
 * <td>{@code TransientDataAccessResourceException} ({@link ClickHouseTransientResourceException})</td></tr>
 * <tr><td>{@link ClickHouseTimeoutException} with deadline {@code CONNECT}, {@code HANDSHAKE} or
 * {@code PING}; a {@link ClickHouseConnectionException} while connecting (refused, unknown host, TLS), or of an
 * insert that may have been applied without a deduplication token; 198, 243, 425</td>
 * <td>{@code DataAccessResourceFailureException} ({@link ClickHouseResourceFailureException})</td></tr>
 * <tr><td>{@link ClickHouseProtocolException}; 33, 40, 99, 101, 246, 271</td>
 * <td>{@code NonTransientDataAccessResourceException} ({@link ClickHouseNonTransientResourceException})</td></tr>
 * <tr><td>115 UNKNOWN_SETTING, 36, 43, 215, 1, 2, 12, 34, 35, 42, 48, 69, 108, 211, 216, 344, 456, 457, 471;
 * {@link ClickHouseFeatureNotSupportedException} (a server too old for what the call asks, such as query
 * parameters); {@link ClickHouseSessionRequiredException} ({@code USE}, {@code SET}, {@code SET ROLE}, a
 * temporary table or a transaction outside a session)</td>
 * <td>{@code InvalidDataAccessApiUsageException} ({@link ClickHouseInvalidApiUsageException})</td></tr>
 * <tr><td>values that cannot be parsed or converted, constraint violations, throwIf, division by zero: 6,
 * 25-27, 38, 41, 53, 70, 72, 117, 153, 190, 321, 349, 376, 395, 407, 467, 469, 675, 676, 691</td>
 * <td>{@code DataIntegrityViolationException} ({@link ClickHouseDataIntegrityViolationException})</td></tr>
 * <tr><td>389 INSERT_WAS_DEDUPLICATED</td><td>{@code DuplicateKeyException}
 * ({@link ClickHouseDuplicateKeyException})</td></tr>
 * <tr><td>384, 473 DEADLOCK_AVOIDED</td><td>{@code CannotAcquireLockException}
 * ({@link ClickHouseLockFailureException})</td></tr>
 * <tr><td>{@link ClickHouseTypeException} (also {@code MappingException})</td><td>{@code TypeMismatchDataAccessException}
 * ({@link ClickHouseTypeMismatchException})</td></tr>
 * <tr><td>anything else</td><td>{@link UncategorizedClickHouseException}</td></tr>
 * </table>
 *
 * <p><b>Messages</b> read {@code task; [sql]; client message; notes; query_id ...}. The {@code [sql]} part (and
 * {@link ClickHouseErrorDetails#getSql()}) has its secrets hidden as the server hides them in its logs: passwords,
 * credentials of table functions and engines, ... read {@code '[HIDDEN]'} ({@link QueryMasking}). The notes name the
 * deadline and its configured value for timeouts; for a failed INSERT whether its rows may have been applied
 * and whether a retry is safe (with its deduplication token); for a setting the server rejects (115, and 164,
 * 452, 471, 472 when the message names a setting) which setting, and whether it came from the client's default
 * settings ({@code clickhouse.tcp.settings}, sent with every query) or from the call.
 *
 * <p>Immutable and thread-safe. Subclass and override
 * {@link #translate(String, String, String, Collection, ClickHouseException)} to refine the mapping.
 */
public class ClickHouseTcpExceptionTranslator implements PersistenceExceptionTranslator {

    private static final int MAX_SQL_IN_MESSAGE = 1000;

    /** ClickHouse 18.x: {@code Unknown setting foo}; newer: {@code Unknown setting 'foo'}. */
    private static final Pattern UNKNOWN_SETTING = Pattern.compile("(?i)unknown setting '?([A-Za-z0-9_.]+)'?");

    /** The first quoted name in a message, for example {@code Cannot modify 'max_threads' setting ...}. */
    private static final Pattern QUOTED_NAME = Pattern.compile("['`]([A-Za-z0-9_.]+)['`]");

    private final Set<String> defaultSettings;

    /** Creates a translator that knows no default settings of the client. */
    public ClickHouseTcpExceptionTranslator() {
        this(Set.of());
    }

    /**
     * Creates a translator for a client whose default settings (sent with every query) have these names, so
     * that a setting the server rejects can be traced back to them.
     * @param defaultSettings the names of the client's default settings ({@code ConnectionConfig.settings()})
     */
    public ClickHouseTcpExceptionTranslator(Collection<String> defaultSettings) {
        this.defaultSettings = Set.copyOf(Objects.requireNonNull(defaultSettings, "defaultSettings"));
    }

    /**
     * A translator for the given client, knowing its default settings.
     * @param client the client whose exceptions are translated
     * @return the translator
     */
    public static ClickHouseTcpExceptionTranslator forClient(ClickHouseTcpClient client) {
        return new ClickHouseTcpExceptionTranslator(client.config().settings().keySet());
    }

    /**
     * Translates a {@link ClickHouseException}; leaves any other exception alone.
     * @param ex the exception
     * @return the translated exception, or {@code null} if {@code ex} is not a {@link ClickHouseException}
     */
    @Override
    public @Nullable DataAccessException translateExceptionIfPossible(RuntimeException ex) {
        return (ex instanceof ClickHouseException ce) ? translate(null, null, null, Set.of(), ce) : null;
    }

    /**
     * Translates a client exception.
     * @param task what was being done, for example {@code "query"}, or {@code null}
     * @param sql the statement, or {@code null}; shown in the message with its secrets hidden
     * ({@link QueryMasking#mask(String)}), shortened if long
     * @param ex the client exception
     * @return the Spring exception with {@code ex} as its cause, never {@code null}
     */
    public DataAccessException translate(@Nullable String task, @Nullable String sql, ClickHouseException ex) {
        return translate(task, sql, null, Set.of(), ex);
    }

    /**
     * Translates a client exception of one call.
     * @param task what was being done, for example {@code "query"} or {@code "insert"} (a task starting with
     * {@code insert} gets the notes about applied rows), or {@code null}
     * @param sql the statement, or {@code null}; shown in the message and kept as
     * {@link ClickHouseErrorDetails#getSql()} with its secrets hidden ({@link QueryMasking#mask(String)}), shortened
     * in the message if long
     * @param queryId the statement's query_id, or {@code null}
     * @param callSettings names of the settings the call itself sent (beyond the client's default settings)
     * @param ex the client exception
     * @return the Spring exception with {@code ex} as its cause, implementing {@link ClickHouseErrorDetails};
     * never {@code null}
     */
    public DataAccessException translate(@Nullable String task, @Nullable String sql, @Nullable String queryId,
            Collection<String> callSettings, ClickHouseException ex) {
        Category category = categorize(ex);
        String shown = QueryMasking.mask(sql);
        String message = message(task, shown, queryId, callSettings, ex);
        return create(category, message, ex, shown, queryId);
    }

    /**
     * The category of a client exception (see the class description).
     * @param ex the exception
     * @return its category
     */
    static Category categorize(ClickHouseException ex) {
        if (ex instanceof ClickHouseAuthenticationException) {
            return Category.PERMISSION_DENIED;
        }
        if (ex instanceof ClickHouseServerException server) {
            return ClickHouseErrorCodes.category(server.code(), server.serverMessage());
        }
        if (ex instanceof ClickHouseTimeoutException timeout) {
            return switch (timeout.deadline()) {
                case QUERY, SOCKET -> Category.QUERY_TIMEOUT;
                case ACQUIRE -> Category.TRANSIENT_RESOURCE;
                case CONNECT, HANDSHAKE, PING -> Category.RESOURCE_FAILURE;
            };
        }
        if (ex instanceof ClickHouseInterruptedException) {
            return Category.UNCATEGORIZED; // the caller stopped the call: neither a resource failure nor transient
        }
        if (ex instanceof ClickHouseConnectionException connection) {
            if (failedToConnect(connection)
                    || (connection.insertMayHaveBeenApplied() && connection.deduplicationToken() == null)) {
                return Category.RESOURCE_FAILURE;
            }
            return Category.TRANSIENT_RESOURCE;
        }
        if (ex instanceof ClickHouseProtocolException) {
            return Category.NON_TRANSIENT_RESOURCE;
        }
        if (ex instanceof ClickHouseTypeException) {
            return Category.TYPE_MISMATCH;
        }
        if (ex instanceof ClickHouseFeatureNotSupportedException || ex instanceof ClickHouseSessionRequiredException) {
            return Category.INVALID_API_USAGE;
        }
        return Category.UNCATEGORIZED;
    }

    /** Whether the connection was never established: refused, unknown host, no route, TLS failure. */
    private static boolean failedToConnect(ClickHouseConnectionException ex) {
        for (Throwable t = ex.getCause(); t != null; t = t.getCause()) {
            if (t instanceof ConnectException || t instanceof UnknownHostException
                    || t instanceof UnresolvedAddressException || t instanceof NoRouteToHostException
                    || t instanceof PortUnreachableException || t instanceof SSLException) {
                return true;
            }
            if (t == t.getCause()) {
                break;
            }
        }
        return false;
    }

    private static DataAccessException create(Category category, String message, ClickHouseException ex,
            @Nullable String sql, @Nullable String queryId) {
        return switch (category) {
            case BAD_SQL_GRAMMAR -> new ClickHouseBadSqlGrammarException(message, ex, sql, queryId);
            case LIMIT_EXCEEDED -> new ClickHouseLimitExceededException(message, ex, sql, queryId);
            case PERMISSION_DENIED -> new ClickHousePermissionDeniedException(message, ex, sql, queryId);
            case QUERY_TIMEOUT -> new ClickHouseQueryTimeoutException(message, ex, sql, queryId);
            case TRANSIENT_RESOURCE -> new ClickHouseTransientResourceException(message, ex, sql, queryId);
            case RESOURCE_FAILURE -> new ClickHouseResourceFailureException(message, ex, sql, queryId);
            case NON_TRANSIENT_RESOURCE -> new ClickHouseNonTransientResourceException(message, ex, sql, queryId);
            case INVALID_API_USAGE -> new ClickHouseInvalidApiUsageException(message, ex, sql, queryId);
            case DATA_INTEGRITY -> new ClickHouseDataIntegrityViolationException(message, ex, sql, queryId);
            case DUPLICATE_KEY -> new ClickHouseDuplicateKeyException(message, ex, sql, queryId);
            case LOCK_FAILURE -> new ClickHouseLockFailureException(message, ex, sql, queryId);
            case TYPE_MISMATCH -> new ClickHouseTypeMismatchException(message, ex, sql, queryId);
            case UNCATEGORIZED -> new UncategorizedClickHouseException(message, ex, sql, queryId);
        };
    }

    private String message(@Nullable String task, @Nullable String sql, @Nullable String queryId,
            Collection<String> callSettings, ClickHouseException ex) {
        StringBuilder out = new StringBuilder();
        if (task != null) {
            out.append(task).append("; ");
        }
        if (sql != null) {
            out.append('[');
            if (sql.length() > MAX_SQL_IN_MESSAGE) {
                out.append(sql, 0, MAX_SQL_IN_MESSAGE).append("...");
            }
            else {
                out.append(sql);
            }
            out.append("]; ");
        }
        out.append(ex.getMessage());
        if (ex instanceof ClickHouseServerException server) {
            settingNote(out, server, callSettings);
        }
        if (ex instanceof ClickHouseTimeoutException timeout) {
            out.append("; deadline ").append(timeout.deadline()).append(" (")
                .append(timeout.deadline().optionName()).append(' ').append(timeout.timeout()).append(')');
        }
        if (ex instanceof ClickHouseConnectionException connection) {
            insertNote(out, task, connection);
        }
        if (ex instanceof ClickHouseSessionRequiredException) {
            out.append("; with ClickHouseTcpOperations, run it and the statements that need it inside inSession(...)");
        }
        if (queryId != null) {
            out.append("; query_id ").append(queryId);
        }
        return out.toString();
    }

    private void settingNote(StringBuilder out, ClickHouseServerException ex, Collection<String> callSettings) {
        String message = ex.serverMessage();
        if (message == null) {
            return;
        }
        String setting = null;
        if (ex.code() == 115) {
            Matcher matcher = UNKNOWN_SETTING.matcher(message);
            setting = matcher.find() ? matcher.group(1) : null;
            out.append("; the server does not know the setting ");
            out.append((setting != null) ? "'" + setting + "'" : "named above");
        }
        else if (ex.code() == 164 || ex.code() == 452 || ex.code() == 471 || ex.code() == 472) {
            Matcher matcher = QUOTED_NAME.matcher(message);
            setting = matcher.find() ? matcher.group(1) : null;
            if (setting == null || !(callSettings.contains(setting) || this.defaultSettings.contains(setting))) {
                return;
            }
            out.append("; setting '").append(setting).append('\'');
        }
        else {
            return;
        }
        if (setting != null && callSettings.contains(setting)) {
            out.append(", which this call sets");
        }
        else if (setting != null && this.defaultSettings.contains(setting)) {
            out.append(", which comes from the client's default settings (clickhouse.tcp.settings or "
                    + "ClickHouseTcpClient.Builder.setting), sent with every query: remove or correct it there");
        }
    }

    private static void insertNote(StringBuilder out, @Nullable String task, ClickHouseConnectionException ex) {
        String token = ex.deduplicationToken();
        if (ex.insertMayHaveBeenApplied()) {
            out.append("; the insert may have been applied, wholly or in part; ");
            if (token != null) {
                out.append("retrying it with the same rows and deduplication token '").append(token)
                    .append("' is safe");
            }
            else {
                out.append("it had no deduplication token, so retrying it may duplicate rows");
            }
        }
        else if (task != null && task.toLowerCase(Locale.ROOT).startsWith("insert")) {
            out.append("; no row of the insert had reached the server, so it can be retried");
        }
    }
}
