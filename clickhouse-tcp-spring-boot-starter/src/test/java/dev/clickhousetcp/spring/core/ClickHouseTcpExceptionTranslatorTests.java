package dev.clickhousetcp.spring.core;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import javax.net.ssl.SSLHandshakeException;

import dev.clickhousetcp.ClickHouseAuthenticationException;
import dev.clickhousetcp.ClickHouseConnectionException;
import dev.clickhousetcp.ClickHouseException;
import dev.clickhousetcp.ClickHouseInterruptedException;
import dev.clickhousetcp.ClickHouseFeatureNotSupportedException;
import dev.clickhousetcp.ClickHouseProtocolException;
import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.ClickHouseTimeoutException;
import dev.clickhousetcp.ClickHouseTimeoutException.Deadline;
import dev.clickhousetcp.ClickHouseTypeException;
import dev.clickhousetcp.mapping.MappingException;
import dev.clickhousetcp.spring.core.ClickHouseErrorCodes.Category;
import dev.clickhousetcp.spring.core.ClickHouseErrorCodes.Entry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.dao.CannotAcquireLockException;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.dao.InvalidDataAccessResourceUsageException;
import org.springframework.dao.NonTransientDataAccessResourceException;
import org.springframework.dao.PermissionDeniedDataAccessException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.dao.TypeMismatchDataAccessException;
import org.springframework.dao.UncategorizedDataAccessException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ClickHouseTcpExceptionTranslator} with real exception objects of the client, for every row of the
 * table and every client-side failure; the same rows are provoked on the real server by
 * {@code ClickHouseTcpExceptionTranslationTests}.
 */
class ClickHouseTcpExceptionTranslatorTests {

    private final ClickHouseTcpExceptionTranslator translator = new ClickHouseTcpExceptionTranslator(
            Set.of("max_block_size", "no_such_default"));

    /** The Spring type and our subtype of each category. */
    static Class<? extends DataAccessException> springType(Category category) {
        return switch (category) {
            case BAD_SQL_GRAMMAR, LIMIT_EXCEEDED -> InvalidDataAccessResourceUsageException.class;
            case PERMISSION_DENIED -> PermissionDeniedDataAccessException.class;
            case QUERY_TIMEOUT -> QueryTimeoutException.class;
            case TRANSIENT_RESOURCE -> TransientDataAccessResourceException.class;
            case RESOURCE_FAILURE -> DataAccessResourceFailureException.class;
            case NON_TRANSIENT_RESOURCE -> NonTransientDataAccessResourceException.class;
            case INVALID_API_USAGE -> InvalidDataAccessApiUsageException.class;
            case DATA_INTEGRITY -> DataIntegrityViolationException.class;
            case DUPLICATE_KEY -> DuplicateKeyException.class;
            case LOCK_FAILURE -> CannotAcquireLockException.class;
            case TYPE_MISMATCH -> TypeMismatchDataAccessException.class;
            case UNCATEGORIZED -> UncategorizedDataAccessException.class;
        };
    }

    static Class<? extends DataAccessException> ourType(Category category) {
        return switch (category) {
            case BAD_SQL_GRAMMAR -> ClickHouseBadSqlGrammarException.class;
            case LIMIT_EXCEEDED -> ClickHouseLimitExceededException.class;
            case PERMISSION_DENIED -> ClickHousePermissionDeniedException.class;
            case QUERY_TIMEOUT -> ClickHouseQueryTimeoutException.class;
            case TRANSIENT_RESOURCE -> ClickHouseTransientResourceException.class;
            case RESOURCE_FAILURE -> ClickHouseResourceFailureException.class;
            case NON_TRANSIENT_RESOURCE -> ClickHouseNonTransientResourceException.class;
            case INVALID_API_USAGE -> ClickHouseInvalidApiUsageException.class;
            case DATA_INTEGRITY -> ClickHouseDataIntegrityViolationException.class;
            case DUPLICATE_KEY -> ClickHouseDuplicateKeyException.class;
            case LOCK_FAILURE -> ClickHouseLockFailureException.class;
            case TYPE_MISMATCH -> ClickHouseTypeMismatchException.class;
            case UNCATEGORIZED -> UncategorizedClickHouseException.class;
        };
    }

    static Stream<Entry> entries() {
        return ClickHouseErrorCodes.entries().values().stream();
    }

