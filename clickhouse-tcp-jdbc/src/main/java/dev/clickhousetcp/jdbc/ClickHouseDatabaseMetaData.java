package dev.clickhousetcp.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.RowIdLifetime;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Database facts of a connection: product and driver names and versions, the URL (password hidden), the user,
 * the identifier rules (case-sensitive, stored as written), the database term of the {@code databaseTerm}
 * property, and the metadata result sets ({@code getTables}, {@code getColumns}, {@code getPrimaryKeys}...) read
 * from the server's {@code system.*} tables with one or two queries per call.
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
 * are looked up once per connection and left out when absent; booleans are {@code UInt8} values
 * ({@code getObject} a {@link Short}) on servers without the Bool type (before 21.12). The result sets are the
 * driver's ordinary forward-only ResultSets (closing one closes its statement). Safe to share between threads
 * as the connection is.
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
    private static final String NULL_STR = "CAST(NULL AS Nullable(String))";
    /** The table types {@link #getTables} reports, in their order (that of {@link #getTableTypes}). */
    private static final List<String> TABLE_TYPES = List.of("DICTIONARY", "LOCAL TEMPORARY", "MATERIALIZED VIEW",
            "SYSTEM TABLE", "TABLE", "VIEW");

    /** {@code system.<table>} columns of the server, read once (18.16 lacks several). */
    private volatile Set<String> systemColumns;

    private Set<String> systemColumns() throws SQLException {
        Set<String> s = systemColumns;
        if (s == null) {
            s = new HashSet<>();
            try (Statement st = conn.createStatement();
                 ResultSet rs = st.executeQuery("SELECT table, name FROM system.columns WHERE database = 'system' "
                         + "AND table IN ('columns', 'tables', 'functions', 'data_skipping_indices')")) {
                while (rs.next()) {
                    s.add(rs.getString(1) + "." + rs.getString(2));
                }
            }
            systemColumns = s;
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

    /** Runs a metadata query; the statement closes with its ResultSet. */
    private ResultSet run(String sql) throws SQLException {
        Statement st = conn.createStatement();
        try {
            st.closeOnCompletion();
            return st.executeQuery(sql);
        } catch (SQLException | RuntimeException e) {
            st.close();
            throw e;
        }
    }

    /**
     * Headers of the empty results, by the query that gave them: the server answers each shape once, later
     * calls (DBeaver asks for the imported keys of every table) are answered without a round trip. The query
     * names every column type, so one header fits every server that accepted it.
     */
    private static final java.util.concurrent.ConcurrentMap<String, dev.clickhousetcp.data.Block> EMPTY_HEADERS =
            new java.util.concurrent.ConcurrentHashMap<>();

    /** An empty result with the columns {@code name type} given in pairs. */
    private ResultSet empty(String... columns) throws SQLException {
        StringBuilder q = new StringBuilder("SELECT ");
        for (int i = 0; i < columns.length; i += 2) {
            q.append(i == 0 ? "" : ", ").append("CAST(NULL AS ").append(type(columns[i + 1])).append(") AS ")
                    .append(columns[i]);
        }
        String sql = q.append(" FROM system.one WHERE 0").toString();
        dev.clickhousetcp.data.Block header = EMPTY_HEADERS.get(sql);
        if (header != null) {
            ClickHouseStatement st = (ClickHouseStatement) conn.createStatement();
            st.closeOnCompletion();
            return ClickHouseResultSet.empty(st, header);
        }
        ResultSet rs = run(sql);
        if (rs instanceof ClickHouseResultSet r) {
            EMPTY_HEADERS.putIfAbsent(sql, r.header());
        }
        return rs;
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

    /** The catalog and schema columns {@code <prefix>_CAT, <prefix>_SCHEM} for a database expression. */
    private String catalogSchema(String prefix, String databaseExpr) {
        String db = "toNullable(" + databaseExpr + ")";
        return conn.catalogTerm()
                ? db + " AS " + prefix + "_CAT, " + NULL_STR + " AS " + prefix + "_SCHEM"
                : NULL_STR + " AS " + prefix + "_CAT, " + db + " AS " + prefix + "_SCHEM";
    }

    /**
     * An array literal of per-key values, indexed by the row's {@code _i} (its key's position in the key list
     * the query was built with, 0 for a key that appeared since: then the type's default).
     */
    private String pick(List<?> values, String type) throws SQLException {
        StringBuilder b = new StringBuilder("CAST([");
        for (int i = 0; i < values.size(); i++) {
            Object v = values.get(i);
            b.append(i == 0 ? "" : ", ").append(v instanceof String str ? lit(str)
                    : v instanceof Boolean bool ? (bool ? "1" : "0") : String.valueOf(v == null ? "NULL" : v));
        }
        return b.append("] AS Array(").append(type(type)).append("))[_i]").toString();
    }

    /**
     * The row's {@code _i}: the place of {@code keyExpr}'s value among {@code keys}, matched by MD5 so that the
     * query carries 32 characters per key however long the type strings are (ClickHouse's {@code MD5} and Java's
     * agree on the UTF-8 bytes).
     */
    private static String keyIndex(String keyExpr, List<String> keys) {
        StringBuilder b = new StringBuilder("indexOf(CAST([");
        java.security.MessageDigest md5;
        try {
            md5 = java.security.MessageDigest.getInstance("MD5");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has MD5", e);
        }
        for (int i = 0; i < keys.size(); i++) {
            byte[] d = md5.digest(keys.get(i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            b.append(i == 0 ? "'" : ", '").append(java.util.HexFormat.of().withUpperCase().formatHex(d)).append('\'');
        }
        return b.append("] AS Array(String)), hex(MD5(").append(keyExpr).append("))) AS _i").toString();
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
        if (conn.catalogTerm()) {
            return empty("TABLE_SCHEM", STR, "TABLE_CATALOG", STR);
        }
        return run("SELECT name AS TABLE_SCHEM, " + NULL_STR + " AS TABLE_CATALOG FROM system.databases WHERE "
                + databaseFilter("name", catalog, schemaPattern, true) + " ORDER BY TABLE_SCHEM");
    }

    /** Databases in catalog mode ({@code databaseTerm=catalog}), none in schema mode. Column {@code TABLE_CAT}. */
    @Override
    public ResultSet getCatalogs() throws SQLException {
        if (!conn.catalogTerm()) {
            return empty("TABLE_CAT", STR);
        }
        return run("SELECT name AS TABLE_CAT FROM system.databases ORDER BY TABLE_CAT");
    }

    /** {@code DICTIONARY, LOCAL TEMPORARY, MATERIALIZED VIEW, SYSTEM TABLE, TABLE, VIEW}. */
    @Override
    public ResultSet getTableTypes() throws SQLException {
        StringBuilder q = new StringBuilder("SELECT arrayJoin([");
        for (int i = 0; i < TABLE_TYPES.size(); i++) {
            q.append(i == 0 ? "" : ", ").append(lit(TABLE_TYPES.get(i)));
        }
        return run(q.append("]) AS TABLE_TYPE").toString());
    }

    /**
     * Tables of {@code system.tables}. {@code TABLE_TYPE}: {@code SYSTEM TABLE} in the databases
     * {@code system}/{@code INFORMATION_SCHEMA}, {@code VIEW} (View, LiveView, WindowView),
     * {@code MATERIALIZED VIEW}, {@code DICTIONARY}, {@code LOCAL TEMPORARY}, else {@code TABLE};
     * {@code REMARKS} = the table comment (empty before ClickHouse has {@code system.tables.comment}).
     */
    @Override
    public ResultSet getTables(String catalog, String schemaPattern, String tableNamePattern, String[] types)
            throws SQLException {
        StringBuilder q = new StringBuilder("SELECT * FROM (SELECT ").append(catalogSchema("TABLE", "database"))
                .append(", name AS TABLE_NAME, multiIf(is_temporary != 0, 'LOCAL TEMPORARY', database IN ('system', "
                        + "'INFORMATION_SCHEMA', 'information_schema'), 'SYSTEM TABLE', engine IN ('View', 'LiveView', "
                        + "'WindowView'), 'VIEW', engine = 'MaterializedView', 'MATERIALIZED VIEW', engine = "
                        + "'Dictionary', 'DICTIONARY', 'TABLE') AS TABLE_TYPE, toNullable(")
                .append(has("tables.comment") ? "comment" : "''").append(") AS REMARKS, ")
                .append(NULL_STR).append(" AS TYPE_CAT, ").append(NULL_STR).append(" AS TYPE_SCHEM, ")
                .append(NULL_STR).append(" AS TYPE_NAME, ").append(NULL_STR).append(" AS SELF_REFERENCING_COL_NAME, ")
                .append(NULL_STR).append(" AS REF_GENERATION FROM system.tables WHERE ")
                .append(databaseFilter("database", catalog, schemaPattern, true)).append(" AND ")
                .append(nameFilter("name", tableNamePattern, true)).append(")");
        if (types != null) {
            q.append(" WHERE TABLE_TYPE IN (");
            for (int i = 0; i < types.length; i++) {
                q.append(i == 0 ? "" : ", ").append(lit(String.valueOf(types[i])));
            }
            q.append(types.length == 0 ? "''" : "").append(")");
        }
        return run(q.append(" ORDER BY TABLE_TYPE, TABLE_CAT, TABLE_SCHEM, TABLE_NAME").toString());
    }

    /**
     * Columns of {@code system.columns}: {@code TYPE_NAME} is the type string verbatim, {@code DATA_TYPE},
     * {@code COLUMN_SIZE}, {@code DECIMAL_DIGITS}, {@code NULLABLE} come from it per the driver's type mapping
     * ({@link Types#OTHER} for a type it does not know), {@code ORDINAL_POSITION} counts from 1 in each table,
     * {@code COLUMN_DEF} = the default expression, {@code REMARKS} = the column comment,
     * {@code IS_GENERATEDCOLUMN} = YES for MATERIALIZED and ALIAS columns. Two queries: the distinct types,
     * then the rows.
     */
    @Override
    public ResultSet getColumns(String catalog, String schemaPattern, String tableNamePattern,
                                String columnNamePattern) throws SQLException {
        String where = databaseFilter("database", catalog, schemaPattern, true) + " AND "
                + nameFilter("table", tableNamePattern, true);
        String columnWhere = nameFilter("name", columnNamePattern, true);
        List<String> types = strings("SELECT DISTINCT type FROM system.columns WHERE " + where + " AND "
                + columnWhere);
        List<Integer> dataType = new ArrayList<>();
        List<Integer> size = new ArrayList<>();
        List<Integer> digits = new ArrayList<>();
        List<Integer> radix = new ArrayList<>();
        List<Integer> octets = new ArrayList<>();
        List<Integer> nullable = new ArrayList<>();
        for (String t : types) {
            TypeFacts f = TypeFacts.of(t);
            dataType.add(f.dataType());
            size.add(f.size());
            digits.add(f.decimalDigits());
            radix.add(f.radix());
            octets.add(f.octetLength());
            nullable.add(f.nullable());
        }
        String comment = has("columns.comment") ? "comment" : "''";
        String source;
        if (has("columns.position")) {
            source = "SELECT database, table, name, type, position, default_kind, default_expression, " + comment
                    + " AS remarks FROM system.columns WHERE " + where + " AND " + columnWhere;
        } else {
            // no system.columns.position (18.16): number the columns of each table in their order
            source = "SELECT database, table, name, type, position, default_kind, default_expression, remarks FROM "
                    + "(SELECT database, table, groupArray(name) AS n, groupArray(type) AS t, groupArray(default_kind) "
                    + "AS k, groupArray(default_expression) AS e, groupArray(" + comment + ") AS c FROM system.columns "
                    + "WHERE " + where + " GROUP BY database, table) ARRAY JOIN n AS name, t AS type, k AS "
                    + "default_kind, e AS default_expression, c AS remarks, arrayEnumerate(n) AS position WHERE "
                    + columnWhere;
        }
        String q = "SELECT " + catalogSchema("TABLE", "database") + ", table AS TABLE_NAME, name AS COLUMN_NAME, "
                + "toInt32(if(_i = 0, " + Types.OTHER + ", " + pick(dataType, INT) + ")) AS DATA_TYPE, "
                + "type AS TYPE_NAME, " + pick(size, INT) + " AS COLUMN_SIZE, CAST(NULL AS Nullable(Int32)) AS "
                + "BUFFER_LENGTH, " + pick(digits, INT) + " AS DECIMAL_DIGITS, " + pick(radix, INT)
                + " AS NUM_PREC_RADIX, toInt32(" + pick(nullable, INT) + ") AS NULLABLE, toNullable(remarks) AS "
                + "REMARKS, if(default_expression = '', " + NULL_STR + ", default_expression) AS COLUMN_DEF, "
                + "CAST(NULL AS Nullable(Int32)) AS SQL_DATA_TYPE, CAST(NULL AS Nullable(Int32)) AS SQL_DATETIME_SUB, "
                + pick(octets, INT) + " AS CHAR_OCTET_LENGTH, toInt32(position) AS ORDINAL_POSITION, "
                + "if(NULLABLE = " + columnNullable + ", 'YES', 'NO') AS IS_NULLABLE, " + NULL_STR + " AS SCOPE_CATALOG, "
                + NULL_STR + " AS SCOPE_SCHEMA, " + NULL_STR + " AS SCOPE_TABLE, CAST(NULL AS Nullable(Int16)) AS "
                + "SOURCE_DATA_TYPE, 'NO' AS IS_AUTOINCREMENT, if(default_kind IN ('MATERIALIZED', 'ALIAS'), 'YES', "
                + "'NO') AS IS_GENERATEDCOLUMN FROM (SELECT *, " + keyIndex("type", types) + " FROM ("
                + source + ")) ORDER BY TABLE_CAT, TABLE_SCHEM, TABLE_NAME, ORDINAL_POSITION";
        return run(q);
    }

    /**
     * The columns of the table's primary key ({@code system.columns.is_in_primary_key}): {@code KEY_SEQ} is the
     * column's place in {@code system.tables.primary_key} (columns used only inside key expressions follow, by
     * name); {@code PK_NAME} null. Ordered by {@code COLUMN_NAME}, as JDBC asks.
     */
    @Override
    public ResultSet getPrimaryKeys(String catalog, String schema, String table) throws SQLException {
        String tables = "FROM system.tables WHERE " + databaseFilter("database", catalog, schema, false) + " AND "
                + nameFilter("name", table, false);
        // one table named exactly (DBeaver asks so for each table): its key as a scalar subquery, about twice
        // as fast as the join with system.tables that several tables need
        boolean oneTable = table != null && (conn.catalogTerm() ? catalog != null : schema != null);
        String key = oneTable ? "(SELECT any(primary_key) " + tables + ")" : "primary_key";
        String join = oneTable ? "" : " ALL INNER JOIN (SELECT database, name AS table, primary_key " + tables
                + ") AS t USING (database, table)";
        String q = "SELECT " + catalogSchema("TABLE", "database") + ", table AS TABLE_NAME, COLUMN_NAME, "
                + "toInt16(seq) AS KEY_SEQ, " + NULL_STR + " AS PK_NAME FROM (SELECT database, table, "
                + "arrayMap(x -> tupleElement(x, 3), arraySort(groupArray((k = 0, k, name)))) AS names FROM ("
                + "SELECT database, table, name, indexOf(splitByString(', ', " + key + "), name) AS k "
                + "FROM system.columns" + join + " WHERE is_in_primary_key != 0 AND "
                + databaseFilter("database", catalog, schema, false) + " AND " + nameFilter("table", table, false)
                + ") GROUP BY database, table) ARRAY JOIN names AS COLUMN_NAME, arrayEnumerate(names) AS seq "
                + "ORDER BY COLUMN_NAME";
        return run(q);
    }

    private static final String[] INDEX_INFO = {"TABLE_CAT", STR, "TABLE_SCHEM", STR, "TABLE_NAME", STR,
        "NON_UNIQUE", BOOL, "INDEX_QUALIFIER", STR, "INDEX_NAME", STR, "TYPE", SHORT, "ORDINAL_POSITION", SHORT,
        "COLUMN_NAME", STR, "ASC_OR_DESC", STR, "CARDINALITY", LONG, "PAGES", LONG, "FILTER_CONDITION", STR};

    /**
     * The table's data-skipping indices ({@code system.data_skipping_indices}, ClickHouse 20.10 and later; none
     * before and none when {@code unique} is asked: ClickHouse has no unique index): {@code NON_UNIQUE} true,
     * {@code TYPE} {@link #tableIndexOther}, {@code INDEX_QUALIFIER} the index type ({@code minmax},
     * {@code bloom_filter}...), {@code COLUMN_NAME} the index expression, {@code ORDINAL_POSITION} 1.
     */
    @Override
    public ResultSet getIndexInfo(String catalog, String schema, String table, boolean unique, boolean approximate)
            throws SQLException {
        if (unique || !has("data_skipping_indices.expr")) {
            return empty(INDEX_INFO);
        }
        String q = "SELECT " + catalogSchema("TABLE", "database") + ", table AS TABLE_NAME, CAST(1 AS "
                + type(BOOL) + ") AS NON_UNIQUE, toNullable(type) AS INDEX_QUALIFIER, toNullable(name) AS INDEX_NAME, "
                + "toInt16(" + tableIndexOther + ") AS TYPE, toInt16(1) AS ORDINAL_POSITION, toNullable(expr) AS "
                + "COLUMN_NAME, " + NULL_STR + " AS ASC_OR_DESC, toInt64(0) AS CARDINALITY, toInt64(0) AS PAGES, "
                + NULL_STR + " AS FILTER_CONDITION FROM system.data_skipping_indices WHERE "
                + databaseFilter("database", catalog, schema, false) + " AND " + nameFilter("table", table, false)
                + " ORDER BY NON_UNIQUE, TYPE, INDEX_NAME, ORDINAL_POSITION";
        return run(q);
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

    /**
     * Every family of {@code system.data_type_families} (aliases typed as what they alias), ordered by
     * {@code DATA_TYPE} then name; {@code DATA_TYPE}, {@code PRECISION}... per the driver's type mapping.
     */
    @Override
    public ResultSet getTypeInfo() throws SQLException {
        List<String> names = new ArrayList<>();
        List<Integer> dataType = new ArrayList<>();
        List<Integer> precision = new ArrayList<>();
        List<String> quote = new ArrayList<>();
        List<String> params = new ArrayList<>();
        List<Short> nullable = new ArrayList<>();
        List<Boolean> caseSensitive = new ArrayList<>();
        List<Boolean> unsigned = new ArrayList<>();
        List<Boolean> fixedScale = new ArrayList<>();
        List<Short> maxScale = new ArrayList<>();
        List<Integer> radix = new ArrayList<>();
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("SELECT name, alias_to FROM system.data_type_families")) {
            while (rs.next()) {
                String name = rs.getString(1);
                String family = rs.getString(2).isEmpty() ? name : rs.getString(2);
                int t = JdbcTypes.sqlType(family);
                names.add(name);
                dataType.add(t);
                boolean decimal = family.startsWith("Decimal");
                int p = decimal ? JdbcTypes.precision(family.equals("Decimal") ? "Decimal(76, 0)" : family + "(0)")
                        : JdbcTypes.precision(family);
                precision.add(t == Types.DATE ? Integer.valueOf(10) : t == Types.TIMESTAMP ? Integer.valueOf(29)
                        : p > 0 ? Integer.valueOf(p) : null);
                boolean quoted = t == Types.VARCHAR || t == Types.DATE || t == Types.TIMESTAMP || t == Types.TIME
                        || family.equals("UUID") || family.startsWith("IPv");
                quote.add(quoted ? "'" : null);
                params.add(family.equals("Decimal") ? "precision,scale" : decimal ? "scale"
                        : family.equals("FixedString") ? "length" : family.equals("DateTime64") ? "precision,timezone"
                        : family.equals("DateTime") ? "timezone" : null);
                boolean wrapper = switch (family) {
                    case "Array", "Map", "Tuple", "Nested", "AggregateFunction", "LowCardinality", "Nullable",
                         "SimpleAggregateFunction" -> true;
                    default -> false;
                };
                nullable.add((short) (wrapper ? typeNoNulls : typeNullable));
                caseSensitive.add(t == Types.VARCHAR);
                unsigned.add(family.startsWith("UInt"));
                fixedScale.add(decimal);
                maxScale.add((short) (decimal ? p : family.equals("DateTime64") ? 9 : 0));
                radix.add(TypeFacts.numeric(t) ? 10 : null);
            }
        }
        String q = "SELECT name AS TYPE_NAME, toInt32(if(_i = 0, " + Types.OTHER + ", " + pick(dataType, INT)
                + ")) AS DATA_TYPE, " + pick(precision, INT) + " AS PRECISION, " + pick(quote, STR)
                + " AS LITERAL_PREFIX, " + pick(quote, STR) + " AS LITERAL_SUFFIX, " + pick(params, STR)
                + " AS CREATE_PARAMS, toInt16(" + pick(nullable, SHORT) + ") AS NULLABLE, " + pick(caseSensitive, BOOL)
                + " AS CASE_SENSITIVE, toInt16(" + typeSearchable + ") AS SEARCHABLE, " + pick(unsigned, BOOL)
                + " AS UNSIGNED_ATTRIBUTE, " + pick(fixedScale, BOOL) + " AS FIXED_PREC_SCALE, CAST(0 AS " + type(BOOL)
                + ") AS AUTO_INCREMENT, toNullable(name) AS LOCAL_TYPE_NAME, toInt16(0) AS MINIMUM_SCALE, toInt16("
                + pick(maxScale, SHORT) + ") AS MAXIMUM_SCALE, CAST(NULL AS Nullable(Int32)) AS SQL_DATA_TYPE, "
                + "CAST(NULL AS Nullable(Int32)) AS SQL_DATETIME_SUB, " + pick(radix, INT) + " AS NUM_PREC_RADIX "
                + "FROM (SELECT name, " + keyIndex("name", names) + " FROM system.data_type_families) "
                + "ORDER BY DATA_TYPE, TYPE_NAME";
        return run(q);
    }

    /**
     * The server's functions ({@code system.functions}, aggregate ones included); they belong to no database, so
     * only a null or empty catalog and a schema pattern matching the empty string find them.
     * {@code FUNCTION_TYPE} {@link #functionNoTable}; {@code REMARKS} the description where the server has one.
     */
    @Override
    public ResultSet getFunctions(String catalog, String schemaPattern, String functionNamePattern)
            throws SQLException {
        boolean global = (catalog == null || catalog.isEmpty()) && matchesEmpty(schemaPattern);
        String q = "SELECT " + NULL_STR + " AS FUNCTION_CAT, " + NULL_STR + " AS FUNCTION_SCHEM, name AS "
                + "FUNCTION_NAME, toNullable(" + (has("functions.description") ? "description" : "''")
                + ") AS REMARKS, toInt16(" + functionNoTable + ") AS FUNCTION_TYPE, name AS SPECIFIC_NAME FROM "
                + "system.functions WHERE " + (global ? "1" : "0") + " AND "
                + nameFilter("name", functionNamePattern, true) + " ORDER BY FUNCTION_NAME";
        return run(q);
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
