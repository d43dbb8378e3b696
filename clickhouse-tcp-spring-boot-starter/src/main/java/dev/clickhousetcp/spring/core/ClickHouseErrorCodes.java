package dev.clickhousetcp.spring.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * ClickHouse server error codes (ClickHouse {@code src/Common/ErrorCodes.cpp}) that
 * {@link ClickHouseTcpExceptionTranslator} maps to a specific {@code DataAccessException}, each with its
 * name and {@link Category}. The one source of the translation table: the translator, its tests and the
 * table in {@code docs/spring.md} follow it. Immutable and thread-safe.
 */
final class ClickHouseErrorCodes {

    /** What kind of failure a code means; each kind is one Spring exception type. */
    enum Category {

        /** {@link ClickHouseBadSqlGrammarException}: the SQL names something that is not there, or is malformed. */
        BAD_SQL_GRAMMAR,
        /** {@link ClickHouseLimitExceededException}: the query exceeds a limit set for it. */
        LIMIT_EXCEEDED,
        /** {@link ClickHousePermissionDeniedException}: authentication, readonly mode, missing grants. */
        PERMISSION_DENIED,
        /** {@link ClickHouseQueryTimeoutException}: a timeout, or the query was cancelled. */
        QUERY_TIMEOUT,
        /** {@link ClickHouseTransientResourceException}: the server or cluster cannot serve it now; retry later. */
        TRANSIENT_RESOURCE,
        /** {@link ClickHouseResourceFailureException}: the server cannot be reached or is out of a resource. */
        RESOURCE_FAILURE,
        /** {@link ClickHouseNonTransientResourceException}: corrupt data or a protocol violation. */
        NON_TRANSIENT_RESOURCE,
        /** {@link ClickHouseInvalidApiUsageException}: bad arguments, settings or parameters from the caller. */
        INVALID_API_USAGE,
        /** {@link ClickHouseDataIntegrityViolationException}: a value that cannot be parsed or violates a constraint. */
        DATA_INTEGRITY,
        /** {@link ClickHouseDuplicateKeyException}: the server rejected data as a duplicate. */
        DUPLICATE_KEY,
        /** {@link ClickHouseLockFailureException}: a lock could not be taken. */
        LOCK_FAILURE,
        /** {@link ClickHouseTypeMismatchException}: a Java value or class does not fit a ClickHouse type. */
        TYPE_MISMATCH,
        /** {@link UncategorizedClickHouseException}: anything else. */
        UNCATEGORIZED
    }

    /**
     * A code of the table.
     * @param code the error code
     * @param name ClickHouse's name of the code
     * @param category what it is translated to
     */
    record Entry(int code, String name, Category category) {
    }

    /** {@code ... (UNKNOWN_TABLE)} or {@code ... (UNKNOWN_TABLE) (version 26.7.2.1)} at the end of a message. */
    private static final Pattern NAME_SUFFIX = Pattern
        .compile("\\(([A-Z][A-Z0-9_]+)\\)(?:\\s*\\(version [^)]*\\))?\\s*\\.?\\s*$");

    private static final Map<Integer, Entry> ENTRIES;

