package dev.clickhousetcp.observe;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observations of the client, their key names and events, as documented in
 * {@code docs/observability.md}. Key names follow OpenTelemetry's semantic conventions for database
 * clients where one exists ({@code db.*}, {@code server.*}, {@code error.type}); the others are
 * ClickHouse's own figures under {@code clickhouse.*}, named as in {@code system.query_log}.
 */
public enum ClickHouseTcpObservationDocumentation implements ObservationDocumentation {

    /**
     * One client call: a query, a statement, an insert or a ping, from before its connection is
     * acquired until its result is fully read or closed (inserts: until the server confirmed the
     * last block or the insert failed).
     */
    OPERATION {
        @Override
        public String getName() {
            return DefaultClickHouseTcpObservationConvention.NAME;
        }

        @Override
        public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
            return DefaultClickHouseTcpObservationConvention.class;
        }

        @Override
        public KeyName[] getLowCardinalityKeyNames() {
            return LowCardinalityKeyNames.values();
        }

        @Override
        public KeyName[] getHighCardinalityKeyNames() {
            return HighCardinalityKeyNames.values();
        }

        @Override
        public Observation.Event[] getEvents() {
            return Events.values();
        }
    };

    /** Keys with a bounded set of values (they become metric tags). Every observation has all of them. */
    public enum LowCardinalityKeyNames implements KeyName {
        /** Always {@code clickhouse}. */
        DB_SYSTEM_NAME {
            @Override
            public String asString() {
                return "db.system.name";
            }
        },
        /**
         * The statement's first keyword, upper case ({@code SELECT}, {@code INSERT}, {@code CREATE}, ...;
         * {@code WITH} counts as {@code SELECT}; a keyword outside the documented list is {@code OTHER});
         * {@code PING} for pings.
         */
        DB_OPERATION_NAME {
            @Override
            public String asString() {
                return "db.operation.name";
            }
        },
        /** The client call: {@code query}, {@code execute}, {@code insert} or {@code ping}. */
        OPERATION {
            @Override
            public String asString() {
                return "clickhouse.operation";
            }
        },
        /** The database the statement ran in (the call's {@code QueryOptions.database} or the client's). */
        DB_NAMESPACE {
            @Override
            public String asString() {
                return "db.namespace";
            }
        },
        /** Host of the server the connection reached ({@code unknown} before a connection was acquired). */
        SERVER_ADDRESS {
            @Override
            public String asString() {
                return "server.address";
            }
        },
        /** Port of that server ({@code unknown} before a connection was acquired). */
        SERVER_PORT {
            @Override
            public String asString() {
                return "server.port";
            }
        },
        /** {@code SUCCESS}, {@code ERROR}, {@code CANCELLED}; {@code UNKNOWN} while the call runs. */
        OUTCOME {
            @Override
            public String asString() {
                return "outcome";
            }
        },
        /**
         * For a server error its ClickHouse error code, as {@code db.response.status_code} ({@code 60}
         * for {@code UNKNOWN_TABLE}), as OpenTelemetry's database conventions ask; for any other
         * exception its fully qualified class name ({@code dev.clickhousetcp.ClickHouseTimeoutException}
         * for a timeout); {@code cancelled} for a call the caller stopped before its end (closed early or
         * {@code QueryResult.cancel()}); {@code none} otherwise.
         */
        ERROR_TYPE {
            @Override
            public String asString() {
                return "error.type";
            }
        },
        /** The ClickHouse error code of a server error ({@code 60}); {@code none} otherwise. */
        DB_RESPONSE_STATUS_CODE {
            @Override
            public String asString() {
                return "db.response.status_code";
            }
        },
        /** The name given to the client ({@code ClickHouseTcpClient.Builder.name}; in Spring Boot its bean name). */
        CLIENT_NAME {
            @Override
            public String asString() {
                return "clickhouse.client.name";
            }
        }
    }

    /**
     * Keys with unbounded values (span attributes only). Which of them an observation has depends on
     * its operation; see {@code docs/observability.md}.
     */
    public enum HighCardinalityKeyNames implements KeyName {
        /**
         * The SQL as the caller gave it (query parameters' values are never part of it), shortened to
         * {@value DefaultClickHouseTcpObservationConvention#MAX_QUERY_TEXT} characters; off with
         * {@code DefaultClickHouseTcpObservationConvention(false)}.
         */
        DB_QUERY_TEXT {
            @Override
            public String asString() {
                return "db.query.text";
            }
        },
        /** The query_id sent with the (last) statement. */
        QUERY_ID {
            @Override
            public String asString() {
                return "clickhouse.query_id";
            }
        },
        /** Rows of the result's data blocks received by the client (queries and statements). */
        DB_RESPONSE_RETURNED_ROWS {
            @Override
            public String asString() {
                return "db.response.returned_rows";
            }
        },
        /** Rows the insert sent (inserts). */
        DB_OPERATION_BATCH_SIZE {
            @Override
            public String asString() {
                return "db.operation.batch.size";
            }
        },
        /** Rows the server read, from its Progress packets. */
        READ_ROWS {
            @Override
            public String asString() {
                return "clickhouse.read_rows";
            }
        },
        /** Uncompressed bytes the server read, from its Progress packets. */
        READ_BYTES {
            @Override
            public String asString() {
                return "clickhouse.read_bytes";
            }
        },
        /** Rows the server wrote, from its Progress packets. */
        WRITTEN_ROWS {
            @Override
            public String asString() {
                return "clickhouse.written_rows";
            }
        },
        /** Uncompressed bytes the server wrote, from its Progress packets. */
        WRITTEN_BYTES {
            @Override
            public String asString() {
                return "clickhouse.written_bytes";
            }
        },
        /** Server-side elapsed time in nanoseconds, from its Progress packets (0 before revision 54460). */
        ELAPSED_NS {
            @Override
            public String asString() {
                return "clickhouse.elapsed_ns";
            }
        }
    }

    /** Events of an observation (span events; Micrometer's meter handler counts them). */
    public enum Events implements Observation.Event {
        /** The first data block with rows arrived (queries and statements): time to first block. */
        FIRST_BLOCK {
            @Override
            public String getName() {
                return "first.block";
            }

            @Override
            public String getContextualName() {
                return "first block";
            }
        },
        /**
         * The client sent the statement again: a transparent retry on another connection, or another
         * attempt of {@code InsertOptions.maxAttempts}.
         */
        RETRY {
            @Override
            public String getName() {
                return "retry";
            }

            @Override
            public String getContextualName() {
                return "retry";
            }
        }
    }
}
