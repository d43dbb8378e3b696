package dev.clickhousetcp.observe;

import dev.clickhousetcp.ClickHouseServerException;
import dev.clickhousetcp.client.Endpoint;
import dev.clickhousetcp.observe.ClickHouseTcpObservationDocumentation.HighCardinalityKeyNames;
import dev.clickhousetcp.observe.ClickHouseTcpObservationDocumentation.LowCardinalityKeyNames;
import dev.clickhousetcp.protocol.Progress;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

/**
 * The default {@link ClickHouseTcpObservationConvention}: observation name
 * {@value #NAME}, contextual (span) name {@code "<operation> <database>"} (e.g. {@code SELECT analytics},
 * {@code PING}), and the key values of {@link ClickHouseTcpObservationDocumentation}.
 *
 * <p>Every observation has every low cardinality key (unknown values are {@code unknown} or {@code none}),
 * so meters of the same name always carry the same tag keys, as Prometheus requires. High cardinality
 * keys by operation: queries and statements {@code db.query.text}, {@code clickhouse.query_id},
 * {@code db.response.returned_rows} and the five progress keys; inserts the same with
 * {@code db.operation.batch.size} instead of {@code db.response.returned_rows}; pings none.
 * {@code clickhouse.query_id} is missing when the call failed before its statement was sent, and
 * {@code db.query.text} when turned off or (for an insert) before its statement was built.
 *
 * <p>Extend it to add or change values; immutable and thread-safe.
 */
public class DefaultClickHouseTcpObservationConvention implements ClickHouseTcpObservationConvention {

    /** The observation name, also the name of the timer Micrometer's meter handler makes of it. */
    public static final String NAME = "clickhouse.tcp.client.operation";

    /** Longest {@code db.query.text} value; longer SQL is cut and ends with {@code "..."}. */
    public static final int MAX_QUERY_TEXT = 4096;

    /** The convention with the query text included. */
    public static final DefaultClickHouseTcpObservationConvention INSTANCE = new DefaultClickHouseTcpObservationConvention(true);

    private static final String UNKNOWN = "unknown";
    private static final String NONE = "none";
    /** {@code error.type} of a call the caller stopped before its end. */
    private static final String CANCELLED = "cancelled";
    private static final KeyValue DB_SYSTEM = KeyValue.of(LowCardinalityKeyNames.DB_SYSTEM_NAME, "clickhouse");

    private final boolean includeQueryText;

    /**
     * A convention.
     *
     * @param includeQueryText whether observations carry {@code db.query.text}
     */
    public DefaultClickHouseTcpObservationConvention(boolean includeQueryText) {
        this.includeQueryText = includeQueryText;
    }

    /**
     * Whether observations carry {@code db.query.text}.
     *
     * @return the {@code includeQueryText} given to the constructor
     */
    public boolean includesQueryText() {
        return includeQueryText;
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(ClickHouseTcpObservationContext context) {
        if (context.getOperation() == ClickHouseTcpOperation.PING) {
            return context.getOperationName();
        }
        return context.getOperationName() + " " + context.getDatabase();
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(ClickHouseTcpObservationContext context) {
        Endpoint endpoint = context.getEndpoint();
        ClickHouseServerException server = context.getServerException();
        String errorType = NONE;
        if (server != null) {
            errorType = Integer.toString(server.code()); // as OpenTelemetry asks: the db.response.status_code
        } else if (context.getError() != null) {
            errorType = context.getError().getClass().getName();
        } else if (context.getOutcome() == ClickHouseTcpObservationContext.Outcome.CANCELLED) {
            errorType = CANCELLED;
        }
        return KeyValues.of(DB_SYSTEM,
                KeyValue.of(LowCardinalityKeyNames.DB_OPERATION_NAME, context.getOperationName()),
                KeyValue.of(LowCardinalityKeyNames.OPERATION, context.getOperation().value()),
                KeyValue.of(LowCardinalityKeyNames.DB_NAMESPACE, context.getDatabase()),
                KeyValue.of(LowCardinalityKeyNames.SERVER_ADDRESS, endpoint == null ? UNKNOWN : endpoint.host()),
                KeyValue.of(LowCardinalityKeyNames.SERVER_PORT, endpoint == null ? UNKNOWN : Integer.toString(endpoint.port())),
                KeyValue.of(LowCardinalityKeyNames.OUTCOME, context.getOutcome().name()),
                KeyValue.of(LowCardinalityKeyNames.ERROR_TYPE, errorType),
                KeyValue.of(LowCardinalityKeyNames.DB_RESPONSE_STATUS_CODE, server == null ? NONE : Integer.toString(server.code())),
                KeyValue.of(LowCardinalityKeyNames.CLIENT_NAME, context.getClientName()));
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(ClickHouseTcpObservationContext context) {
        if (context.getOperation() == ClickHouseTcpOperation.PING) {
            return KeyValues.empty();
        }
        KeyValues values = KeyValues.empty();
        String sql = context.getQueryText();
        if (includeQueryText && sql != null) {
            values = values.and(KeyValue.of(HighCardinalityKeyNames.DB_QUERY_TEXT, shorten(sql)));
        }
        if (context.getQueryId() != null) {
            values = values.and(KeyValue.of(HighCardinalityKeyNames.QUERY_ID, context.getQueryId()));
        }
        if (context.getOperation() == ClickHouseTcpOperation.INSERT) {
            values = values.and(KeyValue.of(HighCardinalityKeyNames.DB_OPERATION_BATCH_SIZE,
                    Long.toString(context.getInsertedRows())));
        } else {
            values = values.and(KeyValue.of(HighCardinalityKeyNames.DB_RESPONSE_RETURNED_ROWS,
                    Long.toString(context.getReturnedRows())));
        }
        Progress p = context.getProgress();
        return values.and(KeyValue.of(HighCardinalityKeyNames.READ_ROWS, Long.toString(p.readRows())),
                KeyValue.of(HighCardinalityKeyNames.READ_BYTES, Long.toString(p.readBytes())),
                KeyValue.of(HighCardinalityKeyNames.WRITTEN_ROWS, Long.toString(p.writtenRows())),
                KeyValue.of(HighCardinalityKeyNames.WRITTEN_BYTES, Long.toString(p.writtenBytes())),
                KeyValue.of(HighCardinalityKeyNames.ELAPSED_NS, Long.toString(p.elapsedNanos())));
    }

    private static String shorten(String sql) {
        return sql.length() <= MAX_QUERY_TEXT ? sql : sql.substring(0, MAX_QUERY_TEXT - 3) + "...";
    }
}
