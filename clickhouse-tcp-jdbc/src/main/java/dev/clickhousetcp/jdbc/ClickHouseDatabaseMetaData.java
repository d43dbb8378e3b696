package dev.clickhousetcp.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.RowIdLifetime;
import java.sql.SQLException;

/**
 * Database facts of a connection: product and driver names and versions, the URL (password hidden), the user,
 * the identifier rules (case-sensitive, stored as written) and the database term of the
 * {@code databaseTerm} property. The metadata result sets ({@code getTables}, {@code getColumns}...) are
 * not provided yet: they throw {@link java.sql.SQLFeatureNotSupportedException} (HYC00). Answers that need
 * no server round trip; safe to share between threads.
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
        return true;
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

    // ------------------------------------------------------------------ not provided yet, or no such feature

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
    public ResultSet getAttributes(String a0, String a1, String a2, String a3) throws SQLException {
        throw SqlStates.notSupported("DatabaseMetaData.getAttributes");
    }

    @Override
    public ResultSet getBestRowIdentifier(String a0, String a1, String a2, int a3, boolean a4) throws SQLException {
        throw SqlStates.notSupported("DatabaseMetaData.getBestRowIdentifier");
    }

    @Override
    public ResultSet getCatalogs() throws SQLException {
        throw SqlStates.notSupported("DatabaseMetaData.getCatalogs");
    }

    @Override
    public ResultSet getClientInfoProperties() throws SQLException {
        throw SqlStates.notSupported("DatabaseMetaData.getClientInfoProperties");
    }

    @Override
    public ResultSet getColumnPrivileges(String a0, String a1, String a2, String a3) throws SQLException {
        throw SqlStates.notSupported("DatabaseMetaData.getColumnPrivileges");
    }

    @Override
    public ResultSet getColumns(String a0, String a1, String a2, String a3) throws SQLException {
        throw SqlStates.notSupported("DatabaseMetaData.getColumns");
    }

    @Override
    public ResultSet getCrossReference(String a0, String a1, String a2, String a3, String a4, String a5) throws SQLException {
        throw SqlStates.notSupported("DatabaseMetaData.getCrossReference");
    }

    @Override
    public ResultSet getExportedKeys(String a0, String a1, String a2) throws SQLException {
        throw SqlStates.notSupported("DatabaseMetaData.getExportedKeys");
    }

    @Override
    public String getExtraNameCharacters() throws SQLException {
        return "";
    }

    @Override
    public ResultSet getFunctionColumns(String a0, String a1, String a2, String a3) throws SQLException {
        throw SqlStates.notSupported("DatabaseMetaData.getFunctionColumns");
    }

    @Override
    public ResultSet getFunctions(String a0, String a1, String a2) throws SQLException {
        throw SqlStates.notSupported("DatabaseMetaData.getFunctions");
    }

    @Override
    public ResultSet getImportedKeys(String a0, String a1, String a2) throws SQLException {
        throw SqlStates.notSupported("DatabaseMetaData.getImportedKeys");
    }

    @Override
    public ResultSet getIndexInfo(String a0, String a1, String a2, boolean a3, boolean a4) throws SQLException {
        throw SqlStates.notSupported("DatabaseMetaData.getIndexInfo");
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

    @Override
    public String getNumericFunctions() throws SQLException {
        return "";
    }

    @Override
    public ResultSet getPrimaryKeys(String a0, String a1, String a2) throws SQLException {
        throw SqlStates.notSupported("DatabaseMetaData.getPrimaryKeys");
    }

    @Override
    public ResultSet getProcedureColumns(String a0, String a1, String a2, String a3) throws SQLException {
        throw SqlStates.notSupported("DatabaseMetaData.getProcedureColumns");
    }

    @Override
    public String getProcedureTerm() throws SQLException {
        return "";
    }

    @Override
    public ResultSet getProcedures(String a0, String a1, String a2) throws SQLException {
        throw SqlStates.notSupported("DatabaseMetaData.getProcedures");
    }

    @Override
    public ResultSet getPseudoColumns(String a0, String a1, String a2, String a3) throws SQLException {
        throw SqlStates.notSupported("DatabaseMetaData.getPseudoColumns");
    }

    @Override
    public String getSQLKeywords() throws SQLException {
        return "";
    }

    @Override
    public ResultSet getSchemas() throws SQLException {
        throw SqlStates.notSupported("DatabaseMetaData.getSchemas");
    }

    @Override
    public ResultSet getSchemas(String a0, String a1) throws SQLException {
        throw SqlStates.notSupported("DatabaseMetaData.getSchemas");
    }

    @Override
    public String getStringFunctions() throws SQLException {
        return "";
    }

    @Override
    public ResultSet getSuperTables(String a0, String a1, String a2) throws SQLException {
        throw SqlStates.notSupported("DatabaseMetaData.getSuperTables");
    }

    @Override
    public ResultSet getSuperTypes(String a0, String a1, String a2) throws SQLException {
        throw SqlStates.notSupported("DatabaseMetaData.getSuperTypes");
    }

    @Override
    public String getSystemFunctions() throws SQLException {
        return "";
    }

    @Override
    public ResultSet getTablePrivileges(String a0, String a1, String a2) throws SQLException {
        throw SqlStates.notSupported("DatabaseMetaData.getTablePrivileges");
    }

    @Override
    public ResultSet getTableTypes() throws SQLException {
        throw SqlStates.notSupported("DatabaseMetaData.getTableTypes");
    }

    @Override
    public ResultSet getTables(String a0, String a1, String a2, String[] a3) throws SQLException {
        throw SqlStates.notSupported("DatabaseMetaData.getTables");
    }

    @Override
    public String getTimeDateFunctions() throws SQLException {
        return "";
    }

    @Override
    public ResultSet getTypeInfo() throws SQLException {
        throw SqlStates.notSupported("DatabaseMetaData.getTypeInfo");
    }

    @Override
    public ResultSet getUDTs(String a0, String a1, String a2, int[] a3) throws SQLException {
        throw SqlStates.notSupported("DatabaseMetaData.getUDTs");
    }

    @Override
    public ResultSet getVersionColumns(String a0, String a1, String a2) throws SQLException {
        throw SqlStates.notSupported("DatabaseMetaData.getVersionColumns");
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
        return false;
    }

    @Override
    public boolean nullsAreSortedAtEnd() throws SQLException {
        return false;
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
        return false;
    }

    @Override
    public boolean supportsAlterTableWithDropColumn() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsColumnAliasing() throws SQLException {
        return false;
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

    @Override
    public boolean supportsCorrelatedSubqueries() throws SQLException {
        return false;
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
        return false;
    }

    @Override
    public boolean supportsExtendedSQLGrammar() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsFullOuterJoins() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsGetGeneratedKeys() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsGroupBy() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsGroupByBeyondSelect() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsGroupByUnrelated() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsIntegrityEnhancementFacility() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsLikeEscapeClause() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsLimitedOuterJoins() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsMinimumSQLGrammar() throws SQLException {
        return false;
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
        return false;
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
        return false;
    }

    @Override
    public boolean supportsOuterJoins() throws SQLException {
        return false;
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
        return false;
    }

    @Override
    public boolean supportsSubqueriesInExists() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsSubqueriesInIns() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsSubqueriesInQuantifieds() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsTableCorrelationNames() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsUnion() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsUnionAll() throws SQLException {
        return false;
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
}
