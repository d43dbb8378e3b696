package dev.clickhousetcp.jdbc;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.List;

/**
 * Column facts from the native header block: names as the server sent them (duplicates kept), the full
 * server type string as the type name. The header names no table, schema or catalog, so those are
 * {@code ""}. Immutable.
 */
final class ClickHouseResultSetMetaData implements ResultSetMetaData {
    private final String[] names;
    private final String[] types;

    ClickHouseResultSetMetaData(List<String> names, String[] types) {
        this.names = names.toArray(String[]::new);
        this.types = types.clone();
    }

    private String type(int column) throws SQLException {
        if (column < 1 || column > types.length) {
            throw new SQLException("column index " + column + " out of range 1.." + types.length, "07009");
        }
        return types[column - 1];
    }

    @Override
    public int getColumnCount() {
        return types.length;
    }

    @Override
    public boolean isAutoIncrement(int column) throws SQLException {
        type(column);
        return false;
    }

    @Override
    public boolean isCaseSensitive(int column) throws SQLException {
        return JdbcTypes.sqlType(type(column)) == java.sql.Types.VARCHAR;
    }

    @Override
    public boolean isSearchable(int column) throws SQLException {
        type(column);
        return true;
    }

    @Override
    public boolean isCurrency(int column) throws SQLException {
        type(column);
        return false;
    }

    @Override
    public int isNullable(int column) throws SQLException {
        return JdbcTypes.nullable(type(column)) ? columnNullable : columnNoNulls;
    }

    @Override
    public boolean isSigned(int column) throws SQLException {
        return JdbcTypes.signed(type(column));
    }

    @Override
    public int getColumnDisplaySize(int column) throws SQLException {
        int p = JdbcTypes.precision(type(column));
        return p > 0 ? p + 2 : 80;
    }

    @Override
    public String getColumnLabel(int column) throws SQLException {
        type(column);
        return names[column - 1];
    }

    @Override
    public String getColumnName(int column) throws SQLException {
        return getColumnLabel(column);
    }

    @Override
    public String getSchemaName(int column) throws SQLException {
        type(column);
        return "";
    }

    @Override
    public int getPrecision(int column) throws SQLException {
        return JdbcTypes.precision(type(column));
    }

    @Override
    public int getScale(int column) throws SQLException {
        return JdbcTypes.scale(type(column));
    }

    @Override
    public String getTableName(int column) throws SQLException {
        type(column);
        return "";
    }

    @Override
    public String getCatalogName(int column) throws SQLException {
        type(column);
        return "";
    }

    @Override
    public int getColumnType(int column) throws SQLException {
        return JdbcTypes.sqlType(type(column));
    }

    @Override
    public String getColumnTypeName(int column) throws SQLException {
        return type(column);
    }

    @Override
    public boolean isReadOnly(int column) throws SQLException {
        type(column);
        return true;
    }

    @Override
    public boolean isWritable(int column) throws SQLException {
        type(column);
        return false;
    }

    @Override
    public boolean isDefinitelyWritable(int column) throws SQLException {
        type(column);
        return false;
    }

    @Override
    public String getColumnClassName(int column) throws SQLException {
        return JdbcTypes.className(type(column));
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return Wrappers.unwrap(iface, this);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return Wrappers.isWrapperFor(iface, this);
    }
}
