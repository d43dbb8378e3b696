package dev.clickhousetcp.jdbc;

import dev.clickhousetcp.data.Block;
import dev.clickhousetcp.data.Column;
import dev.clickhousetcp.data.ColumnWriter;
import dev.clickhousetcp.data.DataType;
import dev.clickhousetcp.data.DataTypes;
import dev.clickhousetcp.data.DecodeLimits;
import dev.clickhousetcp.data.Lifetime;
import dev.clickhousetcp.data.ReadContext;
import dev.clickhousetcp.io.BinaryReader;
import dev.clickhousetcp.io.BinaryWriter;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.RowIdLifetime;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Database facts of a connection: product and driver names and versions, the URL (password hidden), the user,
 * the identifier rules (case-sensitive, stored as written), the database term of the {@code databaseTerm}
 * property, and the metadata result sets ({@code getTables}, {@code getColumns}, {@code getPrimaryKeys}...) read
 * from the server's {@code system.*} tables with one short query of plain columns per call (filtered on the
 * server by the call's names and patterns); the JDBC columns ({@code DATA_TYPE}, {@code COLUMN_SIZE},
 * {@code NULLABLE}...), the order JDBC documents and the table types are computed in the driver, and results that
 * are always empty (foreign keys, procedures...) need no query.
 *
 * <p>In {@code databaseTerm=schema} (the default) a ClickHouse database is a JDBC schema: {@code getSchemas}
 * lists the databases, {@code TABLE_SCHEM} is the database, {@code TABLE_CAT} null, {@code getCatalogs} empty,
 * and a non-empty catalog argument matches nothing. In {@code databaseTerm=catalog} the database is a catalog:
 * {@code getCatalogs} lists them, {@code TABLE_CAT} is the database, {@code TABLE_SCHEM} null, {@code getSchemas}
 * empty, and a schema pattern matches only if it matches the empty string, or, when the catalog argument is null,
 * names the database (as jOOQ's runtime meta passes it). Pattern arguments are LIKE patterns
 * ({@code %}, {@code _}, escape {@code \}) sent as escaped string literals; null means any.
 *
 * <p>Columns of the system tables that old servers lack (18.16: {@code system.columns.position},
 * {@code system.tables.comment}, {@code system.data_skipping_indices}, {@code system.functions.description})
 * are looked up once per server build and user and left out when absent; booleans are {@code UInt8} values
 * ({@code getObject} a {@link Short}) on servers without the Bool type (before 21.12). The result sets are the
 * driver's ordinary forward-only ResultSets over a block the driver builds (same getters, conversions,
 * {@code getObject} classes and {@code getMetaData}; closing one closes its statement). Safe to share between
 * threads as the connection is.
 */
final class ClickHouseDatabaseMetaData implements DatabaseMetaData {
    private final ClickHouseJdbcConnection conn;

    ClickHouseDatabaseMetaData(ClickHouseJdbcConnection conn) {
        this.conn = conn;
    }

    @Override
    public String getDatabaseProductName() {
        return "ClickHouse";
    }

    @Override
    public String getDatabaseProductVersion() {
        return conn.hello.version();
    }

    @Override
    public int getDatabaseMajorVersion() {
        return (int) conn.hello.versionMajor();
    }

    @Override
    public int getDatabaseMinorVersion() {
        return (int) conn.hello.versionMinor();
    }

    @Override
    public String getDriverName() {
        return ClickHouseDriver.NAME;
    }

    @Override
    public String getDriverVersion() {
        return ClickHouseDriver.VERSION;
    }

    @Override
    public int getDriverMajorVersion() {
        return ClickHouseDriver.MAJOR_VERSION;
    }

    @Override
    public int getDriverMinorVersion() {
        return ClickHouseDriver.MINOR_VERSION;
    }

    @Override
    public int getJDBCMajorVersion() {
        return 4;
    }

    @Override
    public int getJDBCMinorVersion() {
        return 3;
    }

    /** The connection's URL with the password hidden. */
    @Override
    public String getURL() {
        return conn.config.safeUrl();
    }

    @Override
    public String getUserName() {
        return conn.config.user();
    }

    @Override
    public Connection getConnection() {
        return conn;
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        return conn.isReadOnly();
    }

    // identifiers: case-sensitive, stored as written, quoted or not

    @Override
    public boolean supportsMixedCaseIdentifiers() {
        return true;
    }

    @Override
    public boolean storesUpperCaseIdentifiers() {
        return false;
    }

    @Override
    public boolean storesLowerCaseIdentifiers() {
        return false;
    }

    @Override
    public boolean storesMixedCaseIdentifiers() {
        return false;
    }

    @Override
    public boolean supportsMixedCaseQuotedIdentifiers() {
        return true;
    }

    @Override
    public boolean storesUpperCaseQuotedIdentifiers() {
        return false;
    }

    @Override
    public boolean storesLowerCaseQuotedIdentifiers() {
        return false;
    }

    @Override
    public boolean storesMixedCaseQuotedIdentifiers() {
        return false;
    }

    @Override
    public String getIdentifierQuoteString() {
        return "`";
    }

    @Override
    public String getSearchStringEscape() {
        return "\\";
    }

    @Override
    public String getCatalogTerm() {
        return conn.catalogTerm() ? "database" : "catalog";
    }

    @Override
    public String getSchemaTerm() {
        return conn.catalogTerm() ? "schema" : "database";
    }

    @Override
    public String getCatalogSeparator() {
        return ".";
    }

    @Override
    public boolean isCatalogAtStart() {
        return true;
    }

    @Override
    public boolean supportsTransactions() {
        return false;
    }

    @Override
    public int getDefaultTransactionIsolation() {
        return Connection.TRANSACTION_NONE;
    }

    @Override
    public boolean supportsTransactionIsolationLevel(int level) {
        return level == Connection.TRANSACTION_NONE;
    }

    @Override
    public boolean supportsBatchUpdates() {
        return true;
    }

    @Override
    public boolean supportsResultSetType(int type) {
        return type == ResultSet.TYPE_FORWARD_ONLY;
    }

