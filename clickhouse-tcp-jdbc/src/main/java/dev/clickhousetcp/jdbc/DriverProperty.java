package dev.clickhousetcp.jdbc;

import java.sql.DriverPropertyInfo;
import java.util.Locale;
import java.util.Properties;

/**
 * The driver's connection properties, each also accepted as a URL query parameter (a property given in
 * the {@link Properties} wins over the same URL parameter). Listed by {@link ClickHouseDriver#getPropertyInfo}.
 */
enum DriverProperty {
    USER("user", "default", "The ClickHouse user."),
    PASSWORD("password", "", "The user's password (never logged nor shown in messages)."),
    DATABASE("database", "default", "The database unqualified names refer to (the URL path wins when both are given)."),
    SSL("ssl", "false", "Connect with TLS through the JVM's trust store (the same as the tcps:// scheme).",
            "true", "false"),
    SSL_ROOT_CERT("sslrootcert", "", "A PEM file of the CA certificates to trust instead of the JVM's trust store."),
    COMPRESSION("compression", "lz4", "Network compression of Data blocks.", "none", "lz4", "zstd"),
    CONNECT_TIMEOUT("connectTimeout", "10000", "Milliseconds to establish the TCP connection."),
    SOCKET_TIMEOUT("socketTimeout", "300000",
            "Milliseconds of silence on the connection while an answer is due before it is aborted (0: none)."),
    QUERY_TIMEOUT("queryTimeout", "0",
            "Default Statement query timeout in seconds (0: none); a client deadline, not a server setting."),
    CLIENT_NAME("clientName", "clickhouse-tcp-jdbc", "The client name reported to the server (system.query_log)."),
    TRANSACTION_MODE("transactionMode", "emulate",
            "emulate: setAutoCommit(false), commit and rollback are accepted (ClickHouse has no transactions); "
                    + "strict: they throw SQLFeatureNotSupportedException.", "emulate", "strict"),
    DATABASE_TERM("databaseTerm", "schema",
            "Whether a ClickHouse database is a JDBC schema or a JDBC catalog.", "schema", "catalog"),
    PARAMETER_MODE("parameterMode", "auto",
            "How ? parameters are sent: server (typed query parameters), literal (escaped SQL literals) or "
                    + "auto (server parameters where the server takes them; literals for DDL, SET and servers "
                    + "below protocol revision 54459, such as 18.16).", "auto", "server", "literal"),
    MULTI_STATEMENT("multiStatement", "reject",
            "reject: a statement text holding several statements fails; split: they run one after the other.",
            "reject", "split"),
    INSERT_BLOCK_ROWS("insertBlockRows", "65536", "Rows per native Data block sent by executeBatch."),
    BUSY_BUFFER_BYTES("busyBufferBytes", "67108864",
            "Bytes of a streaming ResultSet read into memory when another statement needs its connection; "
                    + "beyond them that statement fails with SQLState 24000."),
    MAX_POOL_SIZE("maxPoolSize", "10",
            "Connections of ClickHousePooledDataSource (ignored by the Driver and ClickHouseDataSource)."),
    ;

    /** The prefix of URL parameters and properties passed to the server as ClickHouse settings. */
    static final String SETTING_PREFIX = "setting.";

    final String key;
    final String defaultValue;
    final String description;
    final String[] choices;

    DriverProperty(String key, String defaultValue, String description, String... choices) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.description = description;
        this.choices = choices.length == 0 ? null : choices;
    }

    /** The property with this key (case-insensitive), or {@code null}. */
    static DriverProperty of(String key) {
        for (DriverProperty p : values()) {
            if (p.key.equalsIgnoreCase(key)) {
                return p;
            }
        }
        return null;
    }

    DriverPropertyInfo info(String value) {
        DriverPropertyInfo info = new DriverPropertyInfo(key, this == PASSWORD ? null : value);
        info.description = description + " Default: " + (defaultValue.isEmpty() ? "none" : defaultValue) + ".";
        info.choices = choices;
        info.required = false;
        return info;
    }

    /** The value in lower case, checked against the choices. */
    String choice(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (choices != null) {
            for (String c : choices) {
                if (c.equals(v)) {
                    return v;
                }
            }
            throw new IllegalArgumentException("property " + key + " must be one of " + String.join(", ", choices)
                    + ", not '" + value + "'");
        }
        return v;
    }
}