    private static ClickHouseServerException server(int code, String message) {
        return new ClickHouseServerException(code, "DB::Exception", message, "", null);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("entries")
    void everyServerCodeOfTheTable(Entry entry) {
        ClickHouseServerException cause = server(entry.code(), "failed (" + entry.name() + ") (version 26.7.2.1)");
        DataAccessException ex = this.translator.translate("query", "SELECT 1", "qid-1", Set.of(), cause);
        assertThat(ex).isExactlyInstanceOf(ourType(entry.category()))
            .isInstanceOf(springType(entry.category()))
            .hasCause(cause)
            .hasMessageContaining("query; [SELECT 1]; Code: " + entry.code() + ". DB::Exception: failed")
            .hasMessageEndingWith("; query_id qid-1");
        ClickHouseErrorDetails details = (ClickHouseErrorDetails) ex;
        assertThat(details.getErrorCode()).isEqualTo(entry.code());
        assertThat(details.getErrorName()).isEqualTo(entry.name());
        assertThat(details.getQueryId()).isEqualTo("qid-1");
        assertThat(details.getSql()).isEqualTo("SELECT 1");
        assertThat(details.getClickHouseException()).isSameAs(cause);
    }

    @Test
    void tableIsConsistent() {
        assertThat(ClickHouseErrorCodes.entries()).hasSizeGreaterThan(150);
        for (Entry entry : ClickHouseErrorCodes.entries().values()) {
            assertThat(entry.name()).matches("[A-Z][A-Z0-9_]+");
            assertThat(entry.category()).isNotEqualTo(Category.UNCATEGORIZED);
        }
        // The codes the issue names, each where it asked for it.
        for (int code : new int[] { 62, 47, 60, 81, 46, 16 }) {
            assertThat(ClickHouseErrorCodes.category(code, null)).isEqualTo(Category.BAD_SQL_GRAMMAR);
        }
        for (int code : new int[] { 164, 192, 193, 194, 291, 497, 516 }) {
            assertThat(ClickHouseErrorCodes.category(code, null)).isEqualTo(Category.PERMISSION_DENIED);
        }
        for (int code : new int[] { 159, 209, 394 }) {
            assertThat(ClickHouseErrorCodes.category(code, null)).isEqualTo(Category.QUERY_TIMEOUT);
        }
        for (int code : new int[] { 158, 307, 396, 241 }) {
            assertThat(ClickHouseErrorCodes.category(code, null)).isEqualTo(Category.LIMIT_EXCEEDED);
        }
        for (int code : new int[] { 210, 242, 319, 999 }) {
            assertThat(ClickHouseErrorCodes.category(code, null)).isEqualTo(Category.TRANSIENT_RESOURCE);
        }
        for (int code : new int[] { 115, 36, 43, 215 }) {
            assertThat(ClickHouseErrorCodes.category(code, null)).isEqualTo(Category.INVALID_API_USAGE);
        }
        assertThat(ClickHouseErrorCodes.category(469, null)).isEqualTo(Category.DATA_INTEGRITY);
    }

    @Test
    void memoryLimitOfTheServerOrUserIsTransientAndTheQuerysOwnALimit() {
        assertThat(this.translator.translate("q", null, server(241,
                "(total) memory limit exceeded: would use 10.00 GiB, maximum: 9.00 GiB. (MEMORY_LIMIT_EXCEEDED)")))
            .isInstanceOf(ClickHouseTransientResourceException.class);
        assertThat(this.translator.translate("q", null, server(241,
                "Memory limit (for user) exceeded: would use 5.00 GiB. (MEMORY_LIMIT_EXCEEDED)")))
            .isInstanceOf(ClickHouseTransientResourceException.class);
        assertThat(this.translator.translate("q", null, server(241,
                "Query memory limit exceeded: would use 4.00 KiB, maximum: 1000.00 B. (MEMORY_LIMIT_EXCEEDED)")))
            .isInstanceOf(ClickHouseLimitExceededException.class);
    }

    @Test
    void unknownCodesAreUncategorizedWithTheNameTheServerGives() {
        DataAccessException ex = this.translator.translate("query", "SELECT 1",
                server(597, "No such error code. (NO_SUCH_ERROR_CODE) (version 26.7.2.1)"));
        assertThat(ex).isExactlyInstanceOf(UncategorizedClickHouseException.class);
        assertThat(((ClickHouseErrorDetails) ex).getErrorCode()).isEqualTo(597);
        assertThat(((ClickHouseErrorDetails) ex).getErrorName()).isEqualTo("NO_SUCH_ERROR_CODE");
        assertThat(((ClickHouseErrorDetails) ex).getQueryId()).isNull();
        // ClickHouse 18.x does not name the code in its messages.
        DataAccessException legacy = this.translator.translate(null, null, server(597, "No such error code"));
        assertThat(((ClickHouseErrorDetails) legacy).getErrorName()).isNull();
        assertThat(legacy).hasMessage("Code: 597. DB::Exception: No such error code");
        // The old two-argument constructor still works.
        UncategorizedClickHouseException old = new UncategorizedClickHouseException("m", server(1000, "x"));
        assertThat(old.getErrorCode()).isEqualTo(1000);
        assertThat(old.getSql()).isNull();
    }

    @ParameterizedTest
    @EnumSource(Deadline.class)
    void timeoutsByDeadline(Deadline deadline) {
        ClickHouseTimeoutException cause = new ClickHouseTimeoutException(
                deadline.optionName() + " PT0.25S expired", null, deadline, Duration.ofMillis(250));
        DataAccessException ex = this.translator.translate("query", "SELECT 1", "q", Set.of(), cause);
        Class<? extends DataAccessException> expected = switch (deadline) {
            case QUERY, SOCKET -> ClickHouseQueryTimeoutException.class;
            case ACQUIRE -> ClickHouseTransientResourceException.class;
            case CONNECT, HANDSHAKE, PING -> ClickHouseResourceFailureException.class;
        };
        assertThat(ex).isExactlyInstanceOf(expected)
            .hasCause(cause)
            .hasMessageContaining("; deadline " + deadline + " (" + deadline.optionName() + " PT0.25S)");
        assertThat(((ClickHouseErrorDetails) ex).getErrorCode()).isEqualTo(-1);
        assertThat(((ClickHouseErrorDetails) ex).getErrorName()).isNull();
    }

    @Test
    void connectionFailuresWhileConnectingAreResourceFailures() {
        for (IOException io : List.of(new ConnectException("Connection refused"), new UnknownHostException("nohost"),
                new SSLHandshakeException("PKIX path building failed"))) {
            ClickHouseConnectionException cause = new ClickHouseConnectionException("cannot connect: " + io, io);
            assertThat(this.translator.translate("query", "SELECT 1", cause))
                .isExactlyInstanceOf(ClickHouseResourceFailureException.class);
        }
        ClickHouseConnectionException wrapped = new ClickHouseConnectionException("cannot connect to any of [a, b]",
                new ClickHouseConnectionException("cannot connect to b", new ConnectException("refused")));
        assertThat(this.translator.translate("query", "SELECT 1", wrapped))
            .isExactlyInstanceOf(ClickHouseResourceFailureException.class);
    }

    @Test
    void connectionsBrokenMidExchangeAreTransientUnlessAnInsertMayBeDuplicated() {
        ClickHouseConnectionException query = new ClickHouseConnectionException("connection to h:9000 failed",
                new EOFException("end of stream"));
        assertThat(this.translator.translate("query", "SELECT 1", query))
            .isExactlyInstanceOf(ClickHouseTransientResourceException.class);

        ClickHouseConnectionException notSent = new ClickHouseConnectionException("connection failed",
                new EOFException(), false, null);
        assertThat(this.translator.translate("insert", "INSERT INTO t", notSent))
            .isExactlyInstanceOf(ClickHouseTransientResourceException.class)
            .hasMessageContaining("no row of the insert had reached the server, so it can be retried");

        ClickHouseConnectionException withToken = new ClickHouseConnectionException("connection failed",
                new EOFException(), true, "batch-7");
        DataAccessException safe = this.translator.translate("insert", "INSERT INTO t", withToken);
        assertThat(safe).isExactlyInstanceOf(ClickHouseTransientResourceException.class)
            .hasMessageContaining("the insert may have been applied, wholly or in part")
            .hasMessageContaining("deduplication token 'batch-7' is safe");
        assertThat(((ClickHouseConnectionException) safe.getCause()).deduplicationToken()).isEqualTo("batch-7");

        ClickHouseConnectionException withoutToken = new ClickHouseConnectionException("connection failed",
                new EOFException(), true, null);
        assertThat(this.translator.translate("insert", "INSERT INTO t", withoutToken))
            .isExactlyInstanceOf(ClickHouseResourceFailureException.class)
            .hasMessageContaining("it had no deduplication token, so retrying it may duplicate rows");

        ClickHouseTimeoutException insertTimeout = new ClickHouseTimeoutException("queryTimeout PT1S expired", null,
                Deadline.QUERY, Duration.ofSeconds(1), true, null);
        assertThat(this.translator.translate("insert", "INSERT INTO t", insertTimeout))
            .isExactlyInstanceOf(ClickHouseQueryTimeoutException.class)
            .hasMessageContaining("deadline QUERY (queryTimeout PT1S)")
            .hasMessageContaining("retrying it may duplicate rows");
    }

    @Test
    void otherClientExceptions() {
        ClickHouseServerException wrongPassword = server(516, "tcp_secret: Authentication failed");
        assertThat(this.translator.translate("connect", null, new ClickHouseAuthenticationException(wrongPassword)))
            .isExactlyInstanceOf(ClickHousePermissionDeniedException.class);
        assertThat(this.translator.translate("query", null, new ClickHouseProtocolException("checksum mismatch")))
            .isExactlyInstanceOf(ClickHouseNonTransientResourceException.class);
        assertThat(this.translator.translate("insert", null, new ClickHouseTypeException("value 300 of Int32")))
            .isExactlyInstanceOf(ClickHouseTypeMismatchException.class);
        assertThat(this.translator.translate("query", null, new MappingException("column 'a' -> X.a")))
            .isExactlyInstanceOf(ClickHouseTypeMismatchException.class);
        assertThat(this.translator.translate("query", null,
                new ClickHouseFeatureNotSupportedException("query parameters need protocol revision 54459", 54459,
                        54412)))
            .isExactlyInstanceOf(ClickHouseInvalidApiUsageException.class)
            .hasMessageContaining("protocol revision 54459");
        assertThat(this.translator.translate("query", null, new ClickHouseException("interrupted")))
            .isExactlyInstanceOf(UncategorizedClickHouseException.class);
        assertThat(this.translator.translate("insert", null, new ClickHouseInterruptedException(
                "interrupted (interrupted while the rows were being produced); the connection to h:9000 was closed", null,
                true, null)))
            .isExactlyInstanceOf(UncategorizedClickHouseException.class)
            .hasMessageContaining("may have been applied");
    }

    @Test
    void rejectedSettingsAreNamedWithWhereTheyCameFrom() {
        // ClickHouse 26.7 quotes the name, 18.16 does not.
        assertThat(this.translator.translate("query", "SELECT 1", null, Set.of("no_such_call"),
                server(115, "Unknown setting 'no_such_call'. (UNKNOWN_SETTING)")))
            .isExactlyInstanceOf(ClickHouseInvalidApiUsageException.class)
            .hasMessageContaining("the server does not know the setting 'no_such_call', which this call sets");
        assertThat(this.translator.translate("query", "SELECT 1", null, Set.of(),
                server(115, "Unknown setting no_such_default")))
            .hasMessageContaining("the server does not know the setting 'no_such_default', which comes from the "
                    + "client's default settings (clickhouse.tcp.settings");
        assertThat(this.translator.translate("query", "SELECT 1 SETTINGS x = 1", null, Set.of(),
                server(115, "Unknown setting 'x'. (UNKNOWN_SETTING)")))
            .hasMessageEndingWith("the server does not know the setting 'x'");
        assertThat(this.translator.translate("query", "SELECT 1", null, Set.of(),
                server(164, "Cannot modify 'max_block_size' setting in readonly mode. (READONLY)")))
            .isExactlyInstanceOf(ClickHousePermissionDeniedException.class)
            .hasMessageContaining("setting 'max_block_size', which comes from the client's default settings");
        assertThat(this.translator.translate("query", "SELECT 1", null, Set.of(),
                server(164, "tcp_readonly: Cannot execute query in readonly mode. (READONLY)")))
            .hasMessageEndingWith("Cannot execute query in readonly mode. (READONLY)");
        // Without the client's settings, only the call's are known.
        assertThat(new ClickHouseTcpExceptionTranslator().translate("query", null,
                server(115, "Unknown setting no_such_default")))
            .hasMessageEndingWith("the server does not know the setting 'no_such_default'");
    }

    @Test
    void persistenceExceptionTranslatorContract() {
        assertThat(this.translator.translateExceptionIfPossible(new IllegalStateException("not ours"))).isNull();
        DataAccessException ex = this.translator.translateExceptionIfPossible(server(60, "Table x does not exist"));
        assertThat(ex).isExactlyInstanceOf(ClickHouseBadSqlGrammarException.class)
            .hasMessage("Code: 60. DB::Exception: Table x does not exist");
    }

    @Test
    void longStatementsAreShortenedInTheMessage() {
        String sql = "SELECT '" + "x".repeat(5000) + "'";
        DataAccessException ex = this.translator.translate("query", sql, server(62, "Syntax error"));
        assertThat(ex.getMessage()).hasSizeLessThan(1100).contains("...]; Code: 62.");
        assertThat(((ClickHouseErrorDetails) ex).getSql()).isEqualTo(sql);
    }
}