    @Override
    public boolean supportsResultSetConcurrency(int type, int concurrency) {
        return type == ResultSet.TYPE_FORWARD_ONLY && concurrency == ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public boolean supportsResultSetHoldability(int holdability) {
        return holdability == ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public int getResultSetHoldability() {
        return ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public int getSQLStateType() {
        return sqlStateSQL;
    }

    @Override
    public RowIdLifetime getRowIdLifetime() {
        return RowIdLifetime.ROWID_UNSUPPORTED;
    }

    @Override
    public boolean nullsAreSortedHigh() {
        return false;
    }

    @Override
    public boolean supportsSchemasInDataManipulation() {
        return !conn.catalogTerm();
    }

    @Override
    public boolean supportsSchemasInTableDefinitions() {
        return !conn.catalogTerm();
    }

    @Override
    public boolean supportsSchemasInIndexDefinitions() {
        return !conn.catalogTerm();
    }

    @Override
    public boolean supportsSchemasInPrivilegeDefinitions() {
        return !conn.catalogTerm();
    }

    @Override
    public boolean supportsSchemasInProcedureCalls() {
        return false;
    }

    @Override
    public boolean supportsCatalogsInDataManipulation() {
        return conn.catalogTerm();
    }

    @Override
    public boolean supportsCatalogsInTableDefinitions() {
        return conn.catalogTerm();
    }

    @Override
    public boolean supportsCatalogsInIndexDefinitions() {
        return conn.catalogTerm();
    }

    @Override
    public boolean supportsCatalogsInPrivilegeDefinitions() {
        return conn.catalogTerm();
    }

    @Override
    public boolean supportsCatalogsInProcedureCalls() {
        return false;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return Wrappers.unwrap(iface, this);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return Wrappers.isWrapperFor(iface, this);
    }

    // ------------------------------------------------------------------ SQL capabilities

    @Override
    public boolean allProceduresAreCallable() throws SQLException {
        return false;
    }

    @Override
    public boolean allTablesAreSelectable() throws SQLException {
        return false;
    }

    @Override
    public boolean autoCommitFailureClosesAllResultSets() throws SQLException {
        return false;
    }

    @Override
    public boolean dataDefinitionCausesTransactionCommit() throws SQLException {
        return false;
    }

    @Override
    public boolean dataDefinitionIgnoredInTransactions() throws SQLException {
        return false;
    }

    @Override
    public boolean deletesAreDetected(int a0) throws SQLException {
        return false;
    }

    @Override
    public boolean doesMaxRowSizeIncludeBlobs() throws SQLException {
        return false;
    }

    @Override
    public boolean generatedKeyAlwaysReturned() throws SQLException {
        return false;
    }









    @Override
    public String getExtraNameCharacters() throws SQLException {
        return "";
    }





    @Override
    public int getMaxBinaryLiteralLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxCatalogNameLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxCharLiteralLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxColumnNameLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxColumnsInGroupBy() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxColumnsInIndex() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxColumnsInOrderBy() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxColumnsInSelect() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxColumnsInTable() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxConnections() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxCursorNameLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxIndexLength() throws SQLException {
        return 0;
    }

    @Override
    public long getMaxLogicalLobSize() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxProcedureNameLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxRowSize() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxSchemaNameLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxStatementLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxStatements() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxTableNameLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxTablesInSelect() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxUserNameLength() throws SQLException {
        return 0;
    }

    /** The Open Group CLI math function names the server has as functions (one query to {@code system.functions}). */
    @Override
    public String getNumericFunctions() throws SQLException {
        return available("ABS", "ACOS", "ASIN", "ATAN", "ATAN2", "CEILING", "COS", "COT", "DEGREES", "EXP",
                "FLOOR", "LOG", "LOG10", "MOD", "PI", "POWER", "RADIANS", "RAND", "ROUND", "SIGN", "SIN", "SQRT", "TAN",
                "TRUNCATE");
    }



    @Override
    public String getProcedureTerm() throws SQLException {
        return "procedure";
    }



    @Override
    public String getSQLKeywords() throws SQLException {
        return SQL_KEYWORDS;
    }



    /** The Open Group CLI string function names the server has as functions (one query to {@code system.functions}). */
    @Override
    public String getStringFunctions() throws SQLException {
        return available("ASCII", "CHAR", "CONCAT", "DIFFERENCE", "INSERT", "LCASE", "LEFT", "LENGTH",
                "LOCATE", "LTRIM", "REPEAT", "REPLACE", "RIGHT", "RTRIM", "SOUNDEX", "SPACE", "SUBSTRING", "UCASE");
    }



    /** The Open Group CLI system function names the server has as functions (one query to {@code system.functions}). */
    @Override
    public String getSystemFunctions() throws SQLException {
        return available("DATABASE", "IFNULL", "USER");
    }




    /** The Open Group CLI date and time function names the server has as functions (one query to {@code system.functions}). */
    @Override
    public String getTimeDateFunctions() throws SQLException {
        return available("CURDATE", "CURTIME", "DAYNAME", "DAYOFMONTH", "DAYOFWEEK", "DAYOFYEAR",
                "HOUR", "MINUTE", "MONTH", "MONTHNAME", "NOW", "QUARTER", "SECOND", "TIMESTAMPADD", "TIMESTAMPDIFF", "WEEK",
                "YEAR");
    }




    @Override
    public boolean insertsAreDetected(int a0) throws SQLException {
        return false;
    }

    @Override
    public boolean locatorsUpdateCopy() throws SQLException {
        return false;
    }

    @Override
    public boolean nullPlusNonNullIsNull() throws SQLException {
        return true;
    }

    /** NULLs sort last in both directions unless NULLS FIRST is asked (ClickHouse's ORDER BY default). */
    @Override
    public boolean nullsAreSortedAtEnd() throws SQLException {
        return true;
    }

    @Override
    public boolean nullsAreSortedAtStart() throws SQLException {
        return false;
    }

    @Override
    public boolean nullsAreSortedLow() throws SQLException {
        return false;
    }

    @Override
    public boolean othersDeletesAreVisible(int a0) throws SQLException {
        return false;
    }

    @Override
    public boolean othersInsertsAreVisible(int a0) throws SQLException {
        return false;
    }

    @Override
    public boolean othersUpdatesAreVisible(int a0) throws SQLException {
        return false;
    }

    @Override
    public boolean ownDeletesAreVisible(int a0) throws SQLException {
        return false;
    }

    @Override
    public boolean ownInsertsAreVisible(int a0) throws SQLException {
        return false;
    }

    @Override
    public boolean ownUpdatesAreVisible(int a0) throws SQLException {
        return false;
    }

    @Override
    public boolean supportsANSI92EntryLevelSQL() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsANSI92FullSQL() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsANSI92IntermediateSQL() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsAlterTableWithAddColumn() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsAlterTableWithDropColumn() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsColumnAliasing() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsConvert() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsConvert(int a0, int a1) throws SQLException {
        return false;
    }

    @Override
    public boolean supportsCoreSQLGrammar() throws SQLException {
        return false;
    }

    /** True from ClickHouse 25.8 on (18.16 refuses the syntax); see {@link #modernSql()}. */
    @Override
    public boolean supportsCorrelatedSubqueries() throws SQLException {
        return modernSql();
    }

    @Override
    public boolean supportsDataDefinitionAndDataManipulationTransactions() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsDataManipulationTransactionsOnly() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsDifferentTableCorrelationNames() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsExpressionsInOrderBy() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsExtendedSQLGrammar() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsFullOuterJoins() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsGetGeneratedKeys() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsGroupBy() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsGroupByBeyondSelect() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsGroupByUnrelated() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsIntegrityEnhancementFacility() throws SQLException {
        return false;
    }

    /** True from ClickHouse 25.8 on (18.16 refuses the syntax); see {@link #modernSql()}. */
    @Override
    public boolean supportsLikeEscapeClause() throws SQLException {
        return modernSql();
    }

    @Override
    public boolean supportsLimitedOuterJoins() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsMinimumSQLGrammar() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsMultipleOpenResults() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsMultipleResultSets() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsMultipleTransactions() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsNamedParameters() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsNonNullableColumns() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsOpenCursorsAcrossCommit() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsOpenCursorsAcrossRollback() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsOpenStatementsAcrossCommit() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsOpenStatementsAcrossRollback() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsOrderByUnrelated() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsOuterJoins() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsPositionedDelete() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsPositionedUpdate() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsRefCursors() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsSavepoints() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsSelectForUpdate() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsSharding() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsStatementPooling() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsStoredFunctionsUsingCallSyntax() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsStoredProcedures() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsSubqueriesInComparisons() throws SQLException {
        return true;
    }

    /** True from ClickHouse 25.8 on (18.16 refuses the syntax); see {@link #modernSql()}. */
    @Override
    public boolean supportsSubqueriesInExists() throws SQLException {
        return modernSql();
    }

    @Override
    public boolean supportsSubqueriesInIns() throws SQLException {
        return true;
    }

    /** True from ClickHouse 25.8 on (18.16 refuses the syntax); see {@link #modernSql()}. */
    @Override
    public boolean supportsSubqueriesInQuantifieds() throws SQLException {
        return modernSql();
    }

    @Override
    public boolean supportsTableCorrelationNames() throws SQLException {
        return true;
    }

    /** True from ClickHouse 25.8 on (18.16 refuses the syntax); see {@link #modernSql()}. */
    @Override
    public boolean supportsUnion() throws SQLException {
        return modernSql();
    }

    @Override
    public boolean supportsUnionAll() throws SQLException {
        return true;
    }

    @Override
    public boolean updatesAreDetected(int a0) throws SQLException {
        return false;
    }

    @Override
    public boolean usesLocalFilePerTable() throws SQLException {
        return false;
    }

    @Override
    public boolean usesLocalFiles() throws SQLException {
        return false;
    }


    /**
     * ClickHouse keywords that are not SQL:2003 keywords (per ClickHouse's parser, src/Parsers/CommonParsers.h),
     * so tools quote identifiers spelled like them.
     */
    private static final String SQL_KEYWORDS = String.join(",", "ALIAS", "ANTI", "ARRAY", "ASOF", "ATTACH",
            "CLUSTER", "CODEC", "DATABASES", "DETACH", "DICTIONARIES", "DICTIONARY", "ENGINE", "EPHEMERAL",
            "EXCHANGE", "EXPLAIN", "FINAL", "FORMAT", "GLOBAL", "GRANULARITY", "ILIKE", "INTERPOLATE", "KILL", "LIMIT",
            "LIVE", "MATERIALIZED", "MODIFY", "MOVE", "MUTATION", "OFFSET", "OPTIMIZE", "OUTFILE", "PARTITION",
            "POPULATE", "PREWHERE", "QUALIFY", "RENAME", "REPLACE", "SAMPLE", "SEMI", "SETTINGS", "SHOW", "SYNC",
            "SYSTEM", "TABLES", "TOTALS", "TRUNCATE", "TTL", "USE", "VIEW", "WATCH");

    /**
     * Whether the server takes {@code EXISTS (subquery)}, {@code UNION DISTINCT}, {@code ANY/ALL (subquery)},
     * correlated subqueries and {@code LIKE ... ESCAPE}: true from ClickHouse 25.8 (checked on 26.7), false
     * before (18.16 refuses each; versions in between are answered conservatively).
     */
    private boolean modernSql() {
        long major = conn.hello.versionMajor();
        return major > 25 || major == 25 && conn.hello.versionMinor() >= 8;
    }

    /** The candidates that name a function of the server (exactly in lower case, or a case-insensitive one). */
    private String available(String... candidates) throws SQLException {
        StringBuilder list = new StringBuilder();
        for (String c : candidates) {
            list.append(list.length() == 0 ? "" : ", ").append(lit(c.toLowerCase(java.util.Locale.ROOT)));
        }
        List<String> found = strings("SELECT upper(c) FROM (SELECT arrayJoin([" + list + "]) AS c) WHERE c IN "
                + "(SELECT name FROM system.functions) OR c IN (SELECT lower(name) FROM system.functions WHERE "
                + "case_insensitive != 0)");
        return String.join(",", found);
    }

    // ------------------------------------------------------------------ result sets, from system.* tables

    private static final String STR = "Nullable(String)";
    private static final String INT = "Nullable(Int32)";
    private static final String SHORT = "Nullable(Int16)";
    private static final String LONG = "Nullable(Int64)";
    private static final String BOOL = "Nullable(Bool)";
    /** The table types {@link #getTables} reports, in their order (that of {@link #getTableTypes}). */
    private static final List<String> TABLE_TYPES = List.of("DICTIONARY", "LOCAL TEMPORARY", "MATERIALIZED VIEW",
            "SYSTEM TABLE", "TABLE", "VIEW");

    /** The databases whose tables are {@code SYSTEM TABLE}s. */
    private static final Set<String> SYSTEM_DATABASES = Set.of("system", "INFORMATION_SCHEMA", "information_schema");

    /**
     * {@code system.<table>} columns (18.16 lacks several) by server name, version, protocol revision, user and
     * URL (a user may see fewer): one build has one set, so the first connection asks and later ones (a tool
     * opens several) do not.
     */
    private static final java.util.concurrent.ConcurrentMap<String, Set<String>> SYSTEM_COLUMNS =
            new java.util.concurrent.ConcurrentHashMap<>();

    private Set<String> systemColumns() throws SQLException {
        String build = conn.hello.name() + " " + conn.hello.version() + " " + conn.hello.revision() + " "
                + conn.config.user() + " " + conn.config.safeUrl();
        Set<String> s = SYSTEM_COLUMNS.get(build);
        if (s == null) {
            s = new HashSet<>();
            try (Statement st = conn.createStatement();
                 ResultSet rs = st.executeQuery("SELECT table, name FROM system.columns WHERE database = 'system' "
                         + "AND table IN ('columns', 'tables', 'functions', 'data_skipping_indices')")) {
                while (rs.next()) {
                    s.add(rs.getString(1) + "." + rs.getString(2));
                }
            }
            if (SYSTEM_COLUMNS.size() < 64) {
                SYSTEM_COLUMNS.putIfAbsent(build, Set.copyOf(s));
            }
        }
        return s;
    }

    private boolean has(String tableColumn) throws SQLException {
        return systemColumns().contains(tableColumn);
    }

    /** Whether the server has the Bool type (ClickHouse 21.12 and later); else booleans come as UInt8. */
    private boolean hasBool() {
        long major = conn.hello.versionMajor();
        return major > 21 || major == 21 && conn.hello.versionMinor() >= 12;
    }

    private String type(String type) {
        return type.equals(BOOL) && !hasBool() ? "Nullable(UInt8)" : type;
    }

    private static String lit(String s) throws SQLException {
        return JdbcValues.literal(s, false);
    }

    /**
     * The rows of a plain query, each value as {@code getObject} gives it (String, Short for UInt8, Integer,
     * Long...).
     */
    private List<Object[]> query(String sql) throws SQLException {
        List<Object[]> out = new ArrayList<>();
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                Object[] row = new Object[n];
                for (int i = 0; i < n; i++) {
                    row[i] = rs.getObject(i + 1);
                }
                out.add(row);
            }
        }
        return out;
    }

    /**
     * A result the driver builds itself: the columns {@code name type} given in pairs (ClickHouse types, so that
     * getters, {@code getObject} classes and {@code getMetaData} are those of every other result of the driver),
     * holding {@code rows} in their order. The values are written and read back through the types' own native
     * column codecs into a detached block; a Boolean becomes 1 or 0 where the server has no Bool type. The
     * statement behind it closes with it.
     */
    private ResultSet result(String[] columns, List<Object[]> rows) throws SQLException {
        Block block = rows.isEmpty() ? EMPTY.computeIfAbsent(type(BOOL) + " " + String.join(" ", columns),
                k -> block(columns, rows)) : block(columns, rows);
        ClickHouseStatement st = (ClickHouseStatement) conn.createStatement();
        st.closeOnCompletion();
        return ClickHouseResultSet.of(st, block);
    }

    /** The empty blocks by shape (DBeaver asks for the foreign keys of every table): no rows, so shareable. */
    private static final java.util.concurrent.ConcurrentMap<String, Block> EMPTY =
            new java.util.concurrent.ConcurrentHashMap<>();

    /** The detached block of {@link #result}. */
    private Block block(String[] columns, List<Object[]> rows) {
        int n = columns.length / 2;
        String[] names = new String[n];
        Column[] cols = new Column[n];
        boolean bools = hasBool();
        try {
            for (int i = 0; i < n; i++) {
                names[i] = columns[2 * i];
                DataType type = DataTypes.parse(type(columns[2 * i + 1]), ZoneOffset.UTC);
                ColumnWriter w = type.newWriter();
                for (Object[] r : rows) {
                    w.append(!bools && r[i] instanceof Boolean bool ? (short) (bool ? 1 : 0) : r[i]);
                }
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                BinaryWriter out = new BinaryWriter(bytes, 8192);
                w.writePrefix(out);
                w.writeData(out);
                out.flush();
                BinaryReader in = new BinaryReader(new ByteArrayInputStream(bytes.toByteArray()), 8192,
                        DecodeLimits.DEFAULT.maxStringBytes());
                // revision 0: these types' layout depends on no protocol feature; no pool: a detached block
                ReadContext ctx = new ReadContext(DecodeLimits.DEFAULT, ZoneOffset.UTC, 0, null);
                cols[i] = type.read(in, rows.size(), ctx, type.readPrefix(in));
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("in-memory streams do not fail", e);
        }
        return new Block(names, cols, rows.size(), Lifetime.FOREVER);
    }

    /** An empty result with the columns {@code name type} given in pairs, answered without the server. */
    private ResultSet empty(String... columns) throws SQLException {
        return result(columns, List.of());
    }

    /**
     * Sorts rows by the values at {@code keys}, in order: strings by code point (the order of their UTF-8
     * bytes, as ClickHouse sorts them), numbers by value, NULL last. Stable.
     */
    private static void sort(List<Object[]> rows, int... keys) {
        rows.sort((x, y) -> {
            for (int k : keys) {
                int c = compareValues(x[k], y[k]);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        });
    }

    private static int compareValues(Object a, Object b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : 1) : -1;
        }
        if (a instanceof Number x && b instanceof Number y) {
            return Long.compare(x.longValue(), y.longValue());
        }
        String s = a.toString();
        String t = b.toString();
        int i = 0;
        int j = 0;
        while (i < s.length() && j < t.length()) {
            int p = s.codePointAt(i);
            int q = t.codePointAt(j);
            if (p != q) {
                return Integer.compare(p, q);
            }
            i += Character.charCount(p);
            j += Character.charCount(q);
        }
        return Integer.compare(s.length() - i, t.length() - j);
    }

    /** The {@code TABLE_CAT} value of a database: itself in catalog mode, else null. */
    private String cat(String database) {
        return conn.catalogTerm() ? database : null;
    }

    /** The {@code TABLE_SCHEM} value of a database: itself in schema mode, else null. */
    private String schem(String database) {
        return conn.catalogTerm() ? null : database;
    }

    /** Whether a LIKE pattern matches the empty string (the schema of catalog mode, the catalog of schema mode). */
    private static boolean matchesEmpty(String pattern) {
        return pattern == null || pattern.chars().allMatch(c -> c == '%');
    }

    /**
     * The condition on the database column {@code col} for a method's catalog and schema arguments: in schema
     * mode the schema is the database and the catalog must be null or empty; in catalog mode the catalog is the
     * database and the schema must be null or match the empty string, except that with a null catalog a schema
     * that names something is read as the database (ClickHouse has nothing below a database; jOOQ's runtime meta
     * passes the database as the schema of {@code getColumns}, as it does for MySQL, whose driver ignores the
     * schema in its catalog mode).
     *
     * @param schemaIsPattern whether the schema argument is a LIKE pattern (else an exact name)
     */
    private String databaseFilter(String col, String catalog, String schema, boolean schemaIsPattern)
            throws SQLException {
        if (conn.catalogTerm()) {
            if (schema != null && !(schemaIsPattern ? matchesEmpty(schema) : schema.isEmpty())) {
                return catalog == null ? col + (schemaIsPattern ? " LIKE " : " = ") + lit(schema) : "0";
            }
            return catalog == null ? "1" : col + " = " + lit(catalog);
        }
        if (catalog != null && !catalog.isEmpty()) {
            return "0";
        }
        return schema == null ? "1" : col + (schemaIsPattern ? " LIKE " : " = ") + lit(schema);
    }

    private static String nameFilter(String col, String value, boolean pattern) throws SQLException {
        return value == null ? "1" : col + (pattern ? " LIKE " : " = ") + lit(value);
    }

    private List<String> strings(String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    /** The JDBC facts of one column type string, per {@link JdbcTypes} (never throws on an unknown type). */
    private record TypeFacts(int dataType, Integer size, Integer decimalDigits, Integer radix, Integer octetLength,
                             int nullable) {
        static TypeFacts of(String type) {
            int dataType = JdbcTypes.sqlType(type);
            int precision = JdbcTypes.precision(type);
            int scale = JdbcTypes.scale(type);
            boolean numeric = numeric(dataType);
            Integer size = switch (dataType) {
                case Types.DATE -> 10;
                case Types.TIMESTAMP -> 19 + (scale > 0 ? scale + 1 : 0);
                case Types.TIME -> 8 + (scale > 0 ? scale + 1 : 0);
                case Types.BOOLEAN -> 1;
                default -> precision > 0 ? precision : null;
            };
            Integer digits = dataType == Types.DECIMAL || dataType == Types.TIMESTAMP || dataType == Types.TIME
                    ? Integer.valueOf(scale)
                    : numeric && dataType != Types.REAL && dataType != Types.DOUBLE ? Integer.valueOf(0) : null;
            Integer octets = JdbcTypes.family(type).equals("FixedString") ? precision : null;
            return new TypeFacts(dataType, size, digits, numeric ? 10 : null, octets,
                    JdbcTypes.nullable(type) ? columnNullable : columnNoNulls);
        }

        static boolean numeric(int t) {
            return switch (t) {
                case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.NUMERIC, Types.DECIMAL,
                     Types.REAL, Types.DOUBLE -> true;
                default -> false;
            };
        }
    }

    /**
     * Databases: rows in schema mode ({@code databaseTerm=schema}), none in catalog mode. Columns
     * {@code TABLE_SCHEM, TABLE_CATALOG} (String), ordered by {@code TABLE_SCHEM}.
     */
    @Override
    public ResultSet getSchemas() throws SQLException {
        return getSchemas(null, null);
    }

    @Override
    public ResultSet getSchemas(String catalog, String schemaPattern) throws SQLException {
        String[] columns = {"TABLE_SCHEM", STR, "TABLE_CATALOG", STR};
        if (conn.catalogTerm()) {
            return empty(columns);
        }
        List<Object[]> rows = new ArrayList<>();
        for (String name : strings("SELECT name FROM system.databases WHERE "
                + databaseFilter("name", catalog, schemaPattern, true))) {
            rows.add(new Object[] {name, null});
        }
        sort(rows, 0);
        return result(columns, rows);
    }

    /** Databases in catalog mode ({@code databaseTerm=catalog}), none in schema mode. Column {@code TABLE_CAT}. */
    @Override
    public ResultSet getCatalogs() throws SQLException {
        String[] columns = {"TABLE_CAT", STR};
        if (!conn.catalogTerm()) {
            return empty(columns);
        }
        List<Object[]> rows = new ArrayList<>();
        for (String name : strings("SELECT name FROM system.databases")) {
            rows.add(new Object[] {name});
        }
        sort(rows, 0);
        return result(columns, rows);
    }

    /** {@code DICTIONARY, LOCAL TEMPORARY, MATERIALIZED VIEW, SYSTEM TABLE, TABLE, VIEW}; no query. */
    @Override
    public ResultSet getTableTypes() throws SQLException {
        List<Object[]> rows = new ArrayList<>();
        for (String t : TABLE_TYPES) {
            rows.add(new Object[] {t});
        }
        return result(new String[] {"TABLE_TYPE", "String"}, rows);
    }

    private static final String[] TABLES = {"TABLE_CAT", STR, "TABLE_SCHEM", STR, "TABLE_NAME", "String",
        "TABLE_TYPE", "String", "REMARKS", STR, "TYPE_CAT", STR, "TYPE_SCHEM", STR, "TYPE_NAME", STR,
        "SELF_REFERENCING_COL_NAME", STR, "REF_GENERATION", STR};

    /**
     * Tables of {@code system.tables}. {@code TABLE_TYPE}: {@code SYSTEM TABLE} in the databases
     * {@code system}/{@code INFORMATION_SCHEMA}, {@code VIEW} (View, LiveView, WindowView),
     * {@code MATERIALIZED VIEW}, {@code DICTIONARY}, {@code LOCAL TEMPORARY}, else {@code TABLE};
     * {@code REMARKS} = the table comment (empty before ClickHouse has {@code system.tables.comment}). One query
     * (the patterns filter on the server); the types and the order ({@code TABLE_TYPE, TABLE_CAT, TABLE_SCHEM,
     * TABLE_NAME}) are worked out in the driver.
     */
    @Override
    public ResultSet getTables(String catalog, String schemaPattern, String tableNamePattern, String[] types)
            throws SQLException {
        Set<String> wanted = types == null ? null : new HashSet<>();
        if (types != null) {
            for (String t : types) {
                wanted.add(String.valueOf(t));
            }
            if (wanted.isEmpty()) {
                return empty(TABLES);
            }
        }
        List<Object[]> rows = new ArrayList<>();
        for (Object[] t : query("SELECT database, name, engine, is_temporary, "
                + (has("tables.comment") ? "comment" : "''") + " FROM system.tables WHERE "
                + databaseFilter("database", catalog, schemaPattern, true) + " AND "
                + nameFilter("name", tableNamePattern, true))) {
            String database = (String) t[0];
            String engine = (String) t[2];
            String type = ((Number) t[3]).intValue() != 0 ? "LOCAL TEMPORARY"
                    : SYSTEM_DATABASES.contains(database) ? "SYSTEM TABLE"
                    : engine.equals("View") || engine.equals("LiveView") || engine.equals("WindowView") ? "VIEW"
                    : engine.equals("MaterializedView") ? "MATERIALIZED VIEW"
                    : engine.equals("Dictionary") ? "DICTIONARY" : "TABLE";
            if (wanted == null || wanted.contains(type)) {
                rows.add(new Object[] {cat(database), schem(database), t[1], type, t[4], null, null, null, null,
                    null});
            }
        }
        sort(rows, 3, 0, 1, 2);
        return result(TABLES, rows);
    }

    private static final String[] COLUMNS = {"TABLE_CAT", STR, "TABLE_SCHEM", STR, "TABLE_NAME", "String",
        "COLUMN_NAME", "String", "DATA_TYPE", "Int32", "TYPE_NAME", "String", "COLUMN_SIZE", INT,
        "BUFFER_LENGTH", INT, "DECIMAL_DIGITS", INT, "NUM_PREC_RADIX", INT, "NULLABLE", "Int32", "REMARKS", STR,
        "COLUMN_DEF", STR, "SQL_DATA_TYPE", INT, "SQL_DATETIME_SUB", INT, "CHAR_OCTET_LENGTH", INT,
        "ORDINAL_POSITION", "Int32", "IS_NULLABLE", "String", "SCOPE_CATALOG", STR, "SCOPE_SCHEMA", STR,
        "SCOPE_TABLE", STR, "SOURCE_DATA_TYPE", SHORT, "IS_AUTOINCREMENT", "String", "IS_GENERATEDCOLUMN",
        "String"};

    /**
     * Columns of {@code system.columns}: {@code TYPE_NAME} is the type string verbatim, {@code DATA_TYPE},
     * {@code COLUMN_SIZE}, {@code DECIMAL_DIGITS}, {@code NULLABLE} come from it per the driver's type mapping
     * ({@link Types#OTHER} for a type it does not know), {@code ORDINAL_POSITION} counts from 1 in each table,
     * {@code COLUMN_DEF} = the default expression, {@code REMARKS} = the column comment,
     * {@code IS_GENERATEDCOLUMN} = YES for MATERIALIZED and ALIAS columns. One query of plain
     * {@code system.columns} columns (the patterns filter on the server); the JDBC columns and the order
     * ({@code TABLE_CAT, TABLE_SCHEM, TABLE_NAME, ORDINAL_POSITION}) are worked out in the driver. Servers without
     * {@code system.columns.position} (18.16) send every column of the matching tables, in table order, with
     * whether it matches the column pattern.
     */
    @Override
    public ResultSet getColumns(String catalog, String schemaPattern, String tableNamePattern,
                                String columnNamePattern) throws SQLException {
        String where = databaseFilter("database", catalog, schemaPattern, true) + " AND "
                + nameFilter("table", tableNamePattern, true);
        String columnWhere = nameFilter("name", columnNamePattern, true);
        boolean position = has("columns.position");
        String select = "SELECT database, table, name, type, default_kind, default_expression, "
                + (has("columns.comment") ? "comment" : "''") + ", ";
        List<Object[]> found = query(position
                ? select + "position FROM system.columns WHERE " + where + " AND " + columnWhere
                : select + columnWhere + " FROM system.columns WHERE " + where);
        java.util.Map<String, TypeFacts> facts = new java.util.HashMap<>();
        List<Object[]> rows = new ArrayList<>(found.size());
        Object[] previous = null;
        int counted = 0;
        for (Object[] c : found) {
            String database = (String) c[0];
            String type = (String) c[3];
            String kind = (String) c[4];
            String def = (String) c[5];
            int ordinal;
            if (position) {
                ordinal = ((Number) c[7]).intValue();
            } else {
                boolean sameTable = previous != null && previous[0].equals(c[0]) && previous[1].equals(c[1]);
                counted = sameTable ? counted + 1 : 1;
                previous = c;
                ordinal = counted;
                if (((Number) c[7]).intValue() == 0) {
                    continue;
                }
            }
            TypeFacts f = facts.computeIfAbsent(type, TypeFacts::of);
            rows.add(new Object[] {cat(database), schem(database), c[1], c[2], f.dataType(), type, f.size(), null,
                f.decimalDigits(), f.radix(), f.nullable(), c[6], def.isEmpty() ? null : def, null, null,
                f.octetLength(), ordinal, f.nullable() == columnNullable ? "YES" : "NO", null, null, null, null, "NO",
                kind.equals("MATERIALIZED") || kind.equals("ALIAS") ? "YES" : "NO"});
        }
        sort(rows, 0, 1, 2, 16);
        return result(COLUMNS, rows);
    }

    private static final String[] PRIMARY_KEYS = {"TABLE_CAT", STR, "TABLE_SCHEM", STR, "TABLE_NAME", "String",
        "COLUMN_NAME", "String", "KEY_SEQ", "Int16", "PK_NAME", STR};

    /**
     * The columns of the table's primary key: {@code KEY_SEQ} is the column's place in
     * {@code system.tables.primary_key}; columns used only inside key expressions
     * ({@code system.columns.is_in_primary_key}) follow, by name. {@code PK_NAME} null. Ordered by
     * {@code COLUMN_NAME}, as JDBC asks. One query to {@code system.tables} when every key element is a column
     * name (the usual {@code ORDER BY (a, b)}); a second to {@code system.columns} for the tables whose key has
     * an expression.
     */
    @Override
    public ResultSet getPrimaryKeys(String catalog, String schema, String table) throws SQLException {
        String database = databaseFilter("database", catalog, schema, false);
        java.util.Map<List<Object>, List<String>> keys = new java.util.LinkedHashMap<>();
        java.util.Map<List<Object>, List<String>> columns = new java.util.LinkedHashMap<>();
        List<Object> expressionKeys = new ArrayList<>();
        for (Object[] r : query("SELECT database, name, primary_key FROM system.tables WHERE primary_key != '' AND "
                + database + " AND " + nameFilter("name", table, false))) {
            List<Object> t = List.of(r[0], r[1]);
            List<String> names = new ArrayList<>(); // the key's column names, null for an expression
            for (String element : ((String) r[2]).split(", ", -1)) {
                names.add(keyColumn(element));
            }
            keys.put(t, names);
            if (names.contains(null)) {
                expressionKeys.add(t);
            } else {
                columns.put(t, new ArrayList<>(names));
            }
        }
        if (!expressionKeys.isEmpty()) {
            for (Object[] r : query("SELECT database, table, name FROM system.columns WHERE is_in_primary_key != 0 AND "
                    + database + " AND " + nameFilter("table", table, false))) {
                List<Object> t = List.of(r[0], r[1]);
                if (expressionKeys.contains(t)) {
                    columns.computeIfAbsent(t, x -> new ArrayList<>()).add((String) r[2]);
                }
            }
        }
        List<Object[]> rows = new ArrayList<>();
        columns.forEach((t, names) -> {
            List<String> key = keys.get(t);
            names.sort((x, y) -> {
                int i = key.indexOf(x);
                int j = key.indexOf(y);
                return i >= 0 && j >= 0 ? Integer.compare(i, j) : i >= 0 ? -1 : j >= 0 ? 1 : compareValues(x, y);
            });
            String db = (String) t.get(0);
            for (int seq = 0; seq < names.size(); seq++) {
                rows.add(new Object[] {cat(db), schem(db), t.get(1), names.get(seq), (short) (seq + 1), null});
            }
        });
        sort(rows, 3, 0, 1, 2);
        return result(PRIMARY_KEYS, rows);
    }

    /**
     * The column an element of {@code system.tables.primary_key} names: a plain identifier, or one in back quotes
     * with backslash escapes (as ClickHouse prints names that need quoting, src/IO/WriteHelpers.h
     * {@code writeBackQuotedString}); null for an expression, whose columns only
     * {@code system.columns.is_in_primary_key} tells.
     */
    private static String keyColumn(String element) {
        if (element.length() >= 2 && element.startsWith("`") && element.endsWith("`")) {
            StringBuilder name = new StringBuilder();
            for (int i = 1; i < element.length() - 1; i++) {
                char c = element.charAt(i);
                if (c == '`') {
                    return null; // `a` + `b` and the like
                }
                if (c == '\\' && i + 1 < element.length() - 1) {
                    c = element.charAt(++i);
                    c = switch (c) {
                        case 'b' -> '\b';
                        case 'f' -> '\f';
                        case 'n' -> '\n';
                        case 'r' -> '\r';
                        case 't' -> '\t';
                        case '0' -> '\0';
                        default -> c;
                    };
                }
                name.append(c);
            }
            return name.toString();
        }
        if (element.isEmpty() || Character.isDigit(element.charAt(0))) {
            return null;
        }
        for (int i = 0; i < element.length(); i++) {
            char c = element.charAt(i);
            if (!(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9')) {
                return null;
            }
        }
        return element;
    }

    private static final String[] INDEX_INFO = {"TABLE_CAT", STR, "TABLE_SCHEM", STR, "TABLE_NAME", STR,
        "NON_UNIQUE", BOOL, "INDEX_QUALIFIER", STR, "INDEX_NAME", STR, "TYPE", SHORT, "ORDINAL_POSITION", SHORT,
        "COLUMN_NAME", STR, "ASC_OR_DESC", STR, "CARDINALITY", LONG, "PAGES", LONG, "FILTER_CONDITION", STR};

    /**
     * The table's data-skipping indices ({@code system.data_skipping_indices}, ClickHouse 20.10 and later; none
     * before and none when {@code unique} is asked: ClickHouse has no unique index): {@code NON_UNIQUE} true,
     * {@code TYPE} {@link #tableIndexOther}, {@code INDEX_QUALIFIER} the index type ({@code minmax},
     * {@code bloom_filter}...), {@code COLUMN_NAME} the index expression, {@code ORDINAL_POSITION} 1. One query;
     * ordered by {@code INDEX_NAME} (the other sort keys of JDBC are the same in every row).
     */
    @Override
    public ResultSet getIndexInfo(String catalog, String schema, String table, boolean unique, boolean approximate)
            throws SQLException {
        if (unique || !has("data_skipping_indices.expr")) {
            return empty(INDEX_INFO);
        }
        List<Object[]> rows = new ArrayList<>();
        for (Object[] r : query("SELECT database, table, name, type, expr FROM system.data_skipping_indices WHERE "
                + databaseFilter("database", catalog, schema, false) + " AND " + nameFilter("table", table, false))) {
            String db = (String) r[0];
            rows.add(new Object[] {cat(db), schem(db), r[1], true, r[3], r[2], (short) tableIndexOther, (short) 1,
                r[4], null, 0L, 0L, null});
        }
        sort(rows, 5, 0, 1, 2);
        return result(INDEX_INFO, rows);
    }

    private static final String[] KEYS = {"PKTABLE_CAT", STR, "PKTABLE_SCHEM", STR, "PKTABLE_NAME", STR,
        "PKCOLUMN_NAME", STR, "FKTABLE_CAT", STR, "FKTABLE_SCHEM", STR, "FKTABLE_NAME", STR, "FKCOLUMN_NAME", STR,
        "KEY_SEQ", SHORT, "UPDATE_RULE", SHORT, "DELETE_RULE", SHORT, "FK_NAME", STR, "PK_NAME", STR,
        "DEFERRABILITY", SHORT};

    /** Empty: ClickHouse has no foreign keys. */
    @Override
    public ResultSet getImportedKeys(String catalog, String schema, String table) throws SQLException {
        return empty(KEYS);
    }

    /** Empty: ClickHouse has no foreign keys. */
    @Override
    public ResultSet getExportedKeys(String catalog, String schema, String table) throws SQLException {
        return empty(KEYS);
    }

    /** Empty: ClickHouse has no foreign keys. */
    @Override
    public ResultSet getCrossReference(String parentCatalog, String parentSchema, String parentTable,
                                       String foreignCatalog, String foreignSchema, String foreignTable)
            throws SQLException {
        return empty(KEYS);
    }

    private static final String[] TYPE_INFO = {"TYPE_NAME", "String", "DATA_TYPE", "Int32", "PRECISION", INT,
        "LITERAL_PREFIX", STR, "LITERAL_SUFFIX", STR, "CREATE_PARAMS", STR, "NULLABLE", SHORT, "CASE_SENSITIVE", BOOL,
        "SEARCHABLE", "Int16", "UNSIGNED_ATTRIBUTE", BOOL, "FIXED_PREC_SCALE", BOOL, "AUTO_INCREMENT", BOOL,
        "LOCAL_TYPE_NAME", STR, "MINIMUM_SCALE", "Int16", "MAXIMUM_SCALE", SHORT, "SQL_DATA_TYPE", INT,
        "SQL_DATETIME_SUB", INT, "NUM_PREC_RADIX", INT};

    /**
     * Every family of {@code system.data_type_families} (aliases typed as what they alias), ordered by
     * {@code DATA_TYPE} then name; {@code DATA_TYPE}, {@code PRECISION}... per the driver's type mapping. One query.
     */
    @Override
    public ResultSet getTypeInfo() throws SQLException {
        List<Object[]> rows = new ArrayList<>();
        for (Object[] r : query("SELECT name, alias_to FROM system.data_type_families")) {
            String name = (String) r[0];
            String family = ((String) r[1]).isEmpty() ? name : (String) r[1];
            int t = JdbcTypes.sqlType(family);
            boolean decimal = family.startsWith("Decimal");
            int p = decimal ? JdbcTypes.precision(family.equals("Decimal") ? "Decimal(76, 0)" : family + "(0)")
                    : JdbcTypes.precision(family);
            Integer precision = t == Types.DATE ? Integer.valueOf(10) : t == Types.TIMESTAMP ? Integer.valueOf(29)
                    : p > 0 ? Integer.valueOf(p) : null;
            boolean quoted = t == Types.VARCHAR || t == Types.DATE || t == Types.TIMESTAMP || t == Types.TIME
                    || family.equals("UUID") || family.startsWith("IPv");
            String quote = quoted ? "'" : null;
            String params = family.equals("Decimal") ? "precision,scale" : decimal ? "scale"
                    : family.equals("FixedString") ? "length" : family.equals("DateTime64") ? "precision,timezone"
                    : family.equals("DateTime") ? "timezone" : null;
            boolean wrapper = switch (family) {
                case "Array", "Map", "Tuple", "Nested", "AggregateFunction", "LowCardinality", "Nullable",
                     "SimpleAggregateFunction" -> true;
                default -> false;
            };
            rows.add(new Object[] {name, t, precision, quote, quote, params,
                (short) (wrapper ? typeNoNulls : typeNullable), t == Types.VARCHAR, (short) typeSearchable,
                family.startsWith("UInt"), decimal, false, name, (short) 0,
                (short) (decimal ? p : family.equals("DateTime64") ? 9 : 0), null, null,
                TypeFacts.numeric(t) ? 10 : null});
        }
        sort(rows, 1, 0);
        return result(TYPE_INFO, rows);
    }

    private static final String[] FUNCTIONS = {"FUNCTION_CAT", STR, "FUNCTION_SCHEM", STR, "FUNCTION_NAME",
        "String", "REMARKS", STR, "FUNCTION_TYPE", "Int16", "SPECIFIC_NAME", "String"};

    /**
     * The server's functions ({@code system.functions}, aggregate ones included); they belong to no database, so
     * only a null or empty catalog and a schema pattern matching the empty string find them (no query otherwise).
     * {@code FUNCTION_TYPE} {@link #functionNoTable}; {@code REMARKS} the description where the server has one.
     */
    @Override
    public ResultSet getFunctions(String catalog, String schemaPattern, String functionNamePattern)
            throws SQLException {
        if (!((catalog == null || catalog.isEmpty()) && matchesEmpty(schemaPattern))) {
            return empty(FUNCTIONS);
        }
        List<Object[]> rows = new ArrayList<>();
        for (Object[] r : query("SELECT name, " + (has("functions.description") ? "description" : "''")
                + " FROM system.functions WHERE " + nameFilter("name", functionNamePattern, true))) {
            rows.add(new Object[] {null, null, r[0], r[1], (short) functionNoTable, r[0]});
        }
        sort(rows, 2);
        return result(FUNCTIONS, rows);
    }

    /** Empty: functions have no catalogued parameters. */
    @Override
    public ResultSet getFunctionColumns(String catalog, String schemaPattern, String functionNamePattern,
                                        String columnNamePattern) throws SQLException {
        return empty("FUNCTION_CAT", STR, "FUNCTION_SCHEM", STR, "FUNCTION_NAME", STR, "COLUMN_NAME", STR,
                "COLUMN_TYPE", SHORT, "DATA_TYPE", INT, "TYPE_NAME", STR, "PRECISION", INT, "LENGTH", INT,
                "SCALE", SHORT, "RADIX", SHORT, "NULLABLE", SHORT, "REMARKS", STR, "CHAR_OCTET_LENGTH", INT,
                "ORDINAL_POSITION", INT, "IS_NULLABLE", STR, "SPECIFIC_NAME", STR);
    }

    /** Empty: ClickHouse has no stored procedures. */
    @Override
    public ResultSet getProcedures(String catalog, String schemaPattern, String procedureNamePattern)
            throws SQLException {
        return empty("PROCEDURE_CAT", STR, "PROCEDURE_SCHEM", STR, "PROCEDURE_NAME", STR, "RESERVED1", STR,
                "RESERVED2", STR, "RESERVED3", STR, "REMARKS", STR, "PROCEDURE_TYPE", SHORT, "SPECIFIC_NAME", STR);
    }

    /** Empty: ClickHouse has no stored procedures. */
    @Override
    public ResultSet getProcedureColumns(String catalog, String schemaPattern, String procedureNamePattern,
                                         String columnNamePattern) throws SQLException {
        return empty("PROCEDURE_CAT", STR, "PROCEDURE_SCHEM", STR, "PROCEDURE_NAME", STR, "COLUMN_NAME", STR,
                "COLUMN_TYPE", SHORT, "DATA_TYPE", INT, "TYPE_NAME", STR, "PRECISION", INT, "LENGTH", INT,
                "SCALE", SHORT, "RADIX", SHORT, "NULLABLE", SHORT, "REMARKS", STR, "COLUMN_DEF", STR,
                "SQL_DATA_TYPE", INT, "SQL_DATETIME_SUB", INT, "CHAR_OCTET_LENGTH", INT, "ORDINAL_POSITION", INT,
                "IS_NULLABLE", STR, "SPECIFIC_NAME", STR);
    }

    /** Empty: ClickHouse has no user-defined types. */
    @Override
    public ResultSet getUDTs(String catalog, String schemaPattern, String typeNamePattern, int[] types)
            throws SQLException {
        return empty("TYPE_CAT", STR, "TYPE_SCHEM", STR, "TYPE_NAME", STR, "CLASS_NAME", STR, "DATA_TYPE", INT,
                "REMARKS", STR, "BASE_TYPE", SHORT);
    }

    /** Empty: no type hierarchies. */
    @Override
    public ResultSet getSuperTypes(String catalog, String schemaPattern, String typeNamePattern) throws SQLException {
        return empty("TYPE_CAT", STR, "TYPE_SCHEM", STR, "TYPE_NAME", STR, "SUPERTYPE_CAT", STR,
                "SUPERTYPE_SCHEM", STR, "SUPERTYPE_NAME", STR);
    }

    /** Empty: no table hierarchies. */
    @Override
    public ResultSet getSuperTables(String catalog, String schemaPattern, String tableNamePattern)
            throws SQLException {
        return empty("TABLE_CAT", STR, "TABLE_SCHEM", STR, "TABLE_NAME", STR, "SUPERTABLE_NAME", STR);
    }

    /** Empty: ClickHouse has no user-defined types. */
    @Override
    public ResultSet getAttributes(String catalog, String schemaPattern, String typeNamePattern,
                                   String attributeNamePattern) throws SQLException {
        return empty("TYPE_CAT", STR, "TYPE_SCHEM", STR, "TYPE_NAME", STR, "ATTR_NAME", STR, "DATA_TYPE", INT,
                "ATTR_TYPE_NAME", STR, "ATTR_SIZE", INT, "DECIMAL_DIGITS", INT, "NUM_PREC_RADIX", INT,
                "NULLABLE", INT, "REMARKS", STR, "ATTR_DEF", STR, "SQL_DATA_TYPE", INT, "SQL_DATETIME_SUB", INT,
                "CHAR_OCTET_LENGTH", INT, "ORDINAL_POSITION", INT, "IS_NULLABLE", STR, "SCOPE_CATALOG", STR,
                "SCOPE_SCHEMA", STR, "SCOPE_TABLE", STR, "SOURCE_DATA_TYPE", SHORT);
    }

    private static final String[] ROW_IDENTIFIER = {"SCOPE", SHORT, "COLUMN_NAME", STR, "DATA_TYPE", INT,
        "TYPE_NAME", STR, "COLUMN_SIZE", INT, "BUFFER_LENGTH", INT, "DECIMAL_DIGITS", SHORT, "PSEUDO_COLUMN", SHORT};

    /** Empty: ClickHouse rows have no identifying key (a primary key need not be unique). */
    @Override
    public ResultSet getBestRowIdentifier(String catalog, String schema, String table, int scope, boolean nullable)
            throws SQLException {
        return empty(ROW_IDENTIFIER);
    }

    /** Empty: no columns change on their own when a row is updated. */
    @Override
    public ResultSet getVersionColumns(String catalog, String schema, String table) throws SQLException {
        return empty(ROW_IDENTIFIER);
    }

    /** Empty: grants are not mapped to JDBC privileges ({@code SHOW GRANTS} answers them). */
    @Override
    public ResultSet getColumnPrivileges(String catalog, String schema, String table, String columnNamePattern)
            throws SQLException {
        return empty("TABLE_CAT", STR, "TABLE_SCHEM", STR, "TABLE_NAME", STR, "COLUMN_NAME", STR, "GRANTOR", STR,
                "GRANTEE", STR, "PRIVILEGE", STR, "IS_GRANTABLE", STR);
    }

    /** Empty: grants are not mapped to JDBC privileges ({@code SHOW GRANTS} answers them). */
    @Override
    public ResultSet getTablePrivileges(String catalog, String schemaPattern, String tableNamePattern)
            throws SQLException {
        return empty("TABLE_CAT", STR, "TABLE_SCHEM", STR, "TABLE_NAME", STR, "GRANTOR", STR, "GRANTEE", STR,
                "PRIVILEGE", STR, "IS_GRANTABLE", STR);
    }

    /** Empty: virtual columns ({@code _part}, {@code _table}...) are not listed. */
    @Override
    public ResultSet getPseudoColumns(String catalog, String schemaPattern, String tableNamePattern,
                                      String columnNamePattern) throws SQLException {
        return empty("TABLE_CAT", STR, "TABLE_SCHEM", STR, "TABLE_NAME", STR, "COLUMN_NAME", STR, "DATA_TYPE", INT,
                "COLUMN_SIZE", INT, "DECIMAL_DIGITS", INT, "NUM_PREC_RADIX", INT, "COLUMN_USAGE", STR,
                "REMARKS", STR, "CHAR_OCTET_LENGTH", INT, "IS_NULLABLE", STR);
    }

    /** Empty: client info properties are kept by the connection, with no fixed list. */
    @Override
    public ResultSet getClientInfoProperties() throws SQLException {
        return empty("NAME", STR, "MAX_LEN", INT, "DEFAULT_VALUE", STR, "DESCRIPTION", STR);
    }
}