    static {
        Map<Integer, Entry> m = new LinkedHashMap<>();
        Category c = Category.BAD_SQL_GRAMMAR;
        add(m, c, 8, "THERE_IS_NO_COLUMN");
        add(m, c, 10, "NOT_FOUND_COLUMN_IN_BLOCK");
        add(m, c, 15, "DUPLICATE_COLUMN");
        add(m, c, 16, "NO_SUCH_COLUMN_IN_TABLE");
        add(m, c, 20, "NUMBER_OF_COLUMNS_DOESNT_MATCH");
        add(m, c, 37, "UNKNOWN_ELEMENT_IN_AST");
        add(m, c, 44, "ILLEGAL_COLUMN");
        add(m, c, 46, "UNKNOWN_FUNCTION");
        add(m, c, 47, "UNKNOWN_IDENTIFIER");
        add(m, c, 50, "UNKNOWN_TYPE");
        add(m, c, 51, "EMPTY_LIST_OF_COLUMNS_QUERIED");
        add(m, c, 52, "COLUMN_QUERIED_MORE_THAN_ONCE");
        add(m, c, 56, "UNKNOWN_STORAGE");
        add(m, c, 57, "TABLE_ALREADY_EXISTS");
        add(m, c, 59, "ILLEGAL_TYPE_OF_COLUMN_FOR_FILTER");
        add(m, c, 60, "UNKNOWN_TABLE");
        add(m, c, 62, "SYNTAX_ERROR");
        add(m, c, 63, "UNKNOWN_AGGREGATE_FUNCTION");
        add(m, c, 73, "UNKNOWN_FORMAT");
        add(m, c, 78, "UNKNOWN_TYPE_OF_QUERY");
        add(m, c, 80, "INCORRECT_QUERY");
        add(m, c, 81, "UNKNOWN_DATABASE");
        add(m, c, 82, "DATABASE_ALREADY_EXISTS");
        add(m, c, 119, "ENGINE_REQUIRED");
        add(m, c, 174, "CYCLIC_ALIASES");
        add(m, c, 179, "MULTIPLE_EXPRESSIONS_FOR_ALIAS");
        add(m, c, 182, "ILLEGAL_PREWHERE");
        add(m, c, 183, "UNEXPECTED_EXPRESSION");
        add(m, c, 184, "ILLEGAL_AGGREGATION");
        add(m, c, 206, "ALIAS_REQUIRED");
        add(m, c, 207, "AMBIGUOUS_IDENTIFIER");
        add(m, c, 258, "UNION_ALL_RESULT_STRUCTURES_MISMATCH");
        add(m, c, 336, "UNKNOWN_DATABASE_ENGINE");
        add(m, c, 352, "AMBIGUOUS_COLUMN_NAME");
        add(m, c, 386, "NO_COMMON_TYPE");
        add(m, c, 387, "DICTIONARY_ALREADY_EXISTS");
        add(m, c, 403, "INVALID_JOIN_ON_EXPRESSION");
        add(m, c, 582, "NO_SUCH_PROJECTION_IN_TABLE");
        add(m, c, 609, "FUNCTION_ALREADY_EXISTS");

        c = Category.LIMIT_EXCEEDED;
        add(m, c, 128, "TOO_LARGE_ARRAY_SIZE");
        add(m, c, 131, "TOO_LARGE_STRING_SIZE");
        add(m, c, 158, "TOO_MANY_ROWS");
        add(m, c, 161, "TOO_MANY_COLUMNS");
        add(m, c, 162, "TOO_DEEP_SUBQUERIES");
        add(m, c, 165, "TOO_MANY_TEMPORARY_COLUMNS");
        add(m, c, 166, "TOO_MANY_TEMPORARY_NON_CONST_COLUMNS");
        add(m, c, 167, "TOO_DEEP_AST");
        add(m, c, 168, "TOO_BIG_AST");
        add(m, c, 191, "SET_SIZE_LIMIT_EXCEEDED");
        add(m, c, 229, "QUERY_IS_TOO_LARGE");
        // 241 is a limit of the query itself unless the server-wide or per-user limit was hit: see category()
        add(m, c, 241, "MEMORY_LIMIT_EXCEEDED");
        add(m, c, 290, "LIMIT_EXCEEDED");
        add(m, c, 306, "TOO_DEEP_RECURSION");
        add(m, c, 307, "TOO_MANY_BYTES");
        add(m, c, 359, "TABLE_SIZE_EXCEEDS_MAX_DROP_SIZE_LIMIT");
        add(m, c, 396, "TOO_MANY_ROWS_OR_BYTES");
        add(m, c, 565, "TOO_MANY_PARTITIONS");

        c = Category.PERMISSION_DENIED;
        add(m, c, 164, "READONLY");
        add(m, c, 192, "UNKNOWN_USER");
        add(m, c, 193, "WRONG_PASSWORD");
        add(m, c, 194, "REQUIRED_PASSWORD");
        add(m, c, 195, "IP_ADDRESS_NOT_ALLOWED");
        add(m, c, 291, "DATABASE_ACCESS_DENIED");
        add(m, c, 358, "INTO_OUTFILE_NOT_ALLOWED");
        add(m, c, 392, "QUERY_IS_PROHIBITED");
        add(m, c, 446, "FUNCTION_NOT_ALLOWED");
        add(m, c, 452, "SETTING_CONSTRAINT_VIOLATION");
        add(m, c, 472, "READONLY_SETTING");
        add(m, c, 481, "PATH_ACCESS_DENIED");
        add(m, c, 482, "DICTIONARY_ACCESS_DENIED");
        add(m, c, 497, "ACCESS_DENIED");
        add(m, c, 512, "SET_NON_GRANTED_ROLE");
        add(m, c, 516, "AUTHENTICATION_FAILED");
        add(m, c, 673, "RESOURCE_ACCESS_DENIED");

        c = Category.QUERY_TIMEOUT;
        add(m, c, 159, "TIMEOUT_EXCEEDED");
        add(m, c, 160, "TOO_SLOW");
        add(m, c, 209, "SOCKET_TIMEOUT");
        add(m, c, 394, "QUERY_WAS_CANCELLED");

        c = Category.TRANSIENT_RESOURCE;
        add(m, c, 173, "CANNOT_ALLOCATE_MEMORY");
        add(m, c, 201, "QUOTA_EXCEEDED");
        add(m, c, 202, "TOO_MANY_SIMULTANEOUS_QUERIES");
        add(m, c, 203, "NO_FREE_CONNECTION");
        add(m, c, 210, "NETWORK_ERROR");
        add(m, c, 225, "NO_ZOOKEEPER");
        add(m, c, 236, "ABORTED");
        add(m, c, 242, "TABLE_IS_READ_ONLY");
        add(m, c, 244, "UNEXPECTED_ZOOKEEPER_ERROR");
        add(m, c, 252, "TOO_MANY_PARTS");
        add(m, c, 254, "NO_ACTIVE_REPLICAS");
        add(m, c, 265, "NO_AVAILABLE_REPLICA");
        add(m, c, 279, "ALL_CONNECTION_TRIES_FAILED");
        add(m, c, 285, "TOO_FEW_LIVE_REPLICAS");
        add(m, c, 286, "UNSATISFIED_QUORUM_FOR_PREVIOUS_WRITE");
        add(m, c, 289, "REPLICA_IS_NOT_IN_QUORUM");
        add(m, c, 319, "UNKNOWN_STATUS_OF_INSERT");
        add(m, c, 364, "RECEIVED_ERROR_TOO_MANY_REQUESTS");
        add(m, c, 369, "ALL_REPLICAS_ARE_STALE");
        add(m, c, 410, "EXTERNAL_SERVER_IS_NOT_RESPONDING");
        add(m, c, 415, "ALL_REPLICAS_LOST");
        add(m, c, 416, "REPLICA_STATUS_CHANGED");
        add(m, c, 519, "NO_REMOTE_SHARD_AVAILABLE");
        add(m, c, 999, "KEEPER_EXCEPTION");

        c = Category.RESOURCE_FAILURE;
        add(m, c, 198, "DNS_ERROR");
        add(m, c, 243, "NOT_ENOUGH_SPACE");
        add(m, c, 425, "SYSTEM_ERROR");

        c = Category.NON_TRANSIENT_RESOURCE;
        add(m, c, 33, "CANNOT_READ_ALL_DATA");
        add(m, c, 40, "CHECKSUM_DOESNT_MATCH");
        add(m, c, 99, "UNKNOWN_PACKET_FROM_CLIENT");
        add(m, c, 101, "UNEXPECTED_PACKET_FROM_CLIENT");
        add(m, c, 246, "CORRUPTED_DATA");
        add(m, c, 271, "CANNOT_DECOMPRESS");

        c = Category.INVALID_API_USAGE;
        add(m, c, 1, "UNSUPPORTED_METHOD");
        add(m, c, 2, "UNSUPPORTED_PARAMETER");
        add(m, c, 12, "PARAMETER_OUT_OF_BOUND");
        add(m, c, 34, "TOO_MANY_ARGUMENTS_FOR_FUNCTION");
        add(m, c, 35, "TOO_FEW_ARGUMENTS_FOR_FUNCTION");
        add(m, c, 36, "BAD_ARGUMENTS");
        add(m, c, 42, "NUMBER_OF_ARGUMENTS_DOESNT_MATCH");
        add(m, c, 43, "ILLEGAL_TYPE_OF_ARGUMENT");
        add(m, c, 48, "NOT_IMPLEMENTED");
        add(m, c, 69, "ARGUMENT_OUT_OF_BOUND");
        add(m, c, 108, "NO_DATA_TO_INSERT");
        add(m, c, 115, "UNKNOWN_SETTING");
        add(m, c, 211, "EMPTY_QUERY");
        add(m, c, 215, "NOT_AN_AGGREGATE");
        add(m, c, 216, "QUERY_WITH_SAME_ID_IS_ALREADY_RUNNING");
        add(m, c, 344, "SUPPORT_IS_DISABLED");
        add(m, c, 456, "UNKNOWN_QUERY_PARAMETER");
        add(m, c, 457, "BAD_QUERY_PARAMETER");
        add(m, c, 471, "INVALID_SETTING_VALUE");

        c = Category.DATA_INTEGRITY;
        add(m, c, 6, "CANNOT_PARSE_TEXT");
        add(m, c, 25, "CANNOT_PARSE_ESCAPE_SEQUENCE");
        add(m, c, 26, "CANNOT_PARSE_QUOTED_STRING");
        add(m, c, 27, "CANNOT_PARSE_INPUT_ASSERTION_FAILED");
        add(m, c, 38, "CANNOT_PARSE_DATE");
        add(m, c, 41, "CANNOT_PARSE_DATETIME");
        add(m, c, 53, "TYPE_MISMATCH");
        add(m, c, 70, "CANNOT_CONVERT_TYPE");
        add(m, c, 72, "CANNOT_PARSE_NUMBER");
        add(m, c, 117, "INCORRECT_DATA");
        add(m, c, 153, "ILLEGAL_DIVISION");
        add(m, c, 190, "SIZES_OF_ARRAYS_DONT_MATCH");
        add(m, c, 321, "VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE");
        add(m, c, 349, "CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN");
        add(m, c, 376, "CANNOT_PARSE_UUID");
        add(m, c, 395, "FUNCTION_THROW_IF_VALUE_IS_NON_ZERO");
        add(m, c, 407, "DECIMAL_OVERFLOW");
        add(m, c, 467, "CANNOT_PARSE_BOOL");
        add(m, c, 469, "VIOLATED_CONSTRAINT");
        add(m, c, 675, "CANNOT_PARSE_IPV4");
        add(m, c, 676, "CANNOT_PARSE_IPV6");
        add(m, c, 691, "UNKNOWN_ELEMENT_OF_ENUM");

        add(m, Category.DUPLICATE_KEY, 389, "INSERT_WAS_DEDUPLICATED");

        add(m, Category.LOCK_FAILURE, 384, "PART_IS_TEMPORARILY_LOCKED");
        add(m, Category.LOCK_FAILURE, 473, "DEADLOCK_AVOIDED");
        ENTRIES = Collections.unmodifiableMap(m);
    }

    private ClickHouseErrorCodes() {
    }

    private static void add(Map<Integer, Entry> m, Category category, int code, String name) {
        if (m.put(code, new Entry(code, name, category)) != null) {
            throw new IllegalStateException("error code " + code + " listed twice");
        }
    }

    /**
     * Every code of the table, in table order.
     * @return the entries by code
     */
    static Map<Integer, Entry> entries() {
        return ENTRIES;
    }

    /**
     * The category of a server error.
     * @param code the error code
     * @param serverMessage the server's message, which refines a few codes
     * @return the category, {@link Category#UNCATEGORIZED} for codes not in the table
     */
    static Category category(int code, @Nullable String serverMessage) {
        if (code == 241 && serverMessage != null && isSharedMemoryLimit(serverMessage)) {
            return Category.TRANSIENT_RESOURCE;
        }
        Entry entry = ENTRIES.get(code);
        return (entry != null) ? entry.category() : Category.UNCATEGORIZED;
    }

    /**
     * Whether a MEMORY_LIMIT_EXCEEDED message is about memory shared with other queries (the server's
     * total, or the user's), which frees up when they end, rather than the query's own limit.
     */
    private static boolean isSharedMemoryLimit(String message) {
        String m = message.toLowerCase(java.util.Locale.ROOT);
        return m.contains("(total)") || m.contains("for user") || m.contains("(for user)");
    }

    /**
     * The name of an error code: from the table, else from the {@code (NAME)} suffix newer servers put on
     * their messages.
     * @param code the error code
     * @param serverMessage the server's message, may be {@code null}
     * @return for example {@code UNKNOWN_TABLE}, or {@code null} if unknown
     */
    static @Nullable String name(int code, @Nullable String serverMessage) {
        Entry entry = ENTRIES.get(code);
        if (entry != null) {
            return entry.name();
        }
        if (serverMessage != null) {
            Matcher matcher = NAME_SUFFIX.matcher(serverMessage);
            if (matcher.find()) {
                return matcher.group(1);
            }
        }
        return null;
    }
}
